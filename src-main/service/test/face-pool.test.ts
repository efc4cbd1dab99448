// The face worker pool: a bounded queue that refuses rather than grows, and a crashed worker that
// fails only its own request and is replaced. From source the worker runs in this thread, behind
// the same pool code as the built worker threads.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../../src-shared/errors';
import { createFacePool } from '../core/faces/pool';
import { decodeImage } from '../core/media/image';
import { APP_ROOT } from '../paths';
import { ORIGIN, closeAll, testService } from './harness';
import * as fx from './face-fixtures';

afterAll(closeAll);
const image = async () => decodeImage('file', await fx.selfie('a'), { maxSide: 720 });

describe('face pool', () => {
  it('a full queue refuses at once with analysis_busy and a retry hint; queued jobs still finish', async () => {
    const pool = createFacePool({ inProcess: true, queueLimit: 2 });
    const img = await image();
    // A ready worker, so the first of the five runs at once.
    expect((await pool.analyze(img)).faces).toHaveLength(1);
    const jobs = Array.from({ length: 5 }, () => pool.analyze(img).then((a) => a.faces.length, (e: unknown) => e));
    const settled = await Promise.all(jobs);
    const busy = settled.filter((r) => isAppError(r) && r.code === 'analysis_busy');
    // One runs, two wait, two are refused.
    expect(busy).toHaveLength(2);
    expect(settled.filter((r) => r === 1)).toHaveLength(3);
    expect((busy[0] as { details: { retry_after?: number } }).details.retry_after).toBeGreaterThanOrEqual(1);
    await pool.stop();
  }, 60_000);

  const built = join(APP_ROOT, 'out', 'main', 'faces-worker.js');
  // In-process the models hold the event loop for a whole analysis, so a queue cannot be seen
  // filling from outside: these run the built worker, as the service does.
  it.skipIf(!existsSync(built))('over HTTP a full queue is 503 ANALYSIS_BUSY with Retry-After, and those requests are not billed (built worker)', async () => {
    const t = await testService({ plan: 'pro', faces: { queueLimit: 1, size: 1, workerFile: built } });
    await t.s.faces.analyze(await image());
    await t.grant(100);
    const key = await t.key({ env: 'live', scopes: ['human'] });
    const selfie = await fx.selfie('a');
    // Two long jobs fill the pool: one runs, one waits in the queue of one.
    const group = await decodeImage('file', await fx.groupPhoto());
    const holding = [t.s.faces.analyze(group), t.s.faces.analyze(group)];
    const answers = await Promise.all(Array.from({ length: 3 }, () =>
      t.app.request(`${ORIGIN}/api/verify`, { method: 'POST', body: fx.form(selfie), headers: { 'X-API-Key': key.api_key } })));
    await Promise.all(holding);
    const busy = answers.filter((r) => r.status === 503);
    expect(busy).toHaveLength(3);
    expect(busy[0]!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await busy[0]!.json()).toMatchObject({ status: 'ERROR', code: 'ANALYSIS_BUSY' });
    // Once the queue drains, the same request is answered.
    const after = await t.app.request(`${ORIGIN}/api/verify`, { method: 'POST', body: fx.form(selfie), headers: { 'X-API-Key': key.api_key } });
    expect(after.status).toBe(200);
    answers.push(after);
    const ok = answers.filter((r) => r.status === 200).length;
    expect(ok).toBe(1);
    expect((await t.s.credits.balance(t.orgId))).toBe(100 - ok);
    expect((t.s.db.prepare('SELECT COUNT(*) AS n FROM verifications').get() as { n: number }).n).toBe(ok);
  }, 60_000);

  const crashes = [
    { where: 'in this thread', run: true, opts: { inProcess: true } },
    { where: 'built worker; skipped before `npm run build`', run: existsSync(built), opts: { workerFile: built } },
  ];
  for (const c of crashes) {
    it.runIf(c.run)(`a worker that dies fails only the job it held and is replaced (${c.where})`, async () => {
      const pool = createFacePool({ ...c.opts, size: 1 });
      pool.start();
      const img = await image();
      expect((await pool.analyze(img)).faces).toHaveLength(1);
      const held = pool.analyze(img);
      const queued = pool.analyze(img);
      // Crash while the first job runs.
      await expect.poll(() => pool.stats().busy).toBe(1);
      expect(pool.crashOne()).toBe(true);
      await expect(held).rejects.toMatchObject({ code: 'analysis_failed' });
      // The queued job waits for the replacement and gets its answer.
      expect((await queued).faces).toHaveLength(1);
      expect(pool.stats()).toMatchObject({ workers: 1, restarts: 1 });
      await pool.stop();
    }, 60_000);
  }
});
