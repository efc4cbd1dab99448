// `npm run fuzz` (after `npm run build`): hostile requests against every route of the built
// service, loopback only, bounded in count and time. The routes come from the service's own
// OpenAPI document, so routes added later are fuzzed without changes here.
//
// Per route: malformed JSON, wrong types, arrays for objects, prototype keys, nesting 1,000 and
// 100,000 deep, bodies built from the route's schema with extreme values, lone surrogates and
// NULs, big bodies (5 MB with a length, 50 MB chunked), wrong Content-Types, long headers, bad
// Idempotency-Keys, fuzzed path parameters and query values, images cut short or bombs where a
// route takes images, and every auth the route knows (its own, none, a wrong one).
//
// Then 19 anonymous sockets declare 14,128,181 bytes each (268 MB) on the public age check and
// trickle a byte now and then, and a paying customer's liveness and screening must answer 200
// beside them (issue 25).
//
// Every string sent carries a canary; an error answer that contains it echoed input.
// Targets: no 5xx, no echo, RSS at the end within 1.5x of the start. Exit 1 when one is missed.
//   --requests N (default 10000)  --seconds S (default 120)  --seed N  --short (1500 in 20 s)
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import sharp from 'sharp';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, login, rng, rssMiB, seedOrganisation, sleep, startService, stopService, waitForFaces, waitForLists } from './support/service';

interface Op {
  method: string;
  /** OpenAPI path, `{id}` for parameters. */
  path: string;
  auth: { kind: string; via?: string };
  /** Media types the body may have; empty when the route takes none. */
  types: string[];
  schema: Json | undefined;
  query: { name: string; schema: Json }[];
}
type Json = Record<string, unknown>;

interface Case {
  name: string;
  body?: string | Uint8Array | (() => ReadableStream<Uint8Array>);
  type?: string;
  headers?: Record<string, string>;
  path?: string;
  query?: string;
  auth?: 'own' | 'none' | 'wrong';
}

export interface FuzzOptions {
  requests: number;
  seconds: number;
  seed: number;
  /** 50 MB chunked bodies sent (to routes that take a body and need auth). */
  bigBodies: number;
  concurrency: number;
}

export interface FuzzReport {
  requests: number;
  reachedHandlers: number;
  statuses: Record<string, number>;
  serverErrors: string[];
  echoes: string[];
  failedConnections: number;
  /** Requests sent again once because their pooled connection had just been closed by the server. */
  retriedClosed: number;
  maxLatency: { ms: number; what: string };
  rss: { startMiB: number; endMiB: number; ratio: number };
  seconds: number;
  /** The paying customer's answers while slow anonymous uploads held their sockets open. */
  besideSlowUploads: { liveness: number; screening: number };
  missed: string[];
}

/** `n` sockets on the public age check, each declaring `declared` bytes and sending one every `everyMs`. */
function slowUploads(url: string, n: number, declared: number, everyMs: number): { stop: () => void } {
  const { hostname, port } = new URL(url);
  const sockets: Socket[] = [];
  const timers: ReturnType<typeof setInterval>[] = [];
  for (let i = 0; i < n; i++) {
    const s = connect(Number(port), hostname, () => {
      s.write(`POST /api/verify-age HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n{`);
      timers.push(setInterval(() => s.write(' '), everyMs));
    });
    s.on('error', () => undefined);
    s.resume();
    sockets.push(s);
  }
  return {
    stop() {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
    },
  };
}

const deep = (n: number, open = '[', close = ']') => open.repeat(n) + close.repeat(n);

/** A value the schema would take, with strings replaced by `str` and numbers by `num`. */
function sample(schema: Json | undefined, defs: Record<string, Json>, str: string, num: number, arrayLen: number, depth = 0): unknown {
  if (!schema || depth > 8) return str;
  if (typeof schema.$ref === 'string') return sample(defs[schema.$ref.split('/').pop()!], defs, str, num, arrayLen, depth + 1);
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    const alts = schema[k] as Json[] | undefined;
    if (alts?.length) return sample(alts[0], defs, str, num, arrayLen, depth + 1);
  }
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries((schema.properties as Record<string, Json>) ?? {})) out[k] = sample(v, defs, str, num, arrayLen, depth + 1);
      return out;
    }
    case 'array':
      return Array.from({ length: arrayLen }, () => sample(schema.items as Json, defs, str, num, arrayLen > 3 ? 1 : arrayLen, depth + 1));
    case 'integer':
    case 'number':
      return num;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return str;
  }
}

const resolve = (schema: Json | undefined, defs: Record<string, Json>): Json | undefined =>
  schema && typeof schema.$ref === 'string' ? defs[schema.$ref.split('/').pop()!] : schema;

/**
 * A body the route would take, but for one thing: every free-form map (metadata) holds a key
 * the client chose (`key`) with a value of the wrong type. The only error is about that key, so
 * an error message naming it would echo it.
 */
export function plausible(raw: Json | undefined, defs: Record<string, Json>, key: string, depth = 0): unknown {
  const schema = resolve(raw, defs);
  if (!schema || depth > 8) return 'Test';
  const alts = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (alts?.length) return plausible(alts[0], defs, key, depth + 1);
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object') {
    const out: Record<string, unknown> = {};
    const required = new Set((schema.required as string[] | undefined) ?? []);
    for (const [k, v] of Object.entries((schema.properties as Record<string, Json>) ?? {})) {
      const map = resolve(v, defs);
      if (map?.additionalProperties && typeof map.additionalProperties === 'object') out[k] = { [key]: [[{}]] };
      else if (required.has(k)) out[k] = plausible(v, defs, key, depth + 1);
    }
    return out;
  }
  if (type === 'array') return [plausible(schema.items as Json, defs, key, depth + 1)];
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (type === 'boolean') return true;
  const pattern = String(schema.pattern ?? '');
  if (pattern.includes('\\d{4}-\\d{2}-\\d{2}')) return '1980-01-01';
  if (pattern.includes('[A-Za-z]{2}')) return 'GB';
  if (schema.format === 'email') return 'someone@example.test';
  if (schema.format === 'uri') return 'https://example.test/hook';
  return 'Test'.slice(0, typeof schema.maxLength === 'number' ? schema.maxLength : 4).padEnd(typeof schema.minLength === 'number' ? schema.minLength : 0, 't');
}

function operations(doc: Json): { ops: Op[]; defs: Record<string, Json> } {
  const defs = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  const ops: Op[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(item)) {
      const content = ((op.requestBody as Json | undefined)?.content ?? {}) as Record<string, { schema?: Json }>;
      const types = Object.keys(content);
      const params = ((op.parameters as Json[] | undefined) ?? []).filter((p) => p.in === 'query');
      ops.push({
        method: method.toUpperCase(), path, auth: (op['x-auth'] as Op['auth'] | undefined) ?? { kind: 'public' }, types,
        schema: types[0] ? content[types[0]]!.schema : undefined,
        query: params.map((p) => ({ name: String(p.name), schema: (p.schema as Json) ?? {} })),
      });
    }
  }
  return { ops, defs };
}

/** A tiny PNG header cut short, a corrupt JPEG, and a "bomb" claiming 65535 x 65535 pixels. */
const IMAGES: [string, Uint8Array][] = [
  ['image cut short', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])],
  ['corrupt jpeg', new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...Array.from({ length: 200 }, (_, i) => (i * 37) & 0xff)])],
  ['image bomb', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0xff, 0xff, 0, 0, 0xff, 0xff, 8, 6, 0, 0, 0])],
];

function cases(op: Op, defs: Record<string, Json>, canary: () => string, big: () => boolean): Case[] {
  const out: Case[] = [{ name: 'as declared, no body' }, { name: 'no auth', auth: 'none' }, { name: 'wrong auth', auth: 'wrong' }];
  const c = canary;
  const json = 'application/json';
  const takesJson = op.types.includes(json);
  const bodyType = op.types[0] ?? json;
  if (op.types.length > 0 || op.method !== 'GET') {
    const raw = (name: string, body: string, type = bodyType) => out.push({ name, body, type });
    raw('malformed JSON', `{"${c()}": `);
    raw('truncated array', `[1, 2, {"${c()}"`);
    raw('NUL only', '\u0000');
    for (const v of ['null', '1', `"${c()}"`, 'true', '[]', `[{"${c()}":1}]`]) raw(`wrong type ${v.slice(0, 6)}`, v);
    raw('__proto__ key', `{"__proto__":{"${c()}":1,"isAdmin":true}}`);
    raw('constructor key', `{"constructor":{"prototype":{"${c()}":1}}}`);
    raw('nested 1,000', deep(1000));
    raw('objects nested 100,000', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`);
    raw('lone surrogates and NULs', JSON.stringify(sample(op.schema, defs, `${c()}\ud800\u0000\udfff`, 1, 1)));
    raw('shaped, canary strings', JSON.stringify(sample(op.schema, defs, c(), 1, 1)));
    raw('plausible, a chosen map key', JSON.stringify(plausible(op.schema, defs, c())));
    raw('shaped, huge numbers', JSON.stringify(sample(op.schema, defs, c(), 1e308, 1)));
    raw('shaped, negative numbers', JSON.stringify(sample(op.schema, defs, c(), -1, 1)));
    raw('shaped, empty strings', JSON.stringify(sample(op.schema, defs, '', 0, 0)));
    raw('shaped, 10k-element arrays', JSON.stringify(sample(op.schema, defs, c(), 2, 10_000)));
    raw('shaped, 100 KB strings', JSON.stringify(sample(op.schema, defs, c() + 'x'.repeat(100_000), 3, 1)));
    const shaped = JSON.stringify(sample(op.schema, defs, c(), 1, 1));
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=zz']) {
      out.push({ name: `Content-Type ${type.split(';')[0]}`, body: type.startsWith('application/xml') ? `<a>${c()}</a>` : shaped, type });
    }
    out.push({ name: 'Content-Type with a canary', body: shaped, type: `application/${c()}` });
    if (takesJson) out.push({ name: 'JSON without Content-Type', body: shaped, type: '' });
    // Every route with a body gets 5 MB with a length (refused on the header); a few get 50 MB chunked.
    if (op.types.length > 0) out.push({ name: '5 MB body with a length', body: JSON.stringify({ x: 'x'.repeat(5 * 1024 * 1024), [c()]: 1 }), type: bodyType });
    if (op.types.length > 0 && op.auth.kind !== 'public' && big()) {
      out.push({
        name: '50 MB chunked body', type: bodyType,
        body: () => {
          let sent = 0;
          const chunk = new Uint8Array(1024 * 1024).fill(0x5b);
          return new ReadableStream({
            pull(ctl) {
              if (sent >= 50) return ctl.close();
              sent++;
              ctl.enqueue(chunk);
            },
          });
        },
      });
    }
    if (op.types.some((t) => t.startsWith('image/') || t === 'multipart/form-data')) {
      for (const [name, bytes] of IMAGES) {
        out.push({ name: `${name} as image/jpeg`, body: bytes, type: 'image/jpeg' });
        out.push({ name: `${name} as text/plain`, body: bytes, type: 'text/plain' });
        const form = `--zz\r\nContent-Disposition: form-data; name="file"; filename="${c()}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
        const tail = '\r\n--zz--\r\n';
        out.push({ name: `${name} in a form`, body: new Uint8Array([...new TextEncoder().encode(form), ...bytes, ...new TextEncoder().encode(tail)]), type: 'multipart/form-data; boundary=zz' });
      }
    }
  }
  out.push({ name: 'long header', headers: { 'X-Fuzz': c() + 'h'.repeat(12_000) } });
  out.push({ name: 'oversized Idempotency-Key', headers: { 'Idempotency-Key': c() + 'k'.repeat(5000) } });
  out.push({ name: 'non-ASCII Idempotency-Key', headers: { 'Idempotency-Key': `${c()}-\u00e9\u00ff` } });
  out.push({ name: 'empty Idempotency-Key', headers: { 'Idempotency-Key': '' } });
  if (op.path.includes('{')) {
    for (const v of [c(), '%00', '..%2F..%2Fetc', '%E0%A4%A', '__proto__', 'constructor', `${c()}${'p'.repeat(5000)}`, '%ED%A0%80']) {
      out.push({ name: `path param ${v.slice(0, 10)}`, path: op.path.replace(/\{[^}]+\}/g, v) });
    }
  }
  for (const q of op.query) {
    for (const v of [c(), '%ED%A0%80', '%', `${c()}${'q'.repeat(10_000)}`, '-1', '1e309', '__proto__']) {
      out.push({ name: `query ${q.name}=${v.slice(0, 8)}`, query: `${q.name}=${v}` });
    }
    out.push({ name: `query ${q.name} twice`, query: `${q.name}=${c()}&${q.name}=${c()}` });
  }

  return out;
}

export async function runFuzz(o: FuzzOptions, log: (line: string) => void = () => undefined): Promise<FuzzReport> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'cc-fuzz-'));
  const seeded = await seedOrganisation(dir, { plan: 'enterprise', credits: 1_000_000 });
  // Test keys are free; several, so the per-key limits leave room to reach the parsers.
  const keys: string[] = [];
  for (let i = 0; i < 8; i++) {
    const r = await cli('keys', 'create', '--data-dir', dir, '--env', 'test', '--scopes', 'human,age,identity,compliance', '--name', `fuzz ${i}`, '--json');
    keys.push((JSON.parse(r.stdout) as { api_key: string }).api_key);
  }
  const svc = await startService(dir);
  const report: FuzzReport = {
    requests: 0, reachedHandlers: 0, statuses: {}, serverErrors: [], echoes: [], failedConnections: 0, retriedClosed: 0,
    maxLatency: { ms: 0, what: '' }, rss: { startMiB: 0, endMiB: 0, ratio: 0 }, seconds: 0, besideSlowUploads: { liveness: 0, screening: 0 }, missed: [],
  };
  try {
    const cookie = await login(svc.url, seeded.email, seeded.password);
    await waitForLists(svc.url, cookie);
    // The face models load once screening is ready (issue 38): the fuzz and its RSS baseline start
    // after them, as they did when the models loaded first, not during their load on two cores.
    await waitForFaces(dir);
    const doc = (await (await fetch(`${svc.url}/api/openapi.json`)).json()) as Json;
    const { ops, defs } = operations(doc);
    // Warm up (the worker's index, the JIT), then take the starting RSS.
    for (let i = 0; i < 20; i++) await (await fetch(`${svc.url}/api/health`)).arrayBuffer();
    // The slow-upload attack, then a paying customer beside it (before the fuzz, which may change the plan).
    const attack = slowUploads(svc.url, 19, 14_128_181, 2000);
    try {
      await sleep(500);
      const form = new FormData();
      const photo = await sharp({ create: { width: 160, height: 160, channels: 3, background: '#888' } }).jpeg().toBuffer();
      form.append('file', new Blob([photo as Uint8Array<ArrayBuffer>]), 'selfie.jpg');
      const liveness = await fetch(`${svc.url}/api/verify`, { method: 'POST', headers: { 'X-API-Key': keys[0]! }, body: form });
      await liveness.arrayBuffer();
      const screening = await fetch(`${svc.url}/api/compliance/v1/screen`, {
        method: 'POST', headers: { 'X-API-Key': seeded.apiKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ subject: { type: 'individual', first_name: 'Ingeborg', last_name: 'Abrahamsen' } }),
      });
      await screening.arrayBuffer();
      report.besideSlowUploads = { liveness: liveness.status, screening: screening.status };
    } finally {
      attack.stop();
    }
    await sleep(1000);
    report.rss.startMiB = rssMiB(svc.pid) ?? 0;

    const random = rng(o.seed);
    let seq = 0;
    const canaries: string[] = [];
    const canary = () => {
      const c = `cnry${o.seed}x${seq++}z`;
      canaries.push(c);
      return c;
    };
    let bigLeft = o.bigBodies;
    // Big bodies are sent in the first round only.
    const big = () => bigLeft-- > 0;
    // Every (route, case) once, in a seeded order; then again until the count or time is reached.
    const jobs: { op: Op; c: Case; canaries: string[] }[] = [];
    for (const op of ops) {
      const from = canaries.length;
      const list = cases(op, defs, canary, big);
      const mine = canaries.slice(from);
      for (const c of list) jobs.push({ op, c, canaries: mine });
    }
    for (let i = jobs.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [jobs[i], jobs[j]] = [jobs[j]!, jobs[i]!];
    }
    log(`${ops.length} operations, ${jobs.length} distinct requests; sending ${o.requests} at most in ${o.seconds} s`);
    const deadline = performance.now() + o.seconds * 1000;
    const seen5xx = new Set<string>();
    const seenEcho = new Set<string>();
    let next = 0;
    let keyTurn = 0;

    const send = async (job: (typeof jobs)[number]): Promise<void> => {
      const { op, c } = job;
      const headers: Record<string, string> = { ...c.headers };
      // Signing out would end the session every other case uses: that route gets a forged one.
      const auth = op.path === '/api/auth/logout' ? 'wrong' : (c.auth ?? 'own');
      if (op.auth.kind === 'session' && auth === 'own') headers.Cookie = cookie;
      if (op.auth.kind === 'session' && auth === 'wrong') headers.Cookie = 'cc_session=forged';
      if (op.auth.kind === 'key' || op.auth.kind === 'secret') {
        const key = auth === 'own' ? keys[keyTurn++ % keys.length]! : auth === 'wrong' ? 'svk-' + 'x'.repeat(32) : '';
        if (key) {
          if (op.auth.via === 'bearer' || op.auth.kind === 'secret') headers.Authorization = `Bearer ${key}`;
          else headers['X-API-Key'] = key;
        }
      }
      if (c.type !== undefined && c.type !== '') headers['Content-Type'] = c.type;
      const path = (c.path ?? op.path.replace(/\{[^}]+\}/g, 'fuzz_id')) + (c.query ? `?${c.query}` : '');
      const init: RequestInit & { duplex?: 'half' } = { method: op.method, headers };
      if (c.body !== undefined && op.method !== 'GET') {
        init.body = typeof c.body === 'function' ? c.body() : (c.body as BodyInit);
        if (typeof c.body === 'function') init.duplex = 'half';
      }
      const what = `${op.method} ${op.path} [${c.name}]`;
      const t0 = performance.now();
      let status = 0;
      let text = '';
      let headerText = '';
      const send = async () => {
        const res = await fetch(`${svc.url}${path}`, init);
        status = res.status;
        text = await res.text();
        headerText = [...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
      };
      try {
        await send();
      } catch (e) {
        // A connection the server closed as this request went out on it (a pooled one past its
        // keep-alive, or after an early answer to an unread body, under load) is tried once more on
        // a new one; a second failure is a request with no answer.
        const closed = /other side closed/i.test(String((e as Error)?.cause ?? e));
        try {
          if (!closed) throw e;
          report.retriedClosed++;
          if (typeof c.body === 'function') init.body = c.body();
          await send();
        } catch {
          report.failedConnections++;
        }
      }
      const ms = performance.now() - t0;
      report.requests++;
      report.statuses[status] = (report.statuses[status] ?? 0) + 1;
      if (![0, 401, 403, 429].includes(status)) report.reachedHandlers++;
      if (ms > report.maxLatency.ms) report.maxLatency = { ms: Math.round(ms), what };
      if (status >= 500 && !(status === 503 && /SERVER_BUSY|provider_unavailable/.test(text)) && !seen5xx.has(what)) {
        seen5xx.add(what);
        report.serverErrors.push(`${status} ${what}`);
      }
      if (status >= 400) {
        const hit = job.canaries.find((cn) => text.includes(cn) || headerText.includes(cn));
        if (hit && !seenEcho.has(what)) {
          seenEcho.add(what);
          report.echoes.push(`${status} ${what}`);
        }
      }
    };

    await Promise.all(Array.from({ length: o.concurrency }, async () => {
      while (report.requests < o.requests && performance.now() < deadline) {
        const job = jobs[next++ % jobs.length]!;
        // Replays after the first round skip the big bodies: they were sent once.
        if (next > jobs.length && / MB /.test(job.c.name)) continue;
        await send(job);
        if (svc.proc.exitCode !== null || svc.proc.signalCode !== null) throw new Error(`the service died after ${report.requests} requests`);
      }
    }));
    await sleep(2000);
    report.rss.endMiB = rssMiB(svc.pid) ?? 0;
    report.rss.ratio = report.rss.startMiB ? report.rss.endMiB / report.rss.startMiB : 0;
  } finally {
    await stopService(svc);
    rmSync(dir, { recursive: true, force: true });
  }
  report.seconds = Math.round((performance.now() - started) / 100) / 10;
  if (report.serverErrors.length) report.missed.push(`${report.serverErrors.length} distinct 5xx answers`);
  if (report.echoes.length) report.missed.push(`${report.echoes.length} error answers echoed input`);
  if (report.failedConnections) report.missed.push(`${report.failedConnections} requests got no answer`);
  if (report.rss.ratio > 1.5) report.missed.push(`RSS grew ${report.rss.ratio.toFixed(2)}x`);
  const beside = report.besideSlowUploads;
  if (beside.liveness !== 200 || beside.screening !== 200) {
    report.missed.push(`beside 19 slow anonymous uploads a customer's liveness answered ${beside.liveness}, screening ${beside.screening}`);
  }
  return report;
}

function flag(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

if (process.argv[1]?.endsWith('fuzz.ts')) {
  const short = process.argv.includes('--short');
  const o: FuzzOptions = {
    requests: flag('requests', short ? 1500 : 10_000), seconds: flag('seconds', short ? 20 : 120), seed: flag('seed', 1),
    bigBodies: short ? 2 : 12, concurrency: 8,
  };
  const r = await runFuzz(o, (l) => process.stdout.write(`${l}\n`));
  const line = (k: string, v: string | number) => process.stdout.write(`  ${k.padEnd(30)} ${v}\n`);
  process.stdout.write('\n== fuzz\n');
  line('requests', `${r.requests} in ${r.seconds} s (${r.reachedHandlers} past auth and limits)`);
  line('statuses', JSON.stringify(r.statuses));
  line('5xx', r.serverErrors.length);
  for (const e of r.serverErrors) line('', e);
  line('echoes of input in errors', r.echoes.length);
  for (const e of r.echoes) line('', e);
  line('no answer', r.failedConnections);
  line('sent again on a new connection', r.retriedClosed);
  line('max latency', `${r.maxLatency.ms} ms ${r.maxLatency.what}`);
  line('RSS start / end', `${Math.round(r.rss.startMiB)} / ${Math.round(r.rss.endMiB)} MiB (${r.rss.ratio.toFixed(2)}x)`);
  line('beside 19 slow uploads', `liveness ${r.besideSlowUploads.liveness}, screening ${r.besideSlowUploads.screening}`);
  if (r.missed.length) {
    line('MISSED', r.missed.join('; '));
    process.exit(1);
  }
}
