// Request bodies (issue 9): a body is cut off while it streams once past its route's limit, bytes
// held across requests have one budget (503 + Retry-After past it), and a Content-Type the route
// does not take answers 415 instead of being parsed as JSON.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { afterAll, describe, expect, it } from 'vitest';
import { ANONYMOUS_BUDGET, ANONYMOUS_UPLOADS_PER_ADDRESS, JSON_LIMIT } from '../http/body';
import { createListener } from '../http/listener';
import * as fx from './face-fixtures';
import { closeAll, OWNER, testService, type TestService } from './harness';

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
    const key = (await t.key({ scopes: ['compliance'] })).api_key;
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
    const key = (await t.key({ scopes: ['compliance'] })).api_key;
    const res = await t.call('POST', '/api/compliance/v1/screen', { key, rawBody: '{}', headers: { 'Content-Type': 'application/json', 'Content-Length': '-5' } });
    expect(res.status).toBe(400);
  });

  it('keeps a real server\'s memory flat under a 300 MB chunked body', async () => {
    const t = await testService();
    const key = (await t.key({ scopes: ['compliance'] })).api_key;
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

describe('a body with its length declared', () => {
  it('is read whole and in order when it arrives in many pieces', async () => {
    const t = await testService();
    const key = (await t.key({ scopes: ['compliance'] })).api_key;
    const server = createAdaptorServer({ fetch: t.app.fetch });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    // 600 KB of JSON white space between the subject and the reference: both ends must arrive.
    const body = Buffer.from(`{"subject":{"type":"individual","first_name":"Ann","last_name":"Example"},${' '.repeat(600_000)}"client_reference_id":"end-of-body-7"}`);
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest({
        host: '127.0.0.1', port, method: 'POST', path: '/api/compliance/v1/screen',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json', 'Content-Length': String(body.length) },
      }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      const send = (at: number): void => {
        if (at >= body.length) return void req.end();
        req.write(body.subarray(at, at + 7_001));
        setImmediate(() => send(at + 7_001));
      };
      send(0);
    });
    server.close();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ client_reference_id: 'end-of-body-7' });
  });
});

describe('the upload budget', () => {
  it('answers 503 with Retry-After while other uploads hold the budget, and lets them through after', async () => {
    const t = await testService({ uploads: { identified: 1024 * 1024 } });
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

/** A body that sends a byte every `everyMs` until `stop()` ends it: never finishing on its own, never idle. */
function trickle(everyMs: number): { stream: ReadableStream<Uint8Array>; stop: () => void } {
  let timer: ReturnType<typeof setInterval> | undefined;
  let ctl: ReadableStreamDefaultController<Uint8Array> | undefined;
  return {
    stream: new ReadableStream({
      start(controller) {
        ctl = controller;
        timer = setInterval(() => controller.enqueue(new Uint8Array([0x20])), everyMs);
      },
      cancel() {
        clearInterval(timer);
        ctl = undefined;
      },
    }),
    stop: () => {
      clearInterval(timer);
      try {
        ctl?.close();
      } catch {
        // already cancelled by the reader
      }
    },
  };
}

describe('anonymous uploads (issue 25)', () => {
  // The attack: 19 sockets on the public age check, each declaring 14,128,181 bytes (268 MB in
  // all, past the 256 MiB budget) and trickling a byte now and then.
  const DECLARED = 14_128_181;

  it('19 slow anonymous uploads declaring 268 MB do not stop a paying customer\'s liveness and screening', async () => {
    // A generous pace, so the slow uploads are still in flight while the customer calls.
    const t = await testService({ plan: 'pro', uploads: { pace: { idleMs: 120_000, graceMs: 120_000 } } });
    const key = (await t.key({ scopes: ['human', 'compliance'] })).api_key;
    const bodies = Array.from({ length: 19 }, () => trickle(200));
    const pending = bodies.map((b) => post(t, '/api/verify-age', b.stream, { 'Content-Type': 'application/json', 'Content-Length': String(DECLARED) }));
    try {
      const liveness = await t.app.request(`${ORIGIN}/api/verify`, { method: 'POST', body: fx.form(await fx.selfie('a')), headers: { 'X-API-Key': key } });
      expect(liveness.status).toBe(200);
      const screen = await t.call('POST', '/api/compliance/v1/screen', {
        key, body: { subject: { type: 'individual', first_name: 'Ingeborg', last_name: 'Abrahamsen', date_of_birth: '1972-11-21' } },
      });
      expect(screen.status).toBe(200);
    } finally {
      for (const b of bodies) b.stop();
    }
    // All from one address: a few were read (and end as the bad requests they are), the rest were refused at once.
    const statuses = (await Promise.all(pending)).map((r) => r.status);
    expect(statuses.filter((s) => s === 503)).toHaveLength(19 - ANONYMOUS_UPLOADS_PER_ADDRESS);
    expect(statuses.filter((s) => s !== 503).every((s) => s === 400)).toBe(true);
    // The liveness may be this worker's first: the face models and the lists load inside the test,
    // which beside other CPU-heavy work took longer than the default 20 s.
  }, 90_000);

  it('a sixth anonymous upload from one address at once is 503 SERVER_BUSY; a known caller\'s upload beside them is read', async () => {
    const t = await testService();
    const key = (await t.key({ scopes: ['compliance'] })).api_key;
    const bodies = Array.from({ length: ANONYMOUS_UPLOADS_PER_ADDRESS }, () => held(10));
    const pending = bodies.map((b) => post(t, '/api/verify-age', b.stream, { 'Content-Type': 'application/json' }));
    await new Promise((r) => setTimeout(r, 50));
    const extra = held(10);
    extra.end();
    const refused = await post(t, '/api/verify-age', extra.stream, { 'Content-Type': 'application/json' });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(await refused.json()).toMatchObject({ code: 'SERVER_BUSY' });

    const known = held(0);
    known.end();
    const screen = await post(t, '/api/compliance/v1/screen', new Response(JSON.stringify({ subject: { type: 'individual', first_name: 'Jane', last_name: 'Roe' } })).body!, {
      'X-API-Key': key, 'Content-Type': 'application/json',
    });
    expect(screen.status).toBe(200);

    // Their places are given back once their bodies arrive: the next anonymous body is read.
    for (const b of bodies) b.end();
    expect((await Promise.all(pending)).map((r) => r.status)).toEqual(bodies.map(() => 400));
    const after = held(10);
    after.end();
    expect((await post(t, '/api/verify-age', after.stream, { 'Content-Type': 'application/json' })).status).toBe(400);
  });

  it('anonymous bodies have their own budget: they cannot take the main one', async () => {
    const t = await testService({ uploads: { anonymous: 1024 * 1024, identified: 1024 * 1024 } });
    const cookie = await t.login();
    const anon = held(10);
    const pending = post(t, '/api/verify-age', anon.stream, { 'Content-Type': 'application/json', 'Content-Length': String(1024 * 1024) });
    await new Promise((r) => setTimeout(r, 50));
    // The anonymous budget is full; a signed-in upload of the same size still fits.
    const list = held(700 * 1024);
    list.end();
    const res = await post(t, '/api/screening/lists/official?source=us_csl', list.stream, { Cookie: cookie, 'Content-Type': 'application/octet-stream' });
    expect(res.status).toBe(400);
    anon.end();
    expect((await pending).status).toBe(400);
  });
});

/** A POST as if from `address` (the socket's remote address; in process there is none). */
async function postFrom(t: TestService, address: string, path: string, body: BodyInit, headers: Record<string, string>): Promise<Response> {
  const init = { method: 'POST', headers: { Origin: ORIGIN, ...headers }, body, duplex: 'half' } as RequestInit;
  return await t.app.request(`${ORIGIN}${path}`, init, { incoming: { socket: { remoteAddress: address } } });
}

describe('anonymous shares per address and address block (issue 39, item 4)', () => {
  // The report: five slow anonymous uploads from two addresses filled the anonymous budget and
  // refused console sign-in and the storefront age gate while they ran.
  const MB = 1024 * 1024;
  const slow = (t: TestService, address: string, bytes: number) => {
    const b = held(10);
    return { end: b.end, res: postFrom(t, address, '/api/verify-age', b.stream, { 'Content-Type': 'application/json', 'Content-Length': String(bytes) }) };
  };
  const settle = () => new Promise((r) => setTimeout(r, 50));

  it('an address holds a quarter of the anonymous budget, a /24 half; other networks and sign-in still get in', async () => {
    const t = await testService({ uploads: { pace: { idleMs: 60_000, graceMs: 60_000 } } });
    // 12 MB (under the age check's limit): one per address fits its quarter (16 MB), two do not.
    const big = 12 * MB;
    expect(ANONYMOUS_BUDGET).toBe(64 * MB);
    const uploads = [
      slow(t, '203.0.113.5', big), slow(t, '203.0.113.5', big), slow(t, '203.0.113.6', big), slow(t, '203.0.113.6', big), slow(t, '203.0.113.6', big),
    ];
    await settle();
    try {
      // A third address of that block: the block's half (32 MB) holds 24 MB; 12 more do not fit.
      const neighbour = held(0);
      neighbour.end();
      const refused = await postFrom(t, '203.0.113.7', '/api/verify-age', neighbour.stream, { 'Content-Type': 'application/json', 'Content-Length': String(big) });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('2');
      // Console sign-in from that block is a small body: it needs no share.
      const login = await postFrom(t, '203.0.113.7', '/api/auth/login', JSON.stringify({ email: OWNER.email, password: OWNER.password }), { 'Content-Type': 'application/json' });
      expect(login.status).toBe(200);
      // A shopper on another network sends a 3 MB age check: read (and refused as the bad JSON it is).
      const shopper = await postFrom(t, '198.51.100.20', '/api/verify-age', new Uint8Array(3 * MB).fill(0x20), { 'Content-Type': 'application/json' });
      expect(shopper.status).toBe(400);
    } finally {
      for (const u of uploads) u.end();
    }
    // One upload per address was read; the others were refused at once.
    expect((await Promise.all(uploads.map((u) => u.res))).map((r) => r.status)).toEqual([400, 503, 400, 503, 503]);
    // Their bytes are given back: the block takes a big body again.
    const again = held(0);
    again.end();
    expect((await postFrom(t, '203.0.113.7', '/api/verify-age', again.stream, { 'Content-Type': 'application/json', 'Content-Length': String(big) })).status).toBe(400);
  });

  it('big anonymous bodies leave the last part of the budget to small ones (sign-in)', async () => {
    const t = await testService({ uploads: { anonymous: 16 * MB, pace: { idleMs: 60_000, graceMs: 60_000 } } });
    // Four networks, a quarter each less what the reserve keeps: the fourth does not fit.
    const quarter = 4 * MB - 64 * 1024;
    const uploads = ['192.0.2.10', '198.51.100.10', '203.0.113.10', '100.64.0.10'].map((a) => slow(t, a, quarter));
    await settle();
    try {
      const login = await postFrom(t, '100.64.0.10', '/api/auth/login', JSON.stringify({ email: OWNER.email, password: OWNER.password }), { 'Content-Type': 'application/json' });
      expect(login.status).toBe(200);
    } finally {
      for (const u of uploads) u.end();
    }
    expect((await Promise.all(uploads.map((u) => u.res))).map((r) => r.status)).toEqual([400, 400, 400, 503]);
  });
});

describe('body pace (issue 25)', () => {
  const PACE = { idleMs: 300, graceMs: 400, minBytesPerSecond: 1024 };

  it('a body that stops arriving is answered 408 REQUEST_TIMEOUT and gives its bytes back', async () => {
    const t = await testService({ uploads: { pace: PACE, identified: 1024 * 1024 } });
    const cookie = await t.login();
    const stalled = held(700 * 1024);
    const res = await post(t, '/api/screening/lists/official?source=us_csl', stalled.stream, { Cookie: cookie, 'Content-Type': 'application/octet-stream' });
    expect(res.status).toBe(408);
    expect(await res.json()).toEqual({ error: 'The request body arrived too slowly. Send it again.', status: 'ERROR', code: 'REQUEST_TIMEOUT' });
    stalled.end();
    // Its 700 KB are free again: the same upload fits in the 1 MB budget.
    const again = held(700 * 1024);
    again.end();
    expect((await post(t, '/api/screening/lists/official?source=us_csl', again.stream, { Cookie: cookie, 'Content-Type': 'application/octet-stream' })).status).toBe(400);
  });

  it('a body trickling a byte at a time is cut off once past the grace, although it is never idle', async () => {
    const t = await testService({ uploads: { pace: PACE } });
    const body = trickle(50);
    try {
      const res = await post(t, '/api/verify-age', body.stream, { 'Content-Type': 'application/json' });
      expect(res.status).toBe(408);
    } finally {
      body.stop();
    }
  });

  it('a body that arrives steadily above the minimum rate is read whole', async () => {
    const t = await testService({ uploads: { pace: PACE } });
    let n = 0;
    const json = new TextEncoder().encode(JSON.stringify({ store_id: 'nope', date_of_birth: '1990-01-01', pad: 'x'.repeat(4000) }));
    // 1 KB every 100 ms for ~0.5 s: 10 KB/s, ten times the minimum, past the grace and the idle limit.
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((r) => setTimeout(r, 100));
        if (n >= json.length) return controller.close();
        controller.enqueue(json.subarray(n, n + 1024));
        n += 1024;
      },
    });
    const res = await post(t, '/api/verify-age', stream, { 'Content-Type': 'application/json' });
    expect(res.status).not.toBe(408);
    expect(n).toBeGreaterThanOrEqual(json.length);
  });
});

describe('the listener (issue 25)', () => {
  it('closes a connection whose headers do not finish in time', async () => {
    const t = await testService();
    const server = createListener(t.app.fetch, { timeouts: { headersTimeout: 300, requestTimeout: 600, connectionsCheckingInterval: 100 } });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '));
        let got = '';
        socket.on('data', (d) => (got += d.toString()));
        socket.on('close', () => resolve(got));
        socket.on('error', reject);
        setTimeout(() => reject(new Error('the connection was still open after 5 s')), 5_000).unref();
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      server.close();
    }
  });
});

describe('Content-Type', () => {
  const subject = { subject: { type: 'individual', first_name: 'Jane', last_name: 'Roe' } };

  it('refuses text/plain, XML and form bodies on JSON routes with 415', async () => {
    const t = await testService();
    const key = (await t.key({ scopes: ['compliance'] })).api_key;
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
    const key = (await t.key({ scopes: ['age'] })).api_key;
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
    const key = (await t.key({ scopes: ['compliance'] })).api_key;
    const res = await t.call('POST', '/api/compliance/v1/screen', { key, rawBody: '{}', headers: { 'Content-Type': 'text/canary-7f3a; x=canary-7f3a' } });
    expect(res.status).toBe(415);
    expect(await res.text()).not.toContain('canary');
  });
});
