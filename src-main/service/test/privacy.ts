// Privacy harness, shared by every capability's tests (and by e2e): seed canary subject data,
// run flows, then scan every file under the data directory — database, -wal, -shm, logs,
// exports — for any trace of it, as UTF-8, UTF-16 and base64, in any letter case.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface Canaries {
  firstName: string;
  lastName: string;
  fullName: string;
  dob: string;
  documentNumber: string;
  /**
   * The holder's names as an ID document carries them: letters only (the MRZ's alphabet), so the
   * whole canary survives the reading, the alphabet repairs, the review flags and the answer.
   */
  documentSurname: string;
  documentGiven: string;
  clientReference: string;
  /** Bytes standing in for an uploaded image: a real PNG signature and a random body. */
  image: Buffer;
  imageB64: string;
}

/** Canary values unlikely to occur anywhere by chance. */
export function makeCanaries(): Canaries {
  const tag = randomBytes(4).toString('hex').toUpperCase();
  // The tag's digits spelled with letters the text reader does not confuse with digits or drop (no I, L, O, S, B, Z, G, K).
  const letters = tag.replace(/[0-9]/g, (d) => 'MNPRTUVWXY'[Number(d)]!);
  const image = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(256)]);
  return {
    firstName: `Zyqcanary${tag}`,
    lastName: `Vorthcanary${tag}`,
    fullName: `Zyqcanary${tag} Vorthcanary${tag}`,
    dob: '1917-03-29',
    documentNumber: `X${tag}9Q`,
    documentSurname: `VORTHDOC${letters}`,
    documentGiven: `ZYQDOC${letters}`,
    clientReference: `cref-canary-${tag}`,
    image,
    imageB64: image.toString('base64'),
  };
}

export interface Hit {
  file: string;
  needle: string;
  encoding: string;
}

function needlesOf(c: Canaries): { label: string; bytes: Buffer }[] {
  const texts = [c.firstName, c.lastName, c.documentNumber, c.documentSurname, c.documentGiven, c.clientReference, c.dob];
  const out: { label: string; bytes: Buffer }[] = [];
  for (const t of texts) {
    for (const v of new Set([t, t.toLowerCase(), t.toUpperCase()])) {
      out.push({ label: `${v} (utf8)`, bytes: Buffer.from(v, 'utf8') });
      out.push({ label: `${v} (utf16le)`, bytes: Buffer.from(v, 'utf16le') });
      out.push({ label: `${v} (base64)`, bytes: Buffer.from(Buffer.from(v).toString('base64').replace(/=+$/, '')) });
    }
  }
  // A 32-byte slice from the middle of the image (past any header a format shares), raw and base64.
  const mid = Math.floor(c.image.length / 2);
  out.push({ label: 'image bytes', bytes: c.image.subarray(mid, mid + 32) });
  const b64mid = Math.floor(c.imageB64.length / 8) * 4;
  out.push({ label: 'image base64', bytes: Buffer.from(c.imageB64.slice(b64mid, b64mid + 64)) });
  return out;
}

export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of gone(() => readdirSync(dir, { withFileTypes: true })) ?? []) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (gone(() => statSync(p).isFile())) out.push(p);
  }
  return out;
}

/**
 * `read()`, or undefined when the file went between listing and reading it: a database server's
 * directory changes under the scan (temporary files, other tests' databases dropped).
 */
function gone<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (e) {
    if ((e as { code?: unknown }).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** Every place a canary appears under `dir`. An empty array means the data directory is clean. */
export function scanForCanaries(dir: string, c: Canaries): Hit[] {
  const hits: Hit[] = [];
  const needles = needlesOf(c);
  for (const file of filesUnder(dir)) {
    const data = gone(() => readFileSync(file));
    if (data === undefined) continue;
    for (const n of needles) {
      if (data.includes(n.bytes)) hits.push({ file: relative(dir, file), needle: n.label, encoding: n.label });
    }
  }
  return hits;
}
