// scrypt password hashes in a self-describing format: scrypt$N$r$p$salt$hash (base64url).
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost: 2^15 (about 0.1 s here). Hashes say their own N, so any stored hash still verifies. */
export const PASSWORD_COST = 1 << 15;
let N = PASSWORD_COST;
const R = 8;
const P = 1;
const KEYLEN = 32;

function scrypt(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  const opts: ScryptOptions = { N: n, r, p, maxmem: 256 * n * r };
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFKC'), salt, KEYLEN, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string, cost = N): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, cost, R, P);
  return ['scrypt', cost, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash to compare against when the e-mail is unknown, so timing does not reveal accounts. */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword('not-a-real-password-' + randomBytes(8).toString('hex'));
  return dummy;
}

/**
 * Tests only (vitest's setup file): hash new passwords at 2^10, not 2^15, so the hundreds of
 * accounts the suite makes do not each cost a tenth of a second. Nothing in the service calls it
 * (passwords.test.ts checks that, and the production cost).
 */
export function lowerPasswordCostForTests(): void {
  N = 1 << 10;
}
