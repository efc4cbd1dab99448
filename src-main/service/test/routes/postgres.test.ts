// The service with its ledger on PostgreSQL (`--database`, issue 40), through its HTTP API as any
// client calls it: two instances on one database serve one organisation (a session begun on one
// works on the other, a key made on one charges on the other, idempotency holds across them, an
// export queued on one is run by the other, the reports and the audit chain see every act), and
// a database that stops answering is said in /api/health and answered 503 with Retry-After, not
// a hang, and the service recovers without a restart once it is back.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CreatedExport, ExportJob } from '../../../../src-shared/contracts/reports';
import type { DataDirectory } from '../../../../src-shared/contracts/organization';
import type { CreatedWebhook } from '../../../../src-shared/contracts/webhooks';
import type { VerificationPage } from '../../../../src-shared/contracts/verifications';
import { CREDITS, PLAN_INFO } from '../../../../src-shared/catalog';
import { compose } from '../../compose';
import { KEY_FAILURE_LIMITS } from '../../core/rate-limit/key-throttle';
import { BATCH_SLICES } from '../../core/screening/batch';
import { DELIVERY_SLOTS } from '../../core/webhooks/webhooks';
import { fixtureCommand } from '../fixture-bundle';
import { freshPostgresDatabase, POSTGRES, recycledDatabaseDiffers, testEngines } from '../engines';
import { closeAll, testService, type TestService } from '../harness';

afterAll(closeAll);
const engines = testEngines();
const why = POSTGRES.url ? '' : ` (skipped: ${POSTGRES.why})`;
const CLEAR = { type: 'individual', first_name: 'Ingeborg', last_name: 'Abrahamsen', date_of_birth: '1972-11-21' };
type Screened = { id: string };

/** A second instance on the same database (its own data directory), its first organisation's owner signing in. */
async function twin(t: TestService, url: string): Promise<TestService> {
  return testService({ plan: 'pro', setup: false, database: url });
}

/**
 * Another instance: a process of its own running a test fixture on the database (its own data
 * directory), to be killed with SIGKILL, so that no shutdown hook of it runs.
 */
function otherInstance(fixture: string, args: readonly string[]) {
  const child = spawn(process.execPath, [...fixtureCommand(fixture), mkdtempSync(join(tmpdir(), 'cc-pg-other-')), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return {
    /** What it printed so far. */
    output: () => out,
    /** Once `ready` holds of what it printed; rejects if it ends first. */
    until: (ready: (out: string) => boolean) => new Promise<void>((resolve, reject) => {
      const check = () => { if (ready(out)) resolve(); };
      child.stdout.on('data', check);
      void exited.then((code) => reject(new Error(`the other instance ended early (${code}): ${out.slice(-300)}`)));
    }),
    async kill(): Promise<void> {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

describe.skipIf(!POSTGRES.url)(`two instances on one PostgreSQL${why}`, () => {
  it('share sessions, keys, credits, idempotency, exports, reports and the audit chain', async () => {
    const db = await engines.open('postgres');
    const a = await testService({ plan: 'pro', database: db.url!, exports: { runner: { inProcess: true } } });
    const b = await twin(a, db.url!);
    expect((await a.json('GET', '/api/health')).body).toMatchObject({ database: 'ok' });
    // A session begun on A is good on B; a key made on B charges on A.
    const cookie = await a.login();
    expect((await b.json('GET', '/api/account', { cookie })).status).toBe(200);
    const made = await b.json<{ api_key: string }>('POST', '/api/keys', { cookie, body: { name: 'Backend', env: 'live', scopes: ['compliance'] } });
    expect(made.status).toBe(201);
    await a.grant(200);
    const one = await a.json<Screened>('POST', '/api/compliance/v1/screen', { key: made.body.api_key, body: { subject: CLEAR }, headers: { 'Idempotency-Key': 'k1' } });
    expect(one.status).toBe(200);
    expect(await a.s.credits.balance(a.orgId)).toBe(140);
    // The same Idempotency-Key through the other instance: the same answer, no second charge.
    const again = await b.json<Screened>('POST', '/api/compliance/v1/screen', { key: made.body.api_key, body: { subject: CLEAR }, headers: { 'Idempotency-Key': 'k1' } });
    expect(again.body.id).toBe(one.body.id);
    expect(await b.s.credits.balance(a.orgId)).toBe(140);
    // The ledger and the reports on either instance show the act.
    expect((await b.json<VerificationPage>('GET', '/api/verifications?env=live', { cookie })).body.entries.map((v) => v.verification_id)).toEqual([one.body.id]);
    const today = new Date(a.clock.now()).toISOString().slice(0, 10);
    const overview = await b.json<{ data: { screening: { total: number } } }>('GET', `/api/reports/overview?env=live&from=${today}&to=${today}`, { cookie });
    expect(overview.body.data.screening.total).toBe(1);
    // An export queued on B is run by A's queue and downloaded from B.
    const queued = await b.json<CreatedExport>('POST', '/api/reports/exports', { cookie, body: { report_type: 'overview', format: 'csv', env: 'live', from: today, to: today } });
    expect(queued.status).toBe(201);
    await a.s.exports.drain();
    expect((await b.json<ExportJob>('GET', `/api/reports/exports/${queued.body.id}`, { cookie })).body.status).toBe('succeeded');
    const file = await b.call('GET', `/api/reports/exports/${queued.body.id}/download`, { cookie });
    expect(file.status).toBe(200);
    expect(await file.text()).toContain('total_verifications');
    // Settings → Data directory says where the ledger is: not in this directory.
    const dir = (await a.json<DataDirectory>('GET', '/api/settings/data-directory', { cookie })).body;
    expect(dir.breakdown.map((p) => p.name)).not.toContain('database');
    expect(dir.ledger.engine).toBe('postgres');
    expect(dir.ledger.size_bytes).toBeGreaterThan(1_000_000);
    // Both instances appended to one audit chain, which verifies.
    const verified = await a.json<{ ok: boolean; rows: number }>('GET', '/api/audit/verify', { cookie });
    expect(verified.body.ok).toBe(true);
    expect(verified.body.rows).toBeGreaterThanOrEqual(4); // sign-in, key, export queued, downloaded
  }, 60_000);

  it('the suite\'s databases: one a closed test service gave back holds, emptied, what the migrated template holds', async () => {
    const given = await freshPostgresDatabase();
    const t = await testService({ plan: 'pro', database: given.url, exports: { runner: { inProcess: true } } });
    // Rows in the ledger, the credits, the audit log (whose triggers refuse deletes), keys, sessions, exports and invitations.
    const cookie = await t.login();
    const made = await t.json<{ api_key: string }>('POST', '/api/keys', { cookie, body: { name: 'Backend', env: 'live', scopes: ['compliance'] } });
    await t.grant(200);
    expect((await t.json('POST', '/api/compliance/v1/screen', { key: made.body.api_key, body: { subject: CLEAR }, headers: { 'Idempotency-Key': 'k1' } })).status).toBe(200);
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    expect((await t.json('POST', '/api/reports/exports', { cookie, body: { report_type: 'overview', format: 'csv', env: 'live', from: today, to: today } })).status).toBe(201);
    expect((await t.json('POST', '/api/team/invite', { cookie, body: { email: 'new@example.test', role: 'member' } })).status).toBe(201);
    t.close();
    await given.giveBack();
    const again = await freshPostgresDatabase();
    expect(again.url).toBe(given.url);
    expect(await recycledDatabaseDiffers(again.url)).toEqual([]);
    // And it serves as a new one does: the organisation made again gets the first ids.
    const u = await testService({ plan: 'pro', database: again.url });
    expect(u.orgId).toBe(1);
    u.close();
    await again.giveBack();
  }, 60_000);

  it('figures cached on one instance are recomputed soon after another records a verification, not after the cache\'s 30 s', async () => {
    const db = await engines.open('postgres');
    const a = await testService({ plan: 'pro', database: db.url! });
    const b = await twin(a, db.url!);
    const cookie = await a.login();
    const key = await a.key({ scopes: ['compliance'] });
    const today = new Date(a.clock.now()).toISOString().slice(0, 10);
    const overviewOnB = async () => (await b.json<{ data: { screening: { total: number } }; meta: { cached: boolean } }>(
      'GET', `/api/reports/overview?env=test&from=${today}&to=${today}`, { cookie })).body;
    expect((await overviewOnB()).data.screening.total).toBe(0);
    expect((await overviewOnB()).meta.cached).toBe(true);
    expect((await a.json('POST', '/api/compliance/v1/screen', { key: key.api_key, body: { subject: CLEAR } })).status).toBe(200);
    // The test clock stands still: without word from A, B would answer its cached 0 for ever.
    const start = Date.now();
    let seen = await overviewOnB();
    while (seen.data.screening.total === 0 && Date.now() - start < 10_000) {
      await new Promise((r) => setTimeout(r, 20));
      seen = await overviewOnB();
    }
    const took = Date.now() - start;
    console.log(`B's cached overview showed A's screening ${took} ms after A answered`);
    expect(seen).toMatchObject({ data: { screening: { total: 1 } }, meta: { cached: false } });
    expect(took).toBeLessThan(2_000);
  }, 60_000);

  it('an instance killed (SIGKILL) while it renders an export: another takes the job once the lease runs out and finishes it, once', async () => {
    const db = await engines.open('postgres');
    const a = await testService({ plan: 'pro', database: db.url!, exports: { runner: { inProcess: true } } });
    const cookie = await a.login();
    const today = new Date(a.clock.now()).toISOString().slice(0, 10);
    const id = (await a.json<CreatedExport>('POST', '/api/reports/exports', { cookie, body: { report_type: 'overview', format: 'csv', env: 'test', from: today, to: today } })).body.id;
    // Another instance, a process of its own on the same database, claims the job and hangs in it.
    const lease = 3_000;
    const other = otherInstance('export-crash-worker.ts', [db.url!, String(lease)]);
    await other.until((out) => out.includes('running'));
    await other.kill();
    const job = async () => (await a.json<ExportJob>('GET', `/api/reports/exports/${id}`, { cookie })).body;
    // Its lease has not run out: the job is still the dead instance's, and this one leaves it.
    a.clock.set(Date.now());
    await a.s.exports.drain();
    expect((await job()).status).toBe('running');
    // Once it has, this instance's queue takes it back and runs it to the end.
    a.clock.set(Date.now() + lease + 1_000);
    await a.s.exports.drain();
    expect(await job()).toMatchObject({ status: 'succeeded' });
    expect(await db.engine.q.selectFrom('report_exports').select(['attempts', 'lease_until']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ attempts: 2, lease_until: null });
    expect((await a.call('GET', `/api/reports/exports/${id}/download`, { cookie })).status).toBe(200);
  }, 60_000);

  it('an instance killed (SIGKILL) mid-delivery: the two others send its webhooks once its lease runs out; each answered once, none lost', async () => {
    // A receiver on this computer that answers nothing while `hold` is set (the dying instance's
    // deliveries stay in flight), then 200; it counts each delivery id it saw and answered.
    let hold = true;
    const seen: string[] = [];
    const answered: string[] = [];
    const receiver = createHttpServer((req, res) => {
      const id = String(req.headers['x-service-delivery']);
      seen.push(id);
      req.resume();
      req.on('end', () => {
        if (hold) return;
        answered.push(id);
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const db = await engines.open('postgres');
    const a = await testService({ plan: 'pro', database: db.url! });
    const b = await twin(a, db.url!);
    const other = otherInstance('webhook-crash-worker.ts', [db.url!]);
    try {
      const cookie = await a.login();
      expect((await a.json('PUT', '/api/webhooks/private-hosts', { cookie, body: { hosts: ['127.0.0.1'] } })).status).toBe(200);
      const port = (receiver.address() as { port: number }).port;
      const endpoint = await b.json<CreatedWebhook>('POST', '/api/webhooks', { cookie, body: { url: `http://127.0.0.1:${port}/in`, env: 'live', events: ['compliance.screening.completed'] } });
      expect(endpoint.status).toBe(201);
      await other.until((out) => out.includes('polling'));
      // Six events through A and B (the console's test event, one outbox row each), which only the child polls now.
      for (const t of [a, b, a, b, a, b]) expect((await t.json('POST', `/api/webhooks/${endpoint.body.endpoint.id}/test`, { cookie })).status).toBe(202);
      // The child leases them and sends as many as an endpoint's slots allow; none is answered.
      for (let waited = 0; seen.length < Math.min(6, DELIVERY_SLOTS.perEndpoint); waited += 25) {
        if (waited > 15_000) throw new Error(`the child sent ${seen.length} deliveries`);
        await new Promise((r) => setTimeout(r, 25));
      }
      await other.kill();
      hold = false;
      // While its leases run, the others send nothing: each delivery is one instance's at a time.
      expect(await Promise.all([a.s.webhooks.dispatchDue(), b.s.webhooks.dispatchDue()])).toEqual([0, 0]);
      // Once they have run out, the others send every delivery, each once.
      for (const t of [a, b]) t.clock.set(Date.now() + 61_000);
      for (let round = 0; round < 20 && answered.length < 6; round++) await Promise.all([a.s.webhooks.dispatchDue(), b.s.webhooks.dispatchDue()]);
      expect(answered).toHaveLength(6);
      expect(new Set(answered).size).toBe(6);
      expect(new Set(seen)).toEqual(new Set(answered));
      const rows = await db.engine.q.selectFrom('webhook_deliveries').select(['id', 'state']).execute();
      expect(rows.map((r) => r.state)).toEqual(Array(6).fill('succeeded'));
      expect(new Set(rows.map((r) => r.id))).toEqual(new Set(answered));
    } finally {
      await other.kill();
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    }
  }, 60_000);

  it('an instance killed (SIGKILL) mid-batch: every result line the analyst got was charged once, nothing charged twice, the books balance; the others go on', async () => {
    const db = await engines.open('postgres');
    const a = await testService({ plan: 'pro', database: db.url! });
    const b = await twin(a, db.url!);
    const granted = 2000 * CREDITS.rescreen;
    await a.grant(granted);
    const other = otherInstance('batch-crash-worker.ts', [db.url!]);
    // Killed once the analyst has some result lines (the 2,000-row chunk is still streaming).
    const lines = () => other.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { row: number; id: string });
    await other.until(() => lines().length >= 50);
    await other.kill();
    expect(other.output()).not.toContain('finished');
    const received = lines();
    const charged = await db.engine.q.selectFrom('verifications').select(['id', 'credits']).where('product', '=', 'rescreen').execute();
    const ids = charged.map((r) => r.id);
    // Each row a line or a charge once; every line the analyst saw was paid for before it was sent;
    // at most the slice in flight (paid, its lines not yet out) was charged without being seen.
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(received.map((l) => l.id)).size).toBe(received.length);
    expect(received.every((l) => ids.includes(l.id))).toBe(true);
    expect(ids.length - received.length).toBeGreaterThanOrEqual(0);
    expect(ids.length - received.length).toBeLessThanOrEqual(BATCH_SLICES.then);
    expect(ids.length).toBeLessThan(2000);
    // The balance is what the ledger says was spent, read through either instance.
    const spent = charged.reduce((n, r) => n + r.credits, 0);
    expect(spent).toBe(ids.length * CREDITS.rescreen);
    expect(await b.s.credits.balance(a.orgId)).toBe(granted - spent);
    // The analyst goes on at another instance: a new batch there, charged as before.
    const cookie = await b.login();
    const started = await b.json<{ id: string }>('POST', '/api/console/batches', { cookie, body: { env: 'test', total_rows: 1 } });
    expect(started.status).toBe(201);
    expect((await a.json<{ ok: boolean }>('GET', '/api/audit/verify', { cookie })).body.ok).toBe(true);
  }, 90_000);

  it('a wrong-key throttle and a key\'s rate limit hold across instances, not per instance', async () => {
    const db = await engines.open('postgres');
    const a = await testService({ plan: 'pro', database: db.url! });
    const b = await twin(a, db.url!);
    const address = '198.51.100.7';
    const wrong = (t: TestService) => t.json('POST', '/api/compliance/v1/screen', { key: 'svk-live-not-a-key', body: { subject: CLEAR }, address });
    for (let i = 0; i < KEY_FAILURE_LIMITS.address.burst; i++) expect((await wrong(i % 2 ? a : b)).status).toBe(401);
    // Its allowance spent through both instances together: refused on either.
    expect((await wrong(a)).status).toBe(429);
    expect((await wrong(b)).status).toBe(429);
    // A key's read limit (the plan's burst) is one bucket whichever instance counts it.
    const key = await a.key({ env: 'test', scopes: ['compliance'] });
    const burst = PLAN_INFO.pro.read.burst;
    const statuses: number[] = [];
    for (let i = 0; i < burst + 1; i++) statuses.push((await (i % 2 ? a : b).call('GET', '/api/status/ver_missing', { key: key.api_key })).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
  });

  it('a database that cannot be reached: health says so and requests answer 503 with Retry-After, at once; back without a restart', async () => {
    const db = await engines.open('postgres');
    // The service reaches PostgreSQL through a TCP relay on loopback that the test can cut.
    const [, name, dir] = /^postgres:\/\/postgres@\/([^?]+)\?host=(.+)$/.exec(db.url!)!;
    const relay = await startRelay(join(decodeURIComponent(dir!), '.s.PGSQL.5432'));
    const url = `postgres://postgres@127.0.0.1:${relay.port}/${name!}`;
    const t = await testService({ plan: 'pro', database: url });
    const key = await t.key({ env: 'test', scopes: ['compliance'] });
    const cookie = await t.login();
    expect((await t.json('GET', '/api/health')).status).toBe(200);

    await relay.cut();
    const started = performance.now();
    const health = await t.json<{ database: string; status: string }>('GET', '/api/health');
    expect(health.status).toBe(503);
    expect(health.res.headers.get('retry-after')).toBe('5');
    expect(health.body).toMatchObject({ database: 'unavailable', status: 'degraded' });
    const refused = await t.json('POST', '/api/compliance/v1/screen', { key: key.api_key, body: { subject: CLEAR } });
    expect(refused.status).toBe(503);
    expect(refused.res.headers.get('retry-after')).toBe('5');
    expect(refused.body).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
    expect((await t.json('GET', '/api/keys', { cookie })).status).toBe(503);
    // The background work waits for it too (the export queue's poll), without an unhandled rejection.
    await expect(t.s.exports.drain()).resolves.toBeUndefined();
    expect(performance.now() - started).toBeLessThan(3000);

    await relay.restore();
    expect((await t.json('GET', '/api/health')).status).toBe(200);
    expect((await t.json('POST', '/api/compliance/v1/screen', { key: key.api_key, body: { subject: CLEAR } })).status).toBe(200);
    await relay.cut();
  });

  it('a start on a database that cannot be reached fails with the reason, and a URL that is not postgres:// is refused without echoing it', async () => {
    const down = compose({ dataDir: join(process.env.TMPDIR ?? '/tmp', `cc-pg-down-${process.pid}`), database: 'postgres://postgres:secret-pw@127.0.0.1:1/none' });
    await expect(down).rejects.toThrow(/ECONNREFUSED|connect/);
    const bad = compose({ dataDir: join(process.env.TMPDIR ?? '/tmp', `cc-pg-bad-${process.pid}`), database: 'mysql://root:secret-pw@db/x' });
    await expect(bad).rejects.toThrow(/--database must be a postgres:\/\/ URL/);
    await expect(bad).rejects.not.toThrow(/secret-pw/);
  });
});

/** A TCP relay on 127.0.0.1 to a unix socket; `cut` closes it and every connection through it (the port then refuses), `restore` listens again on the same port. */
async function startRelay(target: string): Promise<{ port: number; cut(): Promise<void>; restore(): Promise<void> }> {
  const open = new Set<Socket>();
  let server: Server;
  let port = 0;
  const listen = () => new Promise<void>((resolve) => {
    server = createServer((client) => {
      const upstream = createConnection(target);
      for (const s of [client, upstream]) {
        open.add(s);
        s.on('close', () => open.delete(s));
        s.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    server.listen(port, '127.0.0.1', () => {
      port = (server.address() as { port: number }).port;
      resolve();
    });
  });
  await listen();
  return {
    get port() { return port; },
    async cut() {
      await new Promise<void>((r) => {
        server.close(() => r());
        for (const s of open) s.destroy();
      });
    },
    restore: listen,
  };
}
