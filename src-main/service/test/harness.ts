// Test harness: a real service (real SQLite in a temp data directory, manual clock) driven
// through the HTTP app in-process, exactly as a client would drive it. Under
// CONSOLE_TEST_ENGINE=postgres (vitest's `routes-postgres` project) a service without a database
// of its own gets a fresh PostgreSQL database on the run's cluster instead of the SQLite file.
import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery } from 'kysely';
import { onTestFinished } from 'vitest';
import { PLAN_INFO, type Environment, type Plan, type Product } from '../../../src-shared/catalog';
import { compose, type ComposeOptions, type Services } from '../compose';
import { ManualClock } from '../core/clock';
import { DB_FILE, openDatabase } from '../db/open';
import { createApp, type App, type AppOptions } from '../http/app';
import type { Drift } from '../http/response-check';
import type { RouteInfo } from '../http/types';
import { createLogger } from '../log';

/** The engine a test service's ledger runs on when the test does not choose (CONSOLE_TEST_ENGINE). */
export const TEST_ENGINE: 'sqlite' | 'postgres' = process.env.CONSOLE_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

export const OWNER = { email: 'owner@example.test', password: 'correct horse battery', name: 'Olivia Owner' };
export const ORIGIN = 'http://127.0.0.1:4310';

export interface Call {
  key?: string;
  cookie?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** The client's address as the socket would give it (in process there is none: `in-process`). */
  address?: string;
}

/** A further organisation in the same database: every org_id filter is exercised against it. */
export interface OtherOrg {
  orgId: number;
  ownerId: number;
  email: string;
  password: string;
  key(opts?: { env?: Environment; scopes?: Product[]; demo?: boolean }): Promise<{ id: string; api_key: string; secret: string }>;
  login(): Promise<string>;
  grant(n: number): Promise<void>;
}

export interface TestService {
  app: App;
  routes: RouteInfo[];
  s: Services;
  clock: ManualClock;
  dataDir: string;
  orgId: number;
  ownerId: number;
  /**
   * Rows of one SQL statement on the service's ledger, on either engine (`?` placeholders): what a
   * test reads of the stored rows beside the API. Standard SQL only: it runs on both.
   */
  sql<T = Record<string, unknown>>(text: string, ...params: unknown[]): Promise<T[]>;
  /** Every table of the ledger with all its rows, on either engine: what a privacy check searches. */
  tables(): Promise<Record<string, unknown[]>>;
  /** A table's column names, on either engine. */
  columns(table: string): Promise<string[]>;
  call(method: string, path: string, opts?: Call): Promise<Response>;
  json<T = Record<string, unknown>>(method: string, path: string, opts?: Call): Promise<{ status: number; body: T; res: Response }>;
  key(opts?: { env?: Environment; scopes?: Product[]; demo?: boolean; plan?: Plan }): Promise<{ id: string; api_key: string; secret: string }>;
  login(email?: string, password?: string): Promise<string>;
  setPlan(plan: Plan): Promise<void>;
  grant(n: number): Promise<void>;
  /** Adds another organisation, with its owner, to this service's database. */
  addOrg(opts?: { name?: string; plan?: Plan; email?: string; password?: string }): Promise<OtherOrg>;
  /**
   * Stops this service and starts a new one on the same data directory at the same time, as a
   * restart of the app would; the new one owns the directory from then on. `meanwhile` runs while
   * it is stopped (another process of the service on the directory: no module state shared).
   */
  restart(meanwhile?: (dataDir: string) => Promise<void>): Promise<TestService>;
  close(): void;
}

const open: TestService[] = [];
/** Answers that did not match their declared schema, in any service of this test file. */
export const drifts: Drift[] = [];

type ServiceOptions = {
  plan?: Plan; setup?: boolean; loginToken?: string; extraRoutes?: AppOptions['extraRoutes']; resourcesDir?: string;
  uploads?: AppOptions['uploads'];
  /** `--trust-proxy`: the reverse proxies whose forwarding headers are read. */
  trustProxy?: AppOptions['trustProxy'];
  faces?: ComposeOptions['faces'];
  publicUrl?: string;
  /** The team server as `--team` starts it (its own certificate, if any). */
  team?: ComposeOptions['team'];
  exports?: ComposeOptions['exports'];
  /** Free space on the data directory's disk (a test simulates a full disk). */
  storage?: ComposeOptions['storage'];
  /** Recorded model outputs to replay (test/recorded-models.ts). */
  models?: ComposeOptions['models'];
  /** The ledger on this PostgreSQL database (a postgres:// URL) instead of the data directory's SQLite file. */
  database?: string;
  /** Connections to it at most (CONSOLE_DATABASE_POOL). */
  databasePool?: number;
};

/**
 * A database every migration has run on, made once per test process: a new test service starts
 * from a copy of it (0600, as the service makes its own) instead of migrating an empty file again.
 * The service's start then finds it at the latest version, as it finds an existing install's.
 * migrations.test.ts runs the migrations themselves.
 */
let template: string | undefined;
function migratedTemplate(): string {
  if (template !== undefined && existsSync(template)) return template;
  const dir = mkdtempSync(join(tmpdir(), 'cc-test-template-'));
  const db = openDatabase(dir);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const file = join(dir, DB_FILE);
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  template = file;
  return file;
}

/** The PostgreSQL database each data directory's service was given (a restart on the directory reuses it). */
const databaseOf = new Map<string, string>();
/** Databases this harness took: how many open services use each, and how to give it back once none does. */
const madeDatabases = new Map<string, { users: number; giveBack: () => Promise<void> }>();

export async function testService(opts: ServiceOptions = {}, reuse?: { dataDir: string; now: number; ownerId: number; orgId?: number }): Promise<TestService> {
  const dataDir = reuse?.dataDir ?? mkdtempSync(join(tmpdir(), 'cc-test-'));
  const before = reuse ? databaseOf.get(reuse.dataDir) : undefined;
  if (opts.database === undefined && before !== undefined) opts = { ...opts, database: before };
  // Its own database, given back once no service uses it (a restart on the directory reuses it).
  if (!reuse && opts.database === undefined && TEST_ENGINE === 'postgres') {
    const { freshPostgresDatabase } = await import('./engines');
    const made = await freshPostgresDatabase();
    madeDatabases.set(made.url, { users: 0, giveBack: made.giveBack });
    opts = { ...opts, database: made.url };
  }
  const database = opts.database;
  if (database !== undefined) databaseOf.set(dataDir, database);
  const made = database !== undefined ? madeDatabases.get(database) : undefined;
  if (made) made.users++;
  if (!reuse && opts.database === undefined) {
    const db = join(dataDir, DB_FILE);
    copyFileSync(migratedTemplate(), db);
    chmodSync(db, 0o600);
  }
  const clock = new ManualClock(reuse?.now ?? Date.now());
  // A database of the harness's own: three connections (a file's services stay open until its
  // end, dozens of them on one cluster); one a test gave: the service's default, or the test's.
  const pool = opts.databasePool ?? (made ? 3 : undefined);
  const s = await compose({
    dataDir, clock, logger: createLogger({ dataDir }),
    ...(opts.loginToken ? { loginToken: opts.loginToken } : {}),
    ...(opts.resourcesDir ? { resourcesDir: opts.resourcesDir } : {}),
    ...(opts.faces ? { faces: opts.faces } : {}),
    ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
    ...(opts.team ? { team: opts.team } : {}),
    ...(opts.exports ? { exports: opts.exports } : {}),
    ...(opts.storage ? { storage: opts.storage } : {}),
    ...(opts.models ? { models: opts.models } : {}),
    ...(opts.database ? { database: opts.database, ...(pool !== undefined ? { databasePool: pool } : {}) } : {}),
  });
  // In process there is no listener: the service is told the address the requests are made to, as
  // main.ts tells it the one it bound (and the on-site server comes back if it was left running).
  await s.listening(ORIGIN);
  // Every answer is held to the schema its route declares; drift fails the request and the file.
  const { app, routes } = createApp(s, {
    ...(opts.extraRoutes ? { extraRoutes: opts.extraRoutes } : {}),
    ...(opts.uploads ? { uploads: opts.uploads } : {}),
    ...(opts.trustProxy ? { trustProxy: opts.trustProxy } : {}),
    onResponseDrift: (d) => {
      drifts.push(d);
      console.error(`Response drift: ${d.method} ${d.path} ${d.status}: ${d.problem}\n  ${d.issues.join('\n  ')}`);
    },
  });
  let orgId = reuse?.orgId ?? 0;
  let ownerId = reuse?.ownerId ?? 0;
  let closed = false;
  if (opts.setup !== false && !reuse) {
    const r = await s.accounts.setup({ organization: 'Test Org', name: OWNER.name, email: OWNER.email, password: OWNER.password, plan: opts.plan ?? 'pro' });
    orgId = r.org.id;
    ownerId = r.user.id;
  } else if (!reuse) {
    // Another instance's organisation on the same database (PostgreSQL), when there is one already.
    orgId = (await s.accounts.organization())?.id ?? 0;
  }

  async function call(method: string, path: string, o: Call = {}): Promise<Response> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.key) headers['X-API-Key'] = o.key;
    if (o.cookie) headers.Cookie = o.cookie;
    let body: string | undefined = o.rawBody;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['Content-Type'] ??= 'application/json';
    }
    // Hono's in-process request takes the Node bindings as its third argument; only the socket's address is read.
    const bindings = o.address ? { incoming: { socket: { remoteAddress: o.address } } as unknown as IncomingMessage } : undefined;
    return app.request(`${ORIGIN}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) }, bindings);
  }

  const t: TestService = {
    app, routes, s, clock, dataDir,
    // Set up by the API during the test (no setup here, and none on the database yet): the first
    // organisation, read as the CLI reads it (SQLite); on PostgreSQL, `s.accounts.organization()`.
    get orgId() {
      if (orgId) return orgId;
      if (!s.embedded) throw new Error('no organisation when this test service started: read it with s.accounts.organization()');
      return (s.db.prepare('SELECT id FROM organizations ORDER BY id LIMIT 1').get() as { id: number }).id;
    },
    get ownerId() { return ownerId; },
    async sql<T>(text: string, ...params: unknown[]): Promise<T[]> {
      if (s.embedded) {
        const st = s.db.prepare(text);
        if (st.reader) return st.all(...params) as T[];
        st.run(...params);
        return [];
      }
      let n = 0;
      const r = await s.engine.q.executeQuery<T>(CompiledQuery.raw(text.replace(/\?/g, () => `$${++n}`), params));
      return r.rows;
    },
    async tables() {
      const names = s.embedded
        ? await t.sql<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
        : await t.sql<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'");
      const out: Record<string, unknown[]> = {};
      for (const { name } of names) out[name] = await t.sql(`SELECT * FROM "${name}"`);
      return out;
    },
    async columns(table: string) {
      const rows = s.embedded
        ? await t.sql<{ name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
        : await t.sql<{ name: string }>("SELECT column_name AS name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ?", table);
      return rows.map((r) => r.name);
    },
    call,
    async json<T>(method: string, path: string, o: Call = {}) {
      const res = await call(method, path, o);
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : null) as T, res };
    },
    async key({ env = 'test', scopes, demo = false } = {}) {
      const org = (await s.accounts.organization())!;
      scopes ??= PLAN_INFO[org.plan].compliance ? ['human', 'age', 'identity', 'compliance'] : ['human', 'age', 'identity'];
      const c = await s.keys.create({ orgId: org.id, plan: org.plan, name: 'test', env, scopes, demo, createdBy: ownerId || null });
      return { id: c.key.id, api_key: c.api_key, secret: c.secret };
    },
    async login(email = OWNER.email, password = OWNER.password) {
      const res = await call('POST', '/api/auth/login', { body: { email, password } });
      if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
      return cookieFrom(res);
    },
    async setPlan(plan) { await s.engine.transaction((tx) => s.accounts.setPlan(plan, tx)); },
    async grant(n) { await s.credits.grant(t.orgId, n, 'test'); },
    async addOrg({ name = 'Other Org', plan = 'pro', email = 'owner@other.test', password = 'other owner password' } = {}) {
      const orgId = await s.accounts.repo.insertOrg(s.engine.q, name, plan, new Date(clock.now()).toISOString());
      const owner = await s.accounts.addUser({ orgId, email, name: `${name} Owner`, password, role: 'owner', billing: true });
      return {
        orgId, ownerId: owner.id, email, password,
        async key({ env = 'test', scopes, demo = false } = {}) {
          scopes ??= PLAN_INFO[plan].compliance ? ['human', 'age', 'identity', 'compliance'] : ['human', 'age', 'identity'];
          const c = await s.keys.create({ orgId, plan, name: 'other', env, scopes, demo, createdBy: owner.id });
          return { id: c.key.id, api_key: c.api_key, secret: c.secret };
        },
        login: () => t.login(email, password),
        async grant(n) { await s.credits.grant(orgId, n, 'test'); },
      };
    },
    async restart(meanwhile) {
      closed = true;
      s.close();
      // The database goes on with the restarted service.
      if (made) made.users--;
      await meanwhile?.(dataDir);
      return testService(opts, { dataDir, now: clock.now(), ownerId, orgId });
    },
    close() {
      if (closed) return;
      closed = true;
      s.close();
      removeDataDir(dataDir);
      // Given back: its next taker ends the connections the pool s.close() is ending may still hold.
      if (made && --made.users === 0) void made.giveBack();
    },
  };
  open.push(t);
  // Made during a test (or its beforeEach): closed when that test ends, which gives its PostgreSQL
  // database back for the next test (engines.ts); one made in a beforeAll lives until closeAll.
  try {
    onTestFinished(() => t.close());
  } catch {
    // Not inside a test.
  }
  return t;
}

/**
 * Removes a closed service's data directory. What the service was still finishing as it closed
 * (a log line's asynchronous append) can create a file in a folder already listed for removal, and
 * the folder's removal then fails with ENOTEMPTY (seen once in the suite, on PostgreSQL). Node's
 * `maxRetries` retries only the folder's rmdir, not the listing, so the whole removal is retried.
 */
function removeDataDir(dir: string): void {
  for (let attempt = 1; ; attempt++) {
    try {
      rmSync(dir, { recursive: true, force: true });
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOTEMPTY' || attempt >= 20) throw e;
    }
  }
}

export function cookieFrom(res: Response): string {
  const set = res.headers.get('set-cookie') ?? '';
  const m = /cc_session=([^;]*)/.exec(set);
  if (!m) throw new Error('no session cookie');
  return `cc_session=${m[1]}`;
}

export function closeAll(): void {
  while (open.length) open.pop()!.close();
  if (drifts.length > 0) {
    const found = drifts.splice(0);
    throw new Error(`Responses drifted from their schemas:\n${found.map((d) => `${d.method} ${d.path} ${d.status}: ${d.problem} ${d.issues.join('; ')}`).join('\n')}`);
  }
}
