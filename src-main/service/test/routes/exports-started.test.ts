// A started service runs exports as they come (not only the queue found at start): start with an
// empty queue, then create one; it must finish without anyone draining the queue by hand.
import { afterAll, expect, it } from 'vitest';
import type { CreatedExport, ExportJob } from '../../../../src-shared/contracts/reports';
import { closeAll, testService } from '../harness';

afterAll(closeAll);

it('a started queue that was empty picks up the next export by itself', async () => {
  const t = await testService({ plan: 'growth', exports: { runner: { inProcess: true } } });
  const cookie = await t.login();
  await t.s.exports.start();
  try {
    const { body } = await t.json<CreatedExport>('POST', '/api/reports/exports', {
      cookie, body: { report_type: 'overview', env: 'test', from: '2026-01-01', to: '2026-01-07' },
    });
    let job: ExportJob | undefined;
    for (let i = 0; i < 50 && job?.status !== 'succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = (await t.json<ExportJob>('GET', `/api/reports/exports/${body.id}`, { cookie })).body;
    }
    expect(job?.status).toBe('succeeded');
  } finally {
    await t.s.exports.stop();
  }
});
