import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Health } from '../../../../src-shared/contracts/status';
import { closeAll, testService, type TestService } from '../harness';

let t: TestService;
beforeAll(async () => {
  t = await testService();
});
afterAll(closeAll);

describe('GET /api/health', () => {
  it('answers ok with the API version and no-store', async () => {
    // Ok only once screening is ready (issue 36): the lists are loaded first.
    expect(await t.s.screening.ready(120_000)).not.toBeNull();
    const { status, body, res } = await t.json('GET', '/api/health');
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ok', api_version: '2.1.0', database: 'ok', screening: 'ready', reason: null });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-ratelimit-limit')).toBe('20');
  }, 180_000);

  it('says which models are loaded: idle until started, loading, then ready; the status stays ok meanwhile (issue 38)', async () => {
    expect(await t.s.screening.ready(120_000)).not.toBeNull();
    const faces = vi.spyOn(t.s.faces, 'stats');
    const documents = vi.spyOn(t.s.documents, 'stats');
    const faceStats = (workers: number, ready: number) => ({ mode: 'worker' as const, workers, ready, busy: 0, queued: 0, queueLimit: 32, restarts: 0 });
    const readerStats = (started: boolean, ready: boolean) => ({ started, ready, busy: false, queued: 0, restarts: 0 });
    try {
      const seen: Health['models'][] = [];
      for (const [f, d] of [[faceStats(0, 0), readerStats(false, false)], [faceStats(1, 0), readerStats(true, false)], [faceStats(1, 1), readerStats(true, true)]] as const) {
        faces.mockReturnValueOnce(f);
        documents.mockReturnValueOnce(d);
        const { body } = await t.json<Health>('GET', '/api/health');
        expect(body.status).toBe('ok');
        seen.push(body.models);
      }
      expect(seen).toEqual([{ faces: 'idle', documents: 'idle' }, { faces: 'loading', documents: 'loading' }, { faces: 'ready', documents: 'ready' }]);
    } finally {
      faces.mockRestore();
      documents.mockRestore();
    }
  });

  it('is rate limited in the health category', async () => {
    const u = await testService();
    let last: Response | undefined;
    for (let i = 0; i < 21; i++) last = await u.call('GET', '/api/health');
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('says screening is loading (status degraded, with the reason) until the lists are loaded, then ready and ok', async () => {
    const u = await testService();
    const before = await u.json<Health>('GET', '/api/health');
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ status: 'degraded', database: 'ok', screening: 'loading' });
    expect(before.body.reason).toMatch(/screening lists are loading/);
    // A screening refused meanwhile (ready()'s wait ran out) says when to come back.
    const k = await u.key();
    const spy = vi.spyOn(u.s.screening, 'ready').mockResolvedValueOnce(null);
    const refused = await u.call('POST', '/api/compliance/v1/screen', { key: k.api_key, body: { subject: { type: 'individual', first_name: 'Ivan', last_name: 'Sidorov' } } });
    spy.mockRestore();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('compliance_provider_unavailable');

    expect(await u.s.screening.ready(120_000)).not.toBeNull();
    const after = await u.json<Health>('GET', '/api/health');
    expect(after.body).toMatchObject({ status: 'ok', screening: 'ready', reason: null });
  }, 180_000);

  it('says screening failed (status degraded) when the lists cannot be loaded; a screening answers 503 without Retry-After', async () => {
    const u = await testService({ resourcesDir: '/nonexistent-resources' });
    expect(await u.s.screening.ready()).toBeNull();
    const { status, body } = await u.json<Health>('GET', '/api/health');
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'degraded', screening: 'failed' });
    expect(body.reason).toMatch(/could not be loaded/);
    const k = await u.key();
    const refused = await u.call('POST', '/api/compliance/v1/screen', { key: k.api_key, body: { subject: { type: 'individual', first_name: 'Ivan', last_name: 'Sidorov' } } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBeNull();
  });

  it('reports a database that cannot be read as 503 with Retry-After', async () => {
    const u = await testService();
    u.s.db.close();
    const { status, body, res } = await u.json('GET', '/api/health');
    expect(status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(body).toMatchObject({ status: 'degraded', database: 'unavailable' });
  });
});

describe('GET /api/status/{verification_id}', () => {
  async function verification(env: 'test' | 'live', status = 'PASS') {
    const k = await t.key({ env });
    const found = await t.s.keys.lookup(k.api_key);
    if (!found.ok) throw new Error('key');
    await t.grant(10);
    const b = await t.s.billing.run({ key: found.key, operation: 'human', idPrefix: 'ver' }, async () => ({
      status, confidence: 91.25, billable: true, httpStatus: 200, result: null,
    }));
    return { key: k.api_key, id: b.verificationId };
  }

  it('returns the ledger row in the spec shape', async () => {
    const v = await verification('test');
    const { status, body, res } = await t.json('GET', `/api/status/${v.id}`, { key: v.key });
    expect(status).toBe(200);
    expect(body).toEqual({
      verification_id: v.id, status: 'PASS', confidence: 91.25,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), completed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(res.headers.get('x-ratelimit-limit')).toBe('200');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('any valid key of the organisation and environment may read it, whatever its scope', async () => {
    const v = await verification('test', 'FAIL');
    const other = await t.key({ scopes: ['identity'] });
    const { status, body } = await t.json('GET', `/api/status/${v.id}`, { key: other.api_key });
    expect(status).toBe(200);
    expect(body.status).toBe('FAIL');
  });

  it('404 with the general error body for an unknown id', async () => {
    const k = await t.key();
    const { status, body } = await t.json('GET', '/api/status/ver_unknown', { key: k.api_key });
    expect(status).toBe(404);
    expect(body).toEqual({ error: 'Verification not found', status: 'ERROR', code: 'NOT_FOUND' });
  });

  it("404 for another organisation's verification", async () => {
    const v = await verification('test');
    // Another organisation in the same database, so the org check is what refuses.
    const other = await t.addOrg({ email: `owner-${v.id}@other.test` });
    const k = await other.key({ env: 'test' });
    const { status } = await t.json('GET', `/api/status/${v.id}`, { key: k.api_key });
    expect(status).toBe(404);
  });
});

describe('CORS', () => {
  it('answers a preflight exactly as the spec says', async () => {
    const res = await t.call('OPTIONS', '/api/compliance/v1/screen', {
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type, X-API-Key, Authorization');
  });

  it('sends the CORS headers on errors too', async () => {
    const res = await t.call('GET', '/api/status/x');
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('unknown API paths are 404 in the general shape', async () => {
    const { status, body } = await t.json('GET', '/api/nope');
    expect(status).toBe(404);
    expect(body).toEqual({ error: 'Not found', status: 'ERROR', code: 'NOT_FOUND' });
  });
});
