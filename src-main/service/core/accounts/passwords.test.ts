// Password hashes: scrypt at 2^15 in the service; the suite lowers the cost for its own accounts
// (test/setup-fast-passwords.ts), and only test code may.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashPassword, PASSWORD_COST, verifyPassword } from './passwords';

const SERVICE = join(import.meta.dirname, '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('passwords', () => {
  it('the service hashes at scrypt N=2^15, r=8, p=1, and a hash verifies whatever cost it states', async () => {
    expect(PASSWORD_COST).toBe(32768);
    const real = await hashPassword('correct horse battery', PASSWORD_COST);
    expect(real).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('correct horse battery', real)).toBe(true);
    expect(await verifyPassword('correct horse batterY', real)).toBe(false);
    const cheap = await hashPassword('correct horse battery');
    expect(cheap.split('$')[1]).toBe('1024');
    expect(await verifyPassword('correct horse battery', cheap)).toBe(true);
    expect(await verifyPassword('x', 'bcrypt$1$2$3$4$5')).toBe(false);
  });

  it('only test code lowers the cost', () => {
    const callers = files(SERVICE)
      .filter((f) => readFileSync(f, 'utf8').includes('lowerPasswordCostForTests'))
      .map((f) => relative(SERVICE, f));
    expect(callers.sort()).toEqual(['core/accounts/passwords.test.ts', 'core/accounts/passwords.ts', 'test/setup-fast-passwords.ts']);
  });
});
