// The data layer's two engines for tests: a fresh SQLite data directory, and a fresh database on
// the run's PostgreSQL cluster (test/pg-global-setup.ts), migrated as the service migrates them.
// `ENGINES` lists both; a test over it runs once per engine, PostgreSQL skipped (with the reason)
// where the machine cannot run it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHmac } from 'node:crypto';
import { afterEach, inject } from 'vitest';
import { postgresEngine, sqliteEngine, type Dialect, type Engine } from '../db/engine';
import { openDatabase, type Db } from '../db/open';
import { migratePostgres } from '../db/postgres/migrate';
import { createAccounts } from '../core/accounts/accounts';
import { createAudit } from '../core/audit/audit';
import type { Clock } from '../core/clock';
import type { InstallSecret } from '../core/install-secret';
import pg from 'pg';
import { runStatement } from './pg-cluster';

export interface TestEngine {
  engine: Engine;
  /** SQLite: the service's connection (its synchronous repositories run on it). */
  db: Db | null;
  /** PostgreSQL: the database's URL (another "instance" opens its own pool on it). */
  url: string | null;
  close(): Promise<void>;
}

export const POSTGRES = inject('postgres');

/** Another database of the run's cluster. */
const urlOf = (name: string) => POSTGRES.url!.replace('/postgres?', `/${name}?`);

let made = 0;

/** A fresh engine; PostgreSQL's database left empty with `migrate: false` (SQLite's file is always migrated on open). */
export async function openTestEngine(dialect: Dialect, opts: { migrate?: boolean } = {}): Promise<TestEngine> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'cc-engine-'));
    const db = openDatabase(dir);
    return {
      engine: sqliteEngine(db),
      db,
      url: null,
      async close() {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (!POSTGRES.url) throw new Error(`PostgreSQL is not available: ${POSTGRES.why}`);
  const name = `cc_test_${process.pid}_${++made}_${Date.now().toString(36)}`;
  await runStatement(POSTGRES.url, `CREATE DATABASE ${name}`);
  const url = urlOf(name);
  const engine = postgresEngine(url, { max: 4 });
  if (opts.migrate !== false) await migratePostgres(engine);
  return {
    engine,
    db: null,
    url,
    async close() {
      await engine.close();
      await runStatement(POSTGRES.url!, `DROP DATABASE ${name} WITH (FORCE)`);
    },
  };
}

/**
 * A fresh database on the run's cluster: what a test service on PostgreSQL starts from (harness.ts,
 * CONSOLE_TEST_ENGINE), as one on SQLite starts from a copy of a migrated file. Answers its URL and
 * how to give it back once no service uses it.
 *
 * Made from a migrated template (made once per test process), or one a closed test service gave
 * back, emptied: its connections ended, every table but the schema version's emptied with its
 * triggers off (the audit log's refuse deletes), its sequences restarted. Emptying one takes about
 * as long as copying one, but a copy (and a drop) checkpoints the whole cluster, which every other
 * test process's databases wait on: the `routes-postgres` project took 107 s with a database
 * copied and dropped per test, 85 s with them emptied (both with services closed as their test
 * ends). Emptied, it holds what the template holds, row for row (`recycledDatabaseDiffers`).
 */
let template: Promise<{ name: string; emptySql: string }> | undefined;
const givenBack: { name: string; admin: pg.Client }[] = [];
let maintenance: Promise<pg.Client> | undefined;

export async function freshPostgresDatabase(): Promise<{ url: string; giveBack(): Promise<void> }> {
  if (!POSTGRES.url) throw new Error(`PostgreSQL is not available: ${POSTGRES.why}`);
  template ??= (async () => {
    const name = `cc_template_${process.pid}_${Date.now().toString(36)}`;
    await runStatement(POSTGRES.url!, `CREATE DATABASE ${name}`);
    const engine = postgresEngine(urlOf(name), { max: 1 });
    await migratePostgres(engine);
    // A template must have no connection open while it is copied.
    await engine.close();
    const client = await connected(urlOf(name));
    try {
      return { name, emptySql: await emptyingStatements(client) };
    } finally {
      await client.end();
    }
  })();
  const { name: templateName, emptySql } = await template;
  const back = givenBack.pop();
  if (back) {
    try {
      await back.admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      await back.admin.query(emptySql);
      return { url: urlOf(back.name), giveBack: async () => void givenBack.push(back) };
    } catch {
      // Its connection was ended (a test that stops the cluster's backends): a new database instead.
      void back.admin.end().catch(() => {});
    }
  }
  const name = `cc_test_${process.pid}_${++made}_${Date.now().toString(36)}`;
  maintenance ??= connected(POSTGRES.url);
  // FILE_COPY copies the template's files (a checkpoint, cheap with fsync off) where the default,
  // WAL_LOG, writes every page of it through the write-ahead log: 58 ms a database instead of 115.
  await (await maintenance).query(`CREATE DATABASE ${name} TEMPLATE ${templateName} STRATEGY FILE_COPY`);
  // The harness's own connection to it, idle while a test runs (in pg_stat_activity: the tests
  // that count a database's connections count those of one they opened with openTestEngine).
  const admin = await connected(urlOf(name));
  return { url: urlOf(name), giveBack: async () => void givenBack.push({ name, admin }) };
}

async function connected(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  // Ended by the server (a test ending every backend): the next use fails, not the process.
  client.on('error', () => {});
  await client.connect();
  return client;
}

/**
 * What empties a migrated database back to its migrations' state: every table but
 * `schema_version` (the only one they fill) emptied with triggers and foreign keys off, every
 * sequence restarted. Refuses a template whose migrations filled another table.
 */
async function emptyingStatements(client: pg.Client): Promise<string> {
  const tables = (await client.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_version' ORDER BY tablename")).rows.map((r) => r.name);
  const sequences = (await client.query<{ name: string }>("SELECT sequencename AS name FROM pg_sequences WHERE schemaname = 'public' ORDER BY sequencename")).rows.map((r) => r.name);
  for (const t of tables) {
    const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${t}"`);
    if (Number(rows[0]!.n) !== 0) throw new Error(`the migrated template has rows in ${t}: emptying a database would not give its state back`);
  }
  return [
    'BEGIN', 'SET LOCAL session_replication_role = replica',
    ...tables.map((t) => `DELETE FROM "${t}"`),
    ...sequences.map((q) => `ALTER SEQUENCE "${q}" RESTART`),
    'COMMIT',
  ].join(';\n');
}

/**
 * What a database given back and emptied holds that the template does not (tables' rows, sequences'
 * next values, the schema's tables, columns and triggers), one line each: none, or emptying misses
 * something. (`routes/postgres.test.ts`)
 */
export async function recycledDatabaseDiffers(url: string): Promise<string[]> {
  const { name } = await template!;
  const state = async (u: string) => {
    const c = await connected(u);
    try {
      const out: string[] = [];
      const cols = await c.query<{ t: string; c: string; d: string }>("SELECT table_name AS t, column_name AS c, data_type AS d FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2");
      out.push(...cols.rows.map((r) => `column ${r.t}.${r.c} ${r.d}`));
      const trg = await c.query<{ t: string }>("SELECT tgname AS t FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1");
      out.push(...trg.rows.map((r) => `trigger ${r.t}`));
      for (const t of (await c.query<{ t: string }>("SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")).rows) {
        const rows = await c.query(`SELECT * FROM "${t.t}"`);
        out.push(...rows.rows.map((r) => `row ${t.t} ${JSON.stringify(r)}`));
      }
      for (const q of (await c.query<{ q: string }>("SELECT sequencename AS q FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1")).rows) {
        const v = await c.query(`SELECT last_value, is_called FROM "${q.q}"`);
        out.push(`sequence ${q.q} ${JSON.stringify(v.rows[0])}`);
      }
      return out;
    } finally {
      await c.end();
    }
  };
  const [want, got] = await Promise.all([state(urlOf(name)), state(url)]);
  const wanted = new Set(want);
  const have = new Set(got);
  return [...got.filter((l) => !wanted.has(l)).map((l) => `more: ${l}`), ...want.filter((l) => !have.has(l)).map((l) => `missing: ${l}`)];
}


/** Both engines, for `describe.each`: PostgreSQL's entry says why it is skipped, when it is. */
export const ENGINES: readonly { dialect: Dialect; skip: string | null }[] = [
  { dialect: 'sqlite', skip: null },
  { dialect: 'postgres', skip: POSTGRES.url ? null : POSTGRES.why },
];

/**
 * The engines of one test file, closed after each test: `open` makes a fresh one; `instances`
 * gives the services that share it, `n` pools on PostgreSQL's database (as `n` instances behind a
 * load balancer), SQLite's one engine (one process alone opens its file).
 */
export function testEngines() {
  let opened: TestEngine[] = [];
  let pools: Engine[] = [];
  afterEach(async () => {
    await Promise.all(pools.map((p) => p.close()));
    await Promise.all(opened.map((e) => e.close()));
    opened = [];
    pools = [];
  });
  return {
    async open(dialect: Dialect, opts: { migrate?: boolean } = {}): Promise<TestEngine> {
      const t = await openTestEngine(dialect, opts);
      opened.push(t);
      return t;
    },
    instances(t: TestEngine, n: number, max = 4): Engine[] {
      if (!t.url) return [t.engine];
      const made = Array.from({ length: n }, () => postgresEngine(t.url!, { max }));
      pools.push(...made);
      return made;
    },
  };
}

/**
 * The engines of `n` transactions that wait for each other once begun (and, with `commitsWaitMs`,
 * before they commit), so that all of them have made their reads before any commits: a race made certain (PostgreSQL; SQLite's one connection
 * runs one transaction at a time, so there it would wait for ever: use it on PostgreSQL only).
 */
export function together(engines: Engine[], n: number, opts: { commitsWaitMs?: number } = {}): Engine[] {
  let begun = 0;
  let done = 0;
  let all!: () => void;
  let allDone!: () => void;
  const ready = new Promise<void>((r) => (all = r));
  const finished = new Promise<void>((r) => (allDone = r));
  return engines.map((e) => ({
    ...e,
    transaction: (work) => e.transaction(async (tx) => {
      if (++begun === n) all();
      await ready;
      const out = await work(tx);
      // Also holding each commit until every transaction has done its work (or, when a lock makes
      // them take turns, `commitsWaitMs` has passed): a read then sees no other's commit.
      if (opts.commitsWaitMs !== undefined) {
        if (++done === n) allDone();
        await Promise.race([finished, new Promise((r) => setTimeout(r, opts.commitsWaitMs))]);
      }
      return out;
    }),
  }));
}

/** An install secret with a fixed key, for tests that make the modules by hand. */
export const TEST_SECRET = { derive: (purpose: string) => createHmac('sha256', 'install').update(purpose).digest() } as unknown as InstallSecret;

/** One instance's accounts and audit log on `engine`, as the service composes them. */
export function accountsAndAudit(engine: Engine, clock: Clock) {
  const accounts = createAccounts(engine, clock);
  return { accounts, audit: createAudit(engine, clock, TEST_SECRET, { byId: accounts.userById, ofOrg: accounts.usersOf }) };
}
