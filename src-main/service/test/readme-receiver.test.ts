// The webhook receiver printed in README.md, run as it is: a signed, fresh event is accepted;
// a tampered body, a wrong secret and a replayed old event are refused.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROOT } from '../paths';
import { sign } from '../core/webhooks/signing';

const SECRET = 'whsec_readmeReceiverTestSecret0123456789abcd';
let child: ChildProcess;
let dir: string;
const port = 20_000 + Math.floor(Math.random() * 20_000);

beforeAll(async () => {
  const readme = readFileSync(join(APP_ROOT, 'README.md'), 'utf8');
  const block = /```js\n(\/\/ receiver\.mjs[\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README.md has no receiver.mjs block');
  dir = mkdtempSync(join(tmpdir(), 'readme-receiver-'));
  writeFileSync(join(dir, 'receiver.mjs'), block);
  child = spawn(process.execPath, [join(dir, 'receiver.mjs')], { env: { ...process.env, WEBHOOK_SECRET: SECRET, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`receiver exited ${code}`)));
  });
});
afterAll(() => {
  child?.kill();
  rmSync(dir, { recursive: true, force: true });
});

const post = (body: string, signature: string, next?: string) =>
  fetch(`http://127.0.0.1:${port}/hook`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Service-Signature': signature, ...(next ? { 'X-Service-Signature-Next': next } : {}) }, body,
  }).then((r) => r.status);

describe('the README webhook receiver', () => {
  const event = (at: Date) => JSON.stringify({ event: 'verification.completed', verification_id: 'ver_1', status: 'PASS', product: 'human', environment: 'test', timestamp: at.toISOString() });

  it('accepts a signed, fresh event (also by the rotation\'s Next signature) and refuses tampering, another secret and a replay older than 5 minutes', async () => {
    const fresh = event(new Date());
    expect(await post(fresh, sign(SECRET, fresh))).toBe(200);
    expect(await post(fresh.replace('PASS', 'FAIL'), sign(SECRET, fresh))).toBe(401);
    expect(await post(fresh, sign('whsec_someoneElse', fresh))).toBe(401);
    expect(await post(fresh, '')).toBe(401);
    // During a rotation's overlap: the receiver already on the new secret checks the Next signature.
    expect(await post(fresh, sign('whsec_theOldSecret', fresh), sign(SECRET, fresh))).toBe(200);
    expect(await post(fresh, sign('whsec_theOldSecret', fresh), sign('whsec_someoneElse', fresh))).toBe(401);
    const old = event(new Date(Date.now() - 6 * 60_000));
    expect(await post(old, sign(SECRET, old))).toBe(401);
  });
});
