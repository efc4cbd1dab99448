// The SQLite log is checkpointed by a timer, never inside a commit (checkpoints.ts): a commit that
// charged work returns without copying the log back, so its result goes out at once.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkpointOnTimer } from './checkpoints';
import { DB_FILE, openDatabase, type Db } from './open';

const PAGE = 4096;
let dir = '';
let db: Db | null = null;

afterEach(() => {
  db?.close();
  db = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function open(): Db {
  dir = mkdtempSync(join(tmpdir(), 'checkpoints-'));
  db = openDatabase(dir);
  db.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, body BLOB)');
  return db;
}

/** `pages` pages of log in 100 commits, in one task: no timer runs between them. */
function write(d: Db, pages: number): void {
  const insert = d.prepare('INSERT INTO filler (body) VALUES (?)');
  const commit = d.transaction((n: number) => {
    for (let i = 0; i < n; i++) insert.run(Buffer.alloc(PAGE - 200, i % 251));
  });
  for (let c = 0; c < 100; c++) commit(pages / 100);
}

const walPages = () => statSync(join(dir, `${DB_FILE}-wal`)).size / PAGE;

describe('checkpointOnTimer', () => {
  it('commits never checkpoint: 3,000 pages of commits leave 3,000 pages of log, which the timer then checkpoints (the log starts over)', async () => {
    const d = open();
    const checkpoints = checkpointOnTimer(d, { everyMs: 20 });
    try {
      write(d, 3000);
      // SQLite's own rule would have checkpointed at 1,000 pages and started the log over.
      expect(walPages()).toBeGreaterThan(3000);
      await new Promise((r) => setTimeout(r, 100));
      // Everything in the log was copied back: the next commits write from its start again.
      const before = walPages();
      write(d, 1000);
      expect(walPages()).toBeLessThanOrEqual(before);
      expect(d.prepare('SELECT COUNT(*) FROM filler').pluck().get()).toBe(4000);
    } finally {
      checkpoints.stop();
    }
  });

  it('stopping gives the commits SQLite\'s own rule back', () => {
    const d = open();
    const before = d.pragma('wal_autocheckpoint', { simple: true });
    checkpointOnTimer(d, { everyMs: 20 }).stop();
    expect(d.pragma('wal_autocheckpoint', { simple: true })).toBe(before);
    write(d, 3000);
    expect(walPages()).toBeLessThan(1500);
  });
});
