// `npm run fuzz:images [-- --count 10000 --seed 1]` (after `npm run build`): hostile images and
// clips against the built service's image intake. Seeds are real pictures made here from the
// face-api demo photo (a dev dependency): a selfie in JPEG, PNG and WebP, a picture without a
// face, and a short clip. Each input is one of: cut short at a random byte, bytes flipped, header
// overwritten, another format's magic bytes on noise, a type the spec does not take, a forged
// pixel count (bomb), more than 10 MB, broken base64 or a non-string in the JSON field, a form
// without its file or with it twice. Sent to POST /api/verify (multipart) and POST
// /api/v1/verify-age/step2 (base64 JSON), mostly with a demo key (intake only, no model), one in
// ten with a test key (the models see whatever decodes).
// Inputs also carry metadata bombs (self-referencing EXIF blocks, issue 25). After the fuzz, two
// 6.5 MB EXIF bombs and an ordinary selfie are sent at once with a test key (the models run):
// target, each answered within 3 s.
// Passes when no answer is a 5xx, none quotes the input, the service still answers, and (the
// command, not the short test) the bombs and the selfie beside them meet the 3 s target.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { exifBombAround } from '../src-main/service/test/face-fixtures';
import { cli, numberFlags, rng, rssMiB, startService, stopService } from './support/service';

export interface ImageFuzzReport {
  requests: number;
  statuses: Record<number, number>;
  serverErrors: string[];
  echoes: string[];
  failedConnections: number;
  healthAfter: number;
  rssMiB: { start: number; end: number };
  seconds: number;
  /** Two EXIF bombs and a selfie sent at once: each one's status and milliseconds. */
  bombs: { bomb: { status: number; ms: number }[]; selfie: { status: number; ms: number } };
}

/** The 3 s target for a bomb, and for an ordinary selfie sent beside two. */
export const BOMB_TARGET_MS = 3_000;

interface Input {
  name: string;
  bytes?: Uint8Array;
  /** JSON only: a value other than base64 of `bytes`. */
  field?: unknown;
  /** Multipart only: the form is built differently. */
  form?: 'no file' | 'file twice' | 'file as text';
}

async function seeds(): Promise<Record<string, Buffer>> {
  const photo = readFileSync(join(import.meta.dirname, '..', 'node_modules/@vladmandic/face-api/demo/sample1.jpg'));
  const face = sharp(photo).extract({ left: 122, top: 105, width: 774, height: 774 }).resize(320);
  const plain = sharp({ create: { width: 200, height: 150, channels: 4, background: { r: 40, g: 120, b: 200, alpha: 0.5 } } });
  return {
    jpeg: await face.clone().jpeg({ quality: 80 }).toBuffer(),
    png: await face.clone().png().toBuffer(),
    webp: await face.clone().webp().toBuffer(),
    plain: await plain.png().toBuffer(),
    small: await face.clone().resize(48).jpeg().toBuffer(),
  };
}

const MAGIC: Record<string, number[]> = {
  jpeg: [0xff, 0xd8, 0xff, 0xe0], png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], webp: [...Buffer.from('RIFF\0\0\0\0WEBPVP8 ')],
  mp4: [0, 0, 0, 0x18, ...Buffer.from('ftypmp42')], mov: [0, 0, 0, 0x14, ...Buffer.from('ftypqt  ')], webm: [0x1a, 0x45, 0xdf, 0xa3],
  gif: [...Buffer.from('GIF89a')], pdf: [...Buffer.from('%PDF-1.7')], bmp: [...Buffer.from('BM')], tiff: [0x49, 0x49, 0x2a, 0],
};

function generator(seed: Record<string, Buffer>, random: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const noise = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(random() * 256));
  const base = () => seed[pick(['jpeg', 'png', 'webp', 'plain', 'small'])]!;
  const kinds: (() => Input)[] = [
    () => {
      const b = base();
      return { name: 'cut short', bytes: b.subarray(0, Math.floor(random() * b.length)) };
    },
    () => {
      const b = Buffer.from(base());
      for (let k = 1 + Math.floor(random() * 20); k > 0; k--) b[Math.floor(random() * b.length)] = Math.floor(random() * 256);
      return { name: 'bytes flipped', bytes: b };
    },
    () => {
      const b = Buffer.from(base());
      b.set(noise(Math.min(64, b.length)), 4);
      return { name: 'header overwritten', bytes: b };
    },
    () => {
      const m = MAGIC[pick(Object.keys(MAGIC))]!;
      return { name: 'magic on noise', bytes: new Uint8Array([...m, ...noise(Math.floor(random() * 4000))]) };
    },
    () => {
      const b = Buffer.from(seed.png!);
      b.writeUInt32BE(1 + Math.floor(random() * 0xfffffff), 16);
      b.writeUInt32BE(1 + Math.floor(random() * 0xfffffff), 20);
      return { name: 'forged pixel count', bytes: b };
    },
    () => ({ name: 'empty', bytes: new Uint8Array(0) }),
    () => ({ name: 'text', bytes: new TextEncoder().encode(pick(['<svg xmlns="http://www.w3.org/2000/svg"/>', '<html></html>', 'hello', '{"a":1}'])) }),
    () => ({ name: 'json field not base64', field: pick([42, true, null, {}, ['x'], '***', '=', 'A', 'data:image/png;base64,@@', 'AAAA'.repeat(3) + '=A']) }),
    () => ({ name: 'metadata bomb', bytes: exifBombAround(seed.jpeg!, 1 + Math.floor(random() * 12)) }),
    () => ({ name: 'form without its file', form: 'no file' }),
    () => ({ name: 'form with the file twice', form: 'file twice', bytes: base() }),
    () => ({ name: 'file sent as a text field', form: 'file as text', bytes: base() }),
  ];
  return (i: number): Input => (i % 500 === 7 ? { name: 'over 10 MB', bytes: Buffer.concat([seed.jpeg!, Buffer.alloc(10 * 1024 * 1024)]) } : pick(kinds)());
}

export async function runImageFuzz(o: { count: number; seed: number; concurrency?: number }, log: (l: string) => void = () => {}): Promise<ImageFuzzReport> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'cc-fuzz-images-'));
  const mk = async (demo: boolean) => {
    const args = ['keys', 'create', '--data-dir', dir, '--env', 'test', '--scopes', 'human,age', '--name', demo ? 'demo' : 'test', '--json', ...(demo ? ['--demo'] : [])];
    const r = await cli(...args);
    return (JSON.parse(r.stdout) as { api_key: string }).api_key;
  };
  await cli('init', '--data-dir', dir, '--org', 'Fuzz Org', '--owner-email', 'owner@fuzz.example', '--owner-password', 'fuzz run password', '--plan', 'enterprise');
  // Enough keys that the per-key rate limits (Enterprise: 25/s, age 16/s) leave room to reach the intake.
  const demoKeys = await Promise.all(Array.from({ length: Math.min(24, Math.ceil(o.count / 400)) }, () => mk(true)));
  const testKeys = await Promise.all(Array.from({ length: Math.min(6, Math.ceil(o.count / 1500)) }, () => mk(false)));
  const seed = await seeds();
  const next = generator(seed, rng(o.seed));
  const svc = await startService(dir);
  const report: ImageFuzzReport = {
    requests: 0, statuses: {}, serverErrors: [], echoes: [], failedConnections: 0, healthAfter: 0, rssMiB: { start: rssMiB(svc.pid) ?? 0, end: 0 }, seconds: 0,
    bombs: { bomb: [], selfie: { status: 0, ms: 0 } },
  };
  try {
    let i = 0;
    const worker = async () => {
      while (i < o.count) {
        const n = i++;
        const input = next(n);
        const key = n % 10 === 3 ? testKeys[Math.floor(n / 10) % testKeys.length]! : demoKeys[n % demoKeys.length]!;
        const json = n % 3 === 0 || (input.field !== undefined);
        let res: Response | null = null;
        try {
          if (json) {
            const value = input.field !== undefined ? input.field : Buffer.from(input.bytes ?? []).toString('base64');
            res = await fetch(`${svc.url}/api/v1/verify-age/step2`, {
              method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify({ image_selfie_b64: value, min_age: 18 }),
            });
          } else {
            const form = new FormData();
            const blob = new Blob([(input.bytes ?? new Uint8Array(0)) as Uint8Array<ArrayBuffer>]);
            if (input.form === 'file twice') form.append('file', blob, 'a.jpg');
            if (input.form === 'file as text') form.append('file', Buffer.from(input.bytes ?? []).toString('latin1'));
            else if (input.form !== 'no file') form.append('file', blob, 'b.jpg');
            res = await fetch(`${svc.url}/api/verify`, { method: 'POST', headers: { 'X-API-Key': key }, body: form });
          }
        } catch {
          report.failedConnections++;
        }
        report.requests++;
        const status = res?.status ?? 0;
        report.statuses[status] = (report.statuses[status] ?? 0) + 1;
        const text = res ? await res.text() : '';
        if (status >= 500 && report.serverErrors.length < 20) report.serverErrors.push(`${input.name} (${json ? 'json' : 'form'}): ${status} ${text.slice(0, 200)}`);
        // No answer quotes the input: look for a 12-byte slice of it, raw (latin1) and base64.
        if (input.bytes && input.bytes.length >= 40 && status !== 200) {
          const mid = Math.floor(input.bytes.length / 2);
          const slice = Buffer.from(input.bytes.subarray(mid, mid + 12));
          if (text.includes(slice.toString('base64').slice(2, 14)) || text.includes(slice.toString('latin1'))) {
            if (report.echoes.length < 20) report.echoes.push(`${input.name}: ${text.slice(0, 200)}`);
          }
        }
        if (n % 1000 === 999) log(`${n + 1} sent`);
      }
    };
    await Promise.all(Array.from({ length: o.concurrency ?? 8 }, worker));
    // Two bombs and a selfie at once, with a test key: the face models see what decodes.
    const timed = async (bytes: Uint8Array) => {
      const form = new FormData();
      form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), 'selfie.jpg');
      const t0 = performance.now();
      const res = await fetch(`${svc.url}/api/verify`, { method: 'POST', headers: { 'X-API-Key': testKeys[0]! }, body: form }).catch(() => null);
      await res?.arrayBuffer();
      return { status: res?.status ?? 0, ms: Math.round(performance.now() - t0) };
    };
    await timed(seed.jpeg!); // the models loaded
    const bomb = exifBombAround(seed.jpeg!);
    const [b1, b2, selfie] = await Promise.all([timed(bomb), timed(bomb), new Promise((r) => setTimeout(r, 50)).then(() => timed(seed.jpeg!))]);
    report.bombs = { bomb: [b1!, b2!], selfie: selfie! };
    for (const r of [b1!, b2!, selfie!]) {
      report.requests++;
      report.statuses[r.status] = (report.statuses[r.status] ?? 0) + 1;
      if (r.status >= 500 || r.status === 0) report.serverErrors.push(`bombs beside a selfie: ${r.status}`);
    }
    const h = await fetch(`${svc.url}/api/health`).catch(() => null);
    report.healthAfter = h?.status ?? 0;
    report.rssMiB.end = rssMiB(svc.pid) ?? 0;
  } finally {
    await stopService(svc);
    rmSync(dir, { recursive: true, force: true });
  }
  report.seconds = Math.round((performance.now() - started) / 100) / 10;
  return report;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const flags = numberFlags(process.argv.slice(2), { count: 10_000, seed: 1, concurrency: 8 });
  const r = await runImageFuzz(flags, (l) => process.stdout.write(`  ${l}\n`));
  process.stdout.write(`\n${JSON.stringify(r, null, 2)}\n`);
  const slow = [...r.bombs.bomb, r.bombs.selfie].filter((b) => b.ms > BOMB_TARGET_MS);
  process.stdout.write(`EXIF bombs: ${r.bombs.bomb.map((b) => `${b.status} in ${b.ms} ms`).join(', ')}; the selfie beside them: ${r.bombs.selfie.status} in ${r.bombs.selfie.ms} ms (target ${BOMB_TARGET_MS} ms)\n`);
  const ok = r.serverErrors.length === 0 && r.echoes.length === 0 && r.failedConnections === 0 && r.healthAfter === 200 && slow.length === 0;
  process.stdout.write(ok ? 'No 5xx, no echo, the service kept answering, bombs within the target.\n' : 'FAILED\n');
  process.exit(ok ? 0 : 1);
}
