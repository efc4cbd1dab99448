// The storefront age gate against the built service (`npm run bench:verification -- --age-gate`,
// and part of the full run): a store saved through the console's API, then POST /api/verify-age
// as the widget sends it, one visitor after another (each its own loopback address: the service
// counts 5 attempts per visitor per hour by address, whatever the user agent). Measures the attestation answer (a date of birth: a ledger row, no model)
// and the selfie answer (the age estimate), and that the 6th attempt of one visitor is refused.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import sharp from 'sharp';

const SAMPLE = join(import.meta.dirname, '..', 'node_modules/@vladmandic/face-api/demo/sample1.jpg');
const q = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
const ms = (v: number) => `${v.toFixed(0)} ms`;

/** POSTs JSON from a loopback address of its own (all of 127.0.0.0/8 is this machine on Linux). */
function postFrom(localAddress: string, target: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(target, { method: 'POST', localAddress, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function ageGateBench(url: string, login: { email: string; password: string }, line: (l: string, v: string) => void, failures: string[]): Promise<void> {
  const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: url }, body: JSON.stringify(login) });
  const cookie = /cc_session=[^;]*/.exec(res.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error(`login failed: ${res.status}`);
  const store = async (settings: Record<string, unknown>) => {
    const r = await fetch(`${url}/api/age-gate`, {
      method: 'PUT', headers: { 'Content-Type': 'application/json', Cookie: cookie, Origin: url }, body: JSON.stringify({ env: 'test', settings: { enabled: true, ...settings } }),
    });
    if (r.status !== 200) throw new Error(`saving the store: ${r.status} ${await r.text()}`);
    return ((await r.json()) as { store_id: string }).store_id;
  };
  const selfie = (await sharp(readFileSync(SAMPLE)).extract({ left: 122, top: 105, width: 774, height: 774 }).jpeg({ quality: 90 }).toBuffer()).toString('base64');
  let visitor = 0;
  const post = async (body: Record<string, unknown>, address = `127.0.${Math.floor(visitor / 250) + 1}.${(visitor++ % 250) + 1}`) => {
    const t = performance.now();
    const r = await postFrom(address, `${url}/api/verify-age`, JSON.stringify(body));
    const answer = JSON.parse(r.text) as { verified?: boolean };
    return { ms: performance.now() - t, status: r.status, verified: answer.verified };
  };

  for (const [name, settings, extra] of [
    ['attestation (date of birth)', { require_selfie: false }, {}],
    ['selfie (age estimate)', { require_selfie: true }, { selfie_b64: selfie }],
  ] as const) {
    const id = await store(settings);
    const body = { store_id: id, date_of_birth: '1980-05-17', ...extra };
    for (let i = 0; i < 3; i++) await post(body);
    const times: number[] = [];
    const statuses = new Set<number>();
    for (let i = 0; i < 25; i++) {
      const r = await post(body);
      statuses.add(r.status);
      times.push(r.ms);
    }
    times.sort((a, b) => a - b);
    process.stdout.write(`\n== Age gate: POST /api/verify-age, ${name}, one visitor after another (25 calls)\n`);
    line('whole request, median / p95 / max', `${ms(q(times, 0.5))} / ${ms(q(times, 0.95))} / ${ms(times.at(-1)!)}`);
    line('statuses', [...statuses].join(', '));
    if ([...statuses].some((s) => s !== 200)) failures.push(`age gate ${name}: statuses ${[...statuses].join(', ')}`);
  }
  const id = await store({ require_selfie: false });
  const seen: number[] = [];
  for (let i = 0; i < 6; i++) seen.push((await post({ store_id: id, date_of_birth: '1980-05-17' }, '127.0.0.2')).status);
  line('one visitor, 6 attempts in a row', seen.join(', '));
  if (seen.join() !== '200,200,200,200,200,429') failures.push(`age gate attempts: ${seen.join(', ')}`);
}
