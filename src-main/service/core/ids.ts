// Random identifiers and secrets from the OS CSPRNG, without modulo bias.
import { createHash, randomBytes } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      // 248 = 4 * 62: bytes at or above it would skew the distribution.
      if (b < 248) out += BASE62[b % 62];
      if (out.length === length) break;
    }
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
