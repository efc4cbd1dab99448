// The data-access layer's two engines behind one typed query builder (Kysely): the embedded
// SQLite file (the default, zero set-up) and PostgreSQL (`--database postgres://…`), for a team
// that runs several instances on one ledger. Repository modules write their queries once against
// `Engine.q`; only they, and this module, know which engine runs (`dialect`), for the few
// statements the two spell differently (locks, upserts of counters).
//
// SQLite: Kysely runs on the same better-sqlite3 connection as the service's synchronous
// statements. Its queries are synchronous under their promises, so a transaction whose callback
// awaits only the database finishes within one turn of the event loop, and no other request's
// statement lands inside it. A callback that awaits anything else would break that; `transaction`
// below refuses to commit one that did (it would otherwise be a lost update waiting to happen).
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  CompiledQuery, Kysely, PostgresDialect, sql, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type KyselyPlugin,
  type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type SqliteDatabase, type SqliteDialectConfig, type SqliteStatement, type UnknownRow,
} from 'kysely';
import { createRequire } from 'node:module';
import type PgModule from 'pg';
import type { Db } from './open';
import type { Tables } from './tables';

/**
 * The PostgreSQL driver, loaded the first time an engine on PostgreSQL is made: a service or CLI
 * call on the embedded SQLite file (the desktop, every CLI call on a data directory) does not pay
 * for loading it at each start.
 */
let pgDriver: typeof PgModule | undefined;
const pgModule = (): typeof PgModule => (pgDriver ??= createRequire(import.meta.url)('pg') as typeof PgModule);

export type Dialect = 'sqlite' | 'postgres';
/** A query builder: the engine's, or a transaction's (the same type: a repository takes either). */
export type Q = Kysely<Tables>;

export interface Engine {
  dialect: Dialect;
  q: Q;
  /** Runs `work` in one transaction (on PostgreSQL READ COMMITTED, with the row locks it takes). */
  transaction<T>(work: (tx: Q) => Promise<T>): Promise<T>;
  /**
   * Runs `work`'s reads on one snapshot of the database, however many statements it takes (a walk
   * of a long table): on PostgreSQL a REPEATABLE READ, read-only transaction; on SQLite a
   * transaction, as `transaction`.
   */
  snapshot<T>(work: (tx: Q) => Promise<T>): Promise<T>;
  /**
   * Makes transactions that ask for the same `lock` (any fixed number) take turns, across
   * instances, until `tx` ends: on PostgreSQL an advisory lock for the transaction; on SQLite
   * nothing, its transactions already hold the one write lock.
   */
  exclusive(tx: Q, lock: number): Promise<void>;
  /**
   * Sends `payload` to the instances listening on `channel` once `tx` commits (PostgreSQL's
   * pg_notify); on SQLite nothing, there is no other instance.
   */
  notify(tx: Q, channel: string, payload: string): Promise<void>;
  /**
   * Calls `heard` with each payload sent on `channel` by any instance (PostgreSQL's LISTEN, on the
   * one connection the engine keeps for all its channels). A connection that drops is made again,
   * and `heard(null)` says that notifications may have been missed meanwhile. Answers the function
   * that stops listening. On SQLite nothing is ever heard.
   */
  listen(channel: string, heard: (payload: string | null) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** A channel's name as LISTEN takes it unquoted: lower-case letters, digits and underscores. */
const CHANNEL = /^[a-z][a-z0-9_]{0,62}$/;

/** Whether a conditional UPDATE or DELETE changed exactly one row: this call decided, no other did first. */
export const changedOne = (r: { numUpdatedRows: bigint } | { numDeletedRows: bigint }): boolean =>
  Number('numUpdatedRows' in r ? r.numUpdatedRows : r.numDeletedRows) === 1;

/**
 * Set while a transaction's callback runs (and in everything it awaits). Work the callback starts
 * in the background (a timer, a job queue's next turn) inherits it too: it is marked ended when the
 * transaction ends, so that work may use the engine afterwards.
 */
const inTransaction = new AsyncLocalStorage<{ open: boolean }>();

/** Runs `work(tx)` marked as inside the transaction until it settles. */
async function marked<T>(work: (tx: Q) => Promise<T>, tx: Q): Promise<T> {
  const mark = { open: true };
  try {
    return await inTransaction.run(mark, () => work(tx));
  } finally {
    mark.open = false;
  }
}

/**
 * A query on the engine's own builder from inside a transaction's callback is a mistake: on SQLite
 * it waits for the connection the transaction holds, for ever; on PostgreSQL it runs on another
 * connection, outside the transaction (its writes survive a rollback, it cannot see the
 * transaction's rows). It throws instead, naming the fix.
 */
class OutsideTransactionsOnly implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (inTransaction.getStore()?.open) throw new Error('a query on the engine inside a transaction: run it on the transaction (tx) the callback was given');
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}
const guard = new OutsideTransactionsOnly();

/**
 * SQLite's transactions begin IMMEDIATE, as the service's own do: the write lock is taken at once,
 * so a CLI writing the same file makes a transaction wait (busy_timeout), never fail half-way
 * when it first writes.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  constructor(private readonly db: Db, config: SqliteDialectConfig) {
    super(config);
  }
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  /**
   * SQLite rolls some failures back itself (SQLITE_FULL, SQLITE_IOERR): a ROLLBACK then fails with
   * "no transaction is active", and that error would replace the one the caller must see (a full
   * disk answers 507, not 500). Only a transaction still open is rolled back.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.db.inTransaction) await super.rollbackTransaction(connection);
  }
}

/** Prepared statements kept, by their SQL text (the least recently used goes first). */
const STATEMENTS_KEPT = 1000;

/**
 * The connection as Kysely sees it, its statements prepared once: Kysely's SQLite driver prepares
 * every query it runs, and compiling the statement was a fifth of the HTTP thread's busy time under
 * `npm run bench:load` (761 of 3,996 ms). A statement is re-run only after its last run returned
 * (`all` and `run` are synchronous; no query here is streamed with `iterate`).
 */
export function keptStatements(db: Db, max = STATEMENTS_KEPT): SqliteDatabase {
  const kept = new Map<string, SqliteStatement>();
  return {
    prepare(sql: string): SqliteStatement {
      let stmt = kept.get(sql);
      if (stmt) kept.delete(sql);
      else {
        stmt = db.prepare(sql) as unknown as SqliteStatement;
        if (kept.size >= max) kept.delete(kept.keys().next().value!);
      }
      kept.set(sql, stmt);
      return stmt;
    },
    close: () => db.close(),
  };
}

class ImmediateSqliteDialect extends SqliteDialect {
  private readonly database: SqliteDatabase;
  constructor(private readonly db: Db) {
    const database = keptStatements(db);
    super({ database });
    this.database = database;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.db, { database: this.database });
  }
}

/** Kysely over the service's better-sqlite3 connection (which the caller keeps and closes). */
export function sqliteEngine(db: Db): Engine {
  // A connection of its own would wait on the service's write lock inside the same thread.
  const base = new Kysely<Tables>({ dialect: new ImmediateSqliteDialect(db) });
  const q = base.withPlugin(guard);
  return {
    dialect: 'sqlite',
    q,
    async transaction(work) {
      let crossed = false;
      const turn = setImmediate(() => (crossed = true));
      try {
        // Kysely holds the one connection for the transaction: two started in the same turn take turns.
        return await base.transaction().execute(async (tx) => {
          const out = await marked(work, tx);
          if (crossed) throw new Error('a SQLite transaction awaited something other than the database: its statements could interleave with another request');
          return out;
        });
      } finally {
        clearImmediate(turn);
      }
    },
    snapshot(work) {
      return this.transaction(work);
    },
    exclusive: async () => {},
    notify: async () => {},
    listen: async () => async () => {},
    // The connection is the service's: it closes it (Kysely's destroy would close it too early).
    close: async () => {},
  };
}

/** When a client should try again after the database could not be reached (Retry-After, seconds). */
export const DATABASE_RETRY_S = 5;

/** Connection failures from pg and the server (SQLSTATE class 08, and 57P01–57P03: shutting down, starting up). */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', '57P01', '57P02', '57P03']);

/**
 * Whether an error says the database server cannot be reached now (it refused or dropped the
 * connection, or no connection came free in time): the service answers 503 with Retry-After, and
 * /api/health says the database is unavailable. Never true for SQLite, whose file is this process's.
 */
export function databaseUnreachable(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  return /^(timeout exceeded when trying to connect|Connection terminated)/.test(e.message);
}

/** int8 and numeric arrive from pg as text (they may exceed a double); the ledger's never do. */
function parseInt8(v: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new Error(`a 64-bit integer beyond 2^53 came from PostgreSQL: ${v}`);
  return n;
}

const INT8 = 20;
const NUMERIC = 1700;

export interface PostgresOptions {
  /** Connections in this instance's pool. */
  max?: number;
  /** How long a query may wait for a connection before it fails (the service answers 503 then). */
  connectionTimeoutMs?: number;
}

/** A pool on `url` (postgres://…), numbers read as numbers. Not migrated: see db/postgres/migrate.ts. */
export function postgresEngine(url: string, opts: PostgresOptions = {}): Engine {
  const pg = pgModule();
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: opts.connectionTimeoutMs ?? 5_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
        if (oid === INT8) return parseInt8;
        if (oid === NUMERIC) return Number;
        return pg.types.getTypeParser(oid, format);
      }) as typeof pg.types.getTypeParser,
    },
  });
  // A connection the server dropped (a restart, a failover, the network) must not crash the
  // service: an idle one's error reaches the pool, a checked-out one's its client (a query on it
  // fails, and its caller answers 503); neither is thrown.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const base = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  const listener = channelListener(url, opts.connectionTimeoutMs ?? 5_000);
  return {
    dialect: 'postgres',
    q: base.withPlugin(guard),
    transaction: (work) => base.transaction().execute((tx) => marked(work, tx)),
    snapshot: (work) => base.transaction().setIsolationLevel('repeatable read').setAccessMode('read only')
      .execute((tx) => marked(work, tx)),
    exclusive: async (tx, lock) => {
      await sql`SELECT pg_advisory_xact_lock(${lock})`.execute(tx);
    },
    notify: async (tx, channel, payload) => {
      if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`);
      await sql`SELECT pg_notify(${channel}, ${payload})`.execute(tx);
    },
    listen: async (channel, heard) => {
      if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`);
      return listener.follow(channel, heard);
    },
    close: async () => {
      await listener.close();
      await base.destroy();
    },
  };
}

/** How long a dropped listening connection waits before it is made again. */
const LISTEN_RETRY_MS = 1_000;

type Heard = (payload: string | null) => void;

/**
 * LISTEN on one connection of the engine's own, for every channel its instance follows (a pool's
 * connections are shared, and a notification arrives only on the connection that listens; one
 * connection for all channels keeps an instance's connections to its pool and this one). It is
 * made when the first channel is followed, made again after LISTEN_RETRY_MS whenever it cannot be
 * made or drops (each time it is back, every follower hears `null`), and ended with the last one.
 */
function channelListener(url: string, connectionTimeoutMillis: number) {
  const followers = new Map<string, Set<Heard>>();
  let client: PgModule.Client | null = null;
  /** The channels `client` listens on. */
  let listening = new Set<string>();
  let connecting: Promise<void> | null = null;
  let retry: NodeJS.Timeout | null = null;
  const wanted = () => followers.size > 0;
  /** Ends the connection (the last follower stopped, or the engine closes). */
  const end = async (): Promise<void> => {
    if (retry) clearTimeout(retry);
    retry = null;
    const c = client;
    client = null;
    listening = new Set();
    await c?.end().catch(() => {});
  };
  const tellAll = (payload: string | null) => {
    for (const set of followers.values()) for (const h of set) h(payload);
  };
  const again = () => {
    if (!wanted() || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void connect(true);
    }, LISTEN_RETRY_MS);
    retry.unref();
  };
  const connect = (after: boolean): Promise<void> => {
    connecting ??= (async () => {
      const c = new (pgModule().Client)({ connectionString: url, connectionTimeoutMillis });
      // A server restart or a network failure ends the connection: it is made again, never thrown.
      c.on('error', () => {});
      c.on('end', () => {
        if (client === c) {
          client = null;
          listening = new Set();
        }
        again();
      });
      c.on('notification', (n) => {
        for (const h of followers.get(n.channel) ?? []) h(n.payload ?? '');
      });
      const channels = new Set(followers.keys());
      try {
        await c.connect();
        for (const ch of channels) await c.query(`LISTEN ${ch}`);
      } catch {
        void c.end().catch(() => {});
        again();
        return;
      }
      if (!wanted()) {
        await c.end().catch(() => {});
        return;
      }
      client = c;
      listening = channels;
      if (after) tellAll(null);
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };
  return {
    /** Follows `channel` (listening once this answers, or trying again in the background while the database is down); answers the stop. */
    async follow(channel: string, heard: Heard): Promise<() => Promise<void>> {
      const set = followers.get(channel) ?? new Set<Heard>();
      followers.set(channel, set);
      set.add(heard);
      if (connecting) await connecting;
      if (!client && !retry) await connect(false);
      // Connected before this channel was followed: it is listened to on the same connection.
      if (client && !listening.has(channel)) {
        listening.add(channel);
        await client.query(`LISTEN ${channel}`).catch(() => {});
      }
      return async () => {
        set.delete(heard);
        if (set.size === 0 && followers.get(channel) === set) followers.delete(channel);
        if (!wanted()) await end();
      };
    },
    /** Stops every follower and ends the connection (the engine closes). */
    async close(): Promise<void> {
      followers.clear();
      await end();
    },
  };
}
