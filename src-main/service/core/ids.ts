// Random identifiers and secrets from the OS CSPRNG, without modulo bias.
import { createHash, randomFillSync } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

// CSPRNG bytes drawn 4 KiB at a time (one system call for ~80 identifiers, not one each); a
// byte is used once, then the pool is refilled.
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++]!;
}

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    // 248 = 4 * 62: bytes at or above it would skew the distribution.
    if (b < 248) out += BASE62[b % 62];
  }
  return out;
}

export function newId(prefix: string, length = 24): string {
  return `${prefix}_${randomBase62(length)}`;
}

export function sha256Hex(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

export function nowIso(now: number = Date.now()): string {
  return new Date(now).toISOString();
}
