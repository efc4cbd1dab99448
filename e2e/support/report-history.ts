// Ledger history for the report and export specs: real liveness checks with a test key (a selfie
// that passes and pictures without a face that fail), so every figure the reports show comes from
// rows the service itself wrote.
import { join } from 'node:path';
import sharp from 'sharp';
import { ROOT, type Service } from './service';

const SAMPLE = join(ROOT, 'node_modules/@vladmandic/face-api/demo/sample1.jpg');
const selfie = () => sharp(SAMPLE).extract({ left: 122, top: 105, width: 774, height: 774 }).resize(560).jpeg().toBuffer();
const noFace = () => sharp({ create: { width: 400, height: 300, channels: 3, background: '#3a6' } }).png().toBuffer();

async function verify(service: Service, apiKey: string, image: Buffer, name: string): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(image)], { type: name.endsWith('.png') ? 'image/png' : 'image/jpeg' }), name);
  const res = await fetch(`${service.url}/api/verify`, { method: 'POST', headers: { 'X-API-Key': apiKey }, body: form });
  await res.arrayBuffer();
  if (res.status >= 500) throw new Error(`POST /api/verify answered ${res.status}`);
}

/** `passes` passing and `fails` failing liveness checks in test mode, under one named key. */
export async function seedHistory(service: Service, { passes = 3, fails = 2 } = {}): Promise<void> {
  const { stdout } = await service.cli('keys', 'create', '--env', 'test', '--scopes', 'human,age', '--name', 'Checkout backend', '--json');
  const { api_key: apiKey } = JSON.parse(stdout) as { api_key: string };
  const [good, bad] = await Promise.all([selfie(), noFace()]);
  for (let i = 0; i < passes; i++) await verify(service, apiKey, good, 'selfie.jpg');
  for (let i = 0; i < fails; i++) await verify(service, apiKey, bad, 'plain.png');
}
