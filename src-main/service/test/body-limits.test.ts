// Request bodies (issue 9): a body is cut off while it streams once past its route's limit, bytes
// held across requests have one budget (503 + Retry-After past it), and a Content-Type the route
// does not take answers 415 instead of being parsed as JSON.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { afterAll, describe, expect, it } from 'vitest';
import { JSON_LIMIT } from '../http/body';
import { closeAll, testService, type TestService } from './harness';

afterAll(closeAll);

const ORIGIN = 'http://127.0.0.1:4310';
const CHUNK = 64 * 1024;

/** An endless body that counts what was pulled from it. */
function endless(): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const chunk = new Uint8Array(CHUNK).fill(0x20);
  return {
    stream: new ReadableStream({
      pull(controller) {
        pulled += CHUNK;
        controller.enqueue(chunk);
      },
    }),
    pulled: () => pulled,
  };
}

/** A body that sends `bytes` and then waits, open, until `end()` is called. */
function held(bytes: number): { stream: ReadableStream<Uint8Array>; end: () => void } {
  let end!: () => void;
  const ended = new Promise<void>((r) => (end = r));
  let sent = false;
  return {
    stream: new ReadableStream({
      async pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new Uint8Array(bytes).fill(0x20));
          return;
        }
        await ended;
        controller.close();
      },
    }),
    end,
  };
}

async function post(t: TestService, path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string>): Promise<Response> {
  return await t.app.request(`${ORIGIN}${path}`, { method: 'POST', headers: { Origin: ORIGIN, ...headers }, body, duplex: 'half' } as RequestInit);
}

describe('streaming limits', () => {
  it('cuts a chunked body off at the first chunk past the route\'s limit', async () => {
    const t = await testService();
    const key = t.key({ scopes: ['compliance'] }).api_key;
    const body = endless();
    const res = await post(t, '/api/compliance/v1/screen', body.stream, { 'X-API-Key': key, 'Content-Type': 'application/json' });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'Request body too large', status: 'ERROR', code: 'PAYLOAD_TOO_LARGE' });
    // Read up to the limit and one chunk past it; a buffering reader would have pulled forever.
    expect(body.pulled()).toBeLessThanOrEqual(JSON_LIMIT + 3 * CHUNK);
  });

  it('refuses a declared Content-Length over the limit before reading a byte', async () => {
    const t = await testService();
    const cookie = await t.login();
    const body = endless();
    const res = await post(t, '/api/keys', body.stream, { Cookie: cookie, 'Content-Type': 'application/json', 'Content-Length': String(JSON_LIMIT + 1) });
    expect(res.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(CHUNK);
  });

  it('answers a bad Content-Length with 400, not 500', async () => {
    const t = await testService();
    const key = t.key({ scopes: ['compliance'] }).api_key;
    const res = await t.call('POST', '/api/compliance/v1/screen', { key, rawBody: '{}', headers: { 'Content-Type': 'application/json', 'Content-Length': '-5' } });
    expect(res.status).toBe(400);
  });

  it('keeps a real server\'s memory flat under a 300 MB chunked body', async () => {
    const t = await testService();
    const key = t.key({ scopes: ['compliance'] }).api_key;
    const server = createAdaptorServer({ fetch: t.app.fetch });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const before = process.memoryUsage().rss;
    let sent = 0;
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({
        host: '127.0.0.1', port, method: 'POST', path: '/api/compliance/v1/screen',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', (e) => (sent > 0 ? resolve(-1) : reject(e)));
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const write = () => {
        while (sent < 300 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', write);
        }
        req.end();
      };
      write();
    });
    server.close();
    expect(status).toBe(413);
    // The answer came long before 300 MB were sent, and the process did not take them in.
    expect(sent).toBeLessThan(100 * 1024 * 1024);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('the upload budget', () => {
  it('answers 503 with Retry-After while other uploads hold the budget, and lets them through after', async () => {
    const t = await testService({ uploadBudgetBytes: 1024 * 1024 });
    const cookie = await t.login();
    // Not a list file: answered 400 as soon as it is read, which is all this needs.
    const upload = (body: ReadableStream<Uint8Array>) =>
      post(t, '/api/screening/lists/official?source=us_csl', body, { Cookie: cookie, 'Content-Type': 'application/octet-stream' });

    const first = held(700 * 1024);
    const pending = upload(first.stream);
    await new Promise((r) => setTimeout(r, 50));
    const second = held(700 * 1024);
    const busy = await upload(second.stream);
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('2');
    expect(await busy.json()).toMatchObject({ status: 'ERROR', code: 'SERVER_BUSY' });

    first.end();
    expect((await pending).status).toBe(400);
    // The first upload gave its bytes back: the same upload now fits.
    const again = held(700 * 1024);
    again.end();
    expect((await upload(again.stream)).status).toBe(400);
  });
});

describe('Content-Type', () => {
  const subject = { subject: { type: 'individual', first_name: 'Jane', last_name: 'Roe' } };

  it('refuses text/plain, XML and form bodies on JSON routes with 415', async () => {
    const t = await testService();
    const key = t.key({ scopes: ['compliance'] }).api_key;
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await t.json<{ error: string; code: string }>('POST', '/api/compliance/v1/screen', {
        key, rawBody: JSON.stringify(subject), headers: { 'Content-Type': type },
      });
      expect(res.status, type).toBe(415);
      expect(res.body).toEqual({ error: 'Send this request\'s body as application/json', status: 'ERROR', code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    const login = await t.call('POST', '/api/auth/login', { rawBody: '{}', headers: { 'Content-Type': 'text/plain' } });
    expect(login.status).toBe(415);
  });

  it('takes JSON with parameters, +json types, and no Content-Type at all', async () => {
    const t = await testService();
    const key = t.key({ scopes: ['age'] }).api_key;
    const body = JSON.stringify({ use_case: 'alcohol', state_code: 'CA' });
    for (const headers of [{ 'Content-Type': 'application/json; charset=utf-8' }, { 'Content-Type': 'application/vnd.api+json' }, {}] as Record<string, string>[]) {
      const res = await t.app.request(`${ORIGIN}/api/v1/verify-age/init`, { method: 'POST', headers: { 'X-API-Key': key, ...headers }, body: new TextEncoder().encode(body) });
      expect(res.status, JSON.stringify(headers)).toBe(200);
    }
  });

  it('takes a CSV sent as text/plain, refuses it as XML; batch rows only as NDJSON', async () => {
    const t = await testService();
    const cookie = await t.login();
    const csv = 'kind,name\npep,John Example\n';
    for (const [type, status] of [['application/xml', 415], ['text/plain', 201]] as const) {
      const res = await t.call('POST', '/api/screening/lists/user?name=Own', { cookie, rawBody: csv, headers: { 'Content-Type': type } });
      expect(res.status, type).toBe(status);
    }
    const rows = await t.json<{ error: string }>('POST', '/api/console/batches/bat_x/rows', { cookie, rawBody: '{}\n', headers: { 'Content-Type': 'text/plain' } });
    expect(rows.status).toBe(415);
    expect(rows.body.error).toBe('Send this request\'s body as application/x-ndjson or application/jsonl');
  });

  it('never echoes the Content-Type it refused', async () => {
    const t = await testService();
    const key = t.key({ scopes: ['compliance'] }).api_key;
    const res = await t.call('POST', '/api/compliance/v1/screen', { key, rawBody: '{}', headers: { 'Content-Type': 'text/canary-7f3a; x=canary-7f3a' } });
    expect(res.status).toBe(415);
    expect(await res.text()).not.toContain('canary');
  });
});
