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
  const url = POSTGRES.url.replace('/postgres?', `/${name}?`);
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
 * A fresh database on the run's cluster, made from a migrated template (made once per test
 * process): what a test service on PostgreSQL starts from (harness.ts, CONSOLE_TEST_ENGINE), as
 * one on SQLite starts from a copy of a migrated file. Answers its URL and how to drop it.
 */
let templateDb: Promise<string> | undefined;
export async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!POSTGRES.url) throw new Error(`PostgreSQL is not available: ${POSTGRES.why}`);
  templateDb ??= (async () => {
    const name = `cc_template_${process.pid}_${Date.now().toString(36)}`;
    await runStatement(POSTGRES.url!, `CREATE DATABASE ${name}`);
    const engine = postgresEngine(POSTGRES.url!.replace('/postgres?', `/${name}?`), { max: 1 });
    await migratePostgres(engine);
    // A template must have no connection open while it is copied.
    await engine.close();
    return name;
  })();
  const template = await templateDb;
  const name = `cc_test_${process.pid}_${++made}_${Date.now().toString(36)}`;
  // FILE_COPY copies the template's files (a checkpoint, cheap with fsync off) where the default,
  // WAL_LOG, writes every page of it through the write-ahead log: 58 ms a database instead of 115.
  await runStatement(POSTGRES.url, `CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY`);
  return {
    url: POSTGRES.url.replace('/postgres?', `/${name}?`),
    drop: () => runStatement(POSTGRES.url!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
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
