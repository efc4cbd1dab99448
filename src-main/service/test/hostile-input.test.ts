// Hostile input never crashes the service or answers 500 (issue 9, first fixes): JSON nested
// thousands deep, malformed percent-escapes on static paths, prototype keys in list slugs, and
// Idempotency-Keys left "in progress" by a process that died.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchInfo } from '../../../src-shared/contracts/batch';
import { serveConsole } from '../http/static';
import type { AppEnv } from '../http/types';
import { MAX_JSON_DEPTH } from '../http/validate';
import { closeAll, testService, type TestService } from './harness';

const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const subject = { type: 'individual', first_name: 'Jane', last_name: 'Roe' };

let t: TestService;
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  expect(await t.s.screening.ready(60_000)).not.toBeNull();
}, 90_000);
afterAll(closeAll);

describe('JSON nested too deeply', () => {
  it('is refused with 400 before parsing, on key and session routes alike', async () => {
    const key = (await t.key({ env: 'test', scopes: ['compliance'] })).api_key;
    const body = `{"subject":${JSON.stringify(subject)},"metadata":{"x":${deep(100_000)}}}`;
    const screen = await t.json<{ error: { code: string; message: string } }>('POST', '/api/compliance/v1/screen', {
      key, rawBody: body, headers: { 'Content-Type': 'application/json' },
    });
    expect(screen.status).toBe(400);
    expect(screen.body.error.message).toBe(`Request body is nested more than ${MAX_JSON_DEPTH} levels deep`);

    const cookie = await t.login();
    const keys = await t.json<{ error: string }>('POST', '/api/keys', { cookie, rawBody: deep(5_000), headers: { 'Content-Type': 'application/json' } });
    expect(keys.status).toBe(400);
    expect(keys.body.error).toContain('nested more than');

    // Just inside the limit is an ordinary validation error, not the nesting one.
    const shallow = await t.json<{ error: { message: string } }>('POST', '/api/compliance/v1/screen', {
      key, rawBody: deep(MAX_JSON_DEPTH), headers: { 'Content-Type': 'application/json' },
    });
    expect(shallow.status).toBe(400);
    expect(shallow.body.error.message).not.toContain('nested');
  });

  it('a batch line nested 100,000 deep is that row\'s error, 50 times over, and the service keeps answering', async () => {
    const cookie = await t.login();
    const created = await t.json<BatchInfo>('POST', '/api/console/batches', { cookie, body: { env: 'test', total_rows: 400 } });
    expect(created.status).toBe(201);
    const good = JSON.stringify({ row: 1, previous_screening_id: 'scr_1', subject });
    // 50 lines of 200 kB: 10 MB, inside the chunk's byte limit.
    const chunk = [good, ...Array.from({ length: 50 }, () => deep(100_000))].join('\n');
    const res = await t.call('POST', `/api/console/batches/${created.body.id}/rows`, { cookie, rawBody: chunk, headers: { 'Content-Type': 'application/x-ndjson' } });
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as { row?: number; error?: { message: string }; done?: boolean; errors?: number });
    expect(lines.at(-1)).toMatchObject({ done: true, processed: 51, errors: 50 });
    expect(lines.filter((l) => l.error?.message === 'Line is nested too deeply to be a row')).toHaveLength(50);
    expect((await t.call('GET', '/api/health')).status).toBe(200);
  });
});

describe('bodies over the limit', () => {
  it('answer 413 PAYLOAD_TOO_LARGE, declared or not, on key, session and batch routes', async () => {
    const key = (await t.key({ env: 'test', scopes: ['compliance'] })).api_key;
    const big = JSON.stringify({ subject, metadata: { note: 'x'.repeat(1024 * 1024) } });
    const screen = await t.json<{ error: string; code: string }>('POST', '/api/compliance/v1/screen', { key, rawBody: big, headers: { 'Content-Type': 'application/json' } });
    expect(screen.status).toBe(413);
    expect(screen.body).toMatchObject({ error: 'Request body too large', code: 'PAYLOAD_TOO_LARGE' });

    const cookie = await t.login();
    const keys = await t.call('POST', '/api/keys', { cookie, rawBody: big, headers: { 'Content-Type': 'application/json' } });
    expect(keys.status).toBe(413);

    const created = await t.json<BatchInfo>('POST', '/api/console/batches', { cookie, body: { env: 'test', total_rows: 10 } });
    const chunk = `${JSON.stringify({ row: 1, subject })}\n`.padEnd(17 * 1024 * 1024, ' ');
    const rows = await t.call('POST', `/api/console/batches/${created.body.id}/rows`, { cookie, rawBody: chunk, headers: { 'Content-Type': 'application/x-ndjson' } });
    expect(rows.status).toBe(413);
    await t.call('POST', `/api/console/batches/${created.body.id}/cancel`, { cookie });
  });
});

describe('validation messages', () => {
  it('never echo a key the client chose: a metadata key can be a name and a date of birth', async () => {
    const key = (await t.key({ env: 'test', scopes: ['compliance'] })).api_key;
    const res = await t.call('POST', '/api/compliance/v1/screen', {
      key, body: { subject, metadata: { 'Jane Roe 1980-01-02': { nested: true }, roe: [1] } },
    });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toContain("Invalid field 'metadata.*'");
    for (const leak of ['Jane', '1980', 'roe']) expect(text).not.toContain(leak);
  });
});

describe('static paths', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-static-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(root, 'assets', 'app.js'), 'export {};');
  const app = new Hono<AppEnv>();
  serveConsole(app, root);

  it.each([
    ['/%', 400],
    ['/assets/%E0%A4%A', 400],
    ['/%c0%af', 400],
    ['/index.html%00.js', 404],
    ['/assets/app.js%00', 404],
  ])('%s answers %i, never 500', async (path, status) => {
    expect((await app.request(path)).status).toBe(status);
  });

  it('an escaped climb out of the folder gets the console page, never the file', async () => {
    const res = await app.request('/..%2f..%2f..%2fetc%2fpasswd');
    expect(await res.text()).toContain('<title>console</title>');
  });

  it('well-formed paths still serve the console and its assets', async () => {
    expect((await app.request('/assets/app.js')).status).toBe(200);
    expect(await (await app.request('/review')).text()).toContain('<title>console</title>');
  });
});

describe('list slugs from the URL', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'A%20B'])('DELETE /api/screening/lists/user/%s is 404', async (slug) => {
    const cookie = await t.login();
    const res = await t.json<{ error: string }>('DELETE', `/api/screening/lists/user/${slug}`, { cookie });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'List not found' });
  });

  it('a list name with no letter or digit is refused with 400 (it would have no slug)', async () => {
    const cookie = await t.login();
    const res = await t.json<{ error: string; field?: string }>('POST', `/api/screening/lists/user?name=${encodeURIComponent('!!! ---')}`, {
      cookie, rawBody: 'name\nJane Roe\n', headers: { 'Content-Type': 'text/csv' },
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('name');
  });
});

describe('Idempotency-Keys after a crash', () => {
  it('keys left in progress are released at start-up, so the retry runs once; finished ones still replay', async () => {
    const { idempotency } = t.s;
    const apiKey = (await t.key({ env: 'test', scopes: ['compliance'] })).id;
    const fp = idempotency.fingerprint('POST', '/api/compliance/v1/screen', '{}');
    expect(await idempotency.begin(apiKey, 'order-1', fp)).toEqual({ kind: 'new' });
    await expect(idempotency.begin(apiKey, 'order-1', fp)).rejects.toMatchObject({ code: 'idempotency_in_progress' });
    expect(await idempotency.begin(apiKey, 'order-2', fp)).toEqual({ kind: 'new' });
    await t.s.engine.transaction((tx) => idempotency.completeInTransaction(tx, apiKey, 'order-2', 'scr_done', 200));

    expect(await idempotency.releaseInProgress()).toBe(1);
    expect(await idempotency.begin(apiKey, 'order-1', fp)).toEqual({ kind: 'new' });
    expect(await idempotency.begin(apiKey, 'order-2', fp)).toEqual({ kind: 'replay', verificationId: 'scr_done', statusCode: 200 });
  });
});
