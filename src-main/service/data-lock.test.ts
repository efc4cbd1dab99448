// One service per data directory (issue 25): the lock a service takes at start.
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirInUse, LOCK_FILE, lockDataDir } from './data-lock';

const dir = () => mkdtempSync(join(tmpdir(), 'cc-lock-'));

describe('lockDataDir', () => {
  it('a live holder keeps it: the second taker is refused with the holder named', () => {
    const d = dir();
    const release = lockDataDir(d);
    expect(() => lockDataDir(d)).toThrow(DataDirInUse);
    expect(() => lockDataDir(d)).toThrow(`is already served by process ${process.pid}`);
    // A live process that is not this one (the parent of this test runner) holds it too.
    release();
    writeFileSync(join(d, LOCK_FILE), `${process.ppid}\n`);
    expect(() => lockDataDir(d)).toThrow(`process ${process.ppid}`);
  });

  it('a lock whose process is gone is taken over; release removes only its own lock and leaves no temporary file', () => {
    const d = dir();
    writeFileSync(join(d, LOCK_FILE), '2147483646\n');
    const release = lockDataDir(d);
    expect(readFileSync(join(d, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    expect(readdirSync(d)).toEqual([LOCK_FILE]);
    release();
    expect(existsSync(join(d, LOCK_FILE))).toBe(false);
    // Another process's lock is not removed by a stale release.
    const again = lockDataDir(d);
    writeFileSync(join(d, LOCK_FILE), `${process.ppid}\n`);
    again();
    expect(readFileSync(join(d, LOCK_FILE), 'utf8').trim()).toBe(String(process.ppid));
  });
});
