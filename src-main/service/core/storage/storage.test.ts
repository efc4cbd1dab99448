// The free-space reading: cached for cacheMs (hot paths never statfs per request), read afresh
// after a disk-full error, the reserve enforced, and a refused write forgotten once one succeeds.
import { describe, expect, it } from 'vitest';
import { isAppError } from '../../../../src-shared/errors';
import { createStorage, RECENT_FULL_MS } from './storage';

const MiB = 1024 * 1024;

function fake(free: number) {
  const s = { free, reads: 0, t: 0 };
  const storage = createStorage('/nowhere', {
    freeBytes: () => { s.reads++; return s.free; }, reserveBytes: 64 * MiB, cacheMs: 1000, now: () => s.t,
  });
  return { s, storage };
}

describe('storage', () => {
  it('reads the free space at most once per cacheMs', () => {
    const { s, storage } = fake(100 * MiB);
    for (let i = 0; i < 50; i++) storage.require();
    expect(s.reads).toBe(1);
    s.free = 10 * MiB;
    s.t = 999;
    expect(storage.has()).toBe(true);
    s.t = 1000;
    expect(storage.has()).toBe(false);
    expect(s.reads).toBe(2);
  });

  it('refuses below the reserve, counting what is about to be written', () => {
    const { storage } = fake(70 * MiB);
    expect(storage.has(5 * MiB)).toBe(true);
    expect(storage.has(7 * MiB)).toBe(false);
    try {
      storage.require(7 * MiB);
      expect.unreachable();
    } catch (e) {
      expect(isAppError(e) && e.code).toBe('insufficient_storage');
    }
  });

  it('knows a disk-full error from others, reads afresh after one, and forgets it once a write succeeds or a minute passed', () => {
    const { s, storage } = fake(100 * MiB);
    storage.has();
    expect(storage.isFull(Object.assign(new Error('x'), { code: 'SQLITE_FULL' }))).toBe(true);
    expect(storage.isFull(Object.assign(new Error('x'), { code: 'ENOSPC' }))).toBe(true);
    expect(storage.isFull(Object.assign(new Error('x'), { code: 'SQLITE_CONSTRAINT' }))).toBe(false);
    expect(storage.isFull(new Error('plain'))).toBe(false);
    // An I/O error is the disk only when the disk is low.
    expect(storage.isFull(Object.assign(new Error('x'), { code: 'SQLITE_IOERR_WRITE' }))).toBe(false);
    s.free = MiB;
    expect(storage.isFull(Object.assign(new Error('x'), { code: 'SQLITE_IOERR_WRITE' }))).toBe(true);
    expect(storage.reading()).toMatchObject({ freeBytes: MiB, low: true, refusedAt: expect.any(Number) });
    s.free = 100 * MiB;
    s.t += 1000;
    storage.written();
    expect(storage.reading()).toMatchObject({ low: false, refusedAt: null });
    storage.isFull(Object.assign(new Error('x'), { code: 'SQLITE_FULL' }));
    s.t += RECENT_FULL_MS;
    expect(storage.reading().refusedAt).toBeNull();
  });

  it('reads the real filesystem with statfs by default', () => {
    const free = createStorage(process.cwd()).freeBytes();
    expect(free).toBeGreaterThan(0);
  });
});
