// Memory: a list change replaces the screening index and the old one is collected, unless a
// batch that started on it is still running; that batch keeps screening on its own lists and
// lets the index go when it ends. Proven with WeakRefs on the old indexes after a forced
// garbage collection (deterministic), plus the heap figure.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import type { Billing } from '../verification/billing';
import { createBatches } from './batch';
import type { ScreeningIndex } from './engine';
import { sha256Hex } from './lists/common';
import { removeUserList, storeUserList } from './lists/store';
import { ofacCsv } from './lists/test-support';
import { MATCHER_VERSION } from './match/version';
import { createScreenPool } from './pool';
import { createScreening } from './service';

// gc() without a command-line flag: allow it, then take it from a fresh context.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function collect(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed;
}

const dirs: string[] = [];
const ME = { orgId: 1, userId: 1 };
afterAll(() => {
  dirs.length = 0;
});

/** A resources folder with one small official list, shaped like resources/watchlists. */
function fixtureResources(): string {
  const root = mkdtempSync(join(tmpdir(), 'cc-release-res-'));
  dirs.push(root);
  const sdn = ofacCsv([
    `7513,"MNANGAGWA, Emmerson Dambudzo","individual","GLOMAG",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 15 Sep 1946; nationality Zimbabwe."`,
    `306,"BANCO NACIONAL DE CUBA",-0- ,"CUBA",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"a.k.a. 'BNC'."`,
  ]);
  const dir = join(root, 'watchlists');
  mkdirSync(join(dir, 'us_ofac_sdn'), { recursive: true });
  writeFileSync(join(dir, 'us_ofac_sdn', 'sdn.csv'), sdn);
  const manifest = {
    manifest_version: 1,
    sources: [{
      source: 'us_ofac_sdn', title: 'SDN (fixture)', publisher: 'test', list_kind: 'sanctions', format: 'ofac-csv',
      list_date: null, retrieval_date: '2026-01-01', date_note: '', terms: '', sha256: sha256Hex(sdn),
      files: [{ role: 'primary', path: 'us_ofac_sdn/sdn.csv', sha256: sha256Hex(sdn), bytes: sdn.length }],
    }],
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return root;
}

function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'cc-release-data-'));
  dirs.push(d);
  return d;
}

/** The organisation's own list, version `v`: enough people that an index of it weighs megabytes. */
function ownList(v: number, rows = 3000): Uint8Array {
  const lines = ['kind,name,dob,country'];
  for (let i = 0; i < rows; i++) {
    lines.push(`pep,Given${(i * 7919 + v) % 100_003} Middle${i % 97}v${v} Family${(i * 104_729 + v * 13) % 1_000_003},19${50 + (i % 50)},FR`);
  }
  return new TextEncoder().encode(`${lines.join('\n')}\n`);
}

/** Stores a new version of the own list and waits for the service to reload it. */
async function importOwn(screening: ReturnType<typeof createScreening>, dir: string, v: number, at: number): Promise<void> {
  const r = storeUserList(dir, 'Own people', ownList(v), new Date(at));
  expect(r.ok).toBe(true);
  expect(await screening.refresh()).toBe(true);
}

describe('the screening index after list changes', () => {
  it('imports a list ten times: each old index is collected and the heap returns near its start', async () => {
    const dir = dataDir();
    const screening = createScreening(fixtureResources(), dir);
    expect(await screening.ready()).not.toBeNull();
    const heapStart = await collect();

    const old: WeakRef<ScreeningIndex>[] = [];
    let heapOne = 0;
    for (let v = 1; v <= 10; v++) {
      await importOwn(screening, dir, v, Date.UTC(2026, 0, v));
      old.push(new WeakRef(screening.current()!.index));
      if (v === 1) heapOne = await collect();
    }
    // The last import's index is the current one; the nine before it are gone.
    await collect();
    const alive = old.map((r) => r.deref() !== undefined);

    // Removing the list brings the lists back to where they started, and the heap with them.
    expect(removeUserList(dir, 'own-people')).toBe(true);
    expect(await screening.refresh()).toBe(true);
    const heapEnd = await collect();
    const oneIndex = heapOne - heapStart;
    console.log(`heap: start ${(heapStart / 1e6).toFixed(1)} MB, one index of the own list ${(oneIndex / 1e6).toFixed(1)} MB, after 10 imports and removal ${(heapEnd / 1e6).toFixed(1)} MB`);
    expect(alive).toEqual([false, false, false, false, false, false, false, false, false, true]);
    expect(old.every((r) => r.deref() === undefined)).toBe(true);
    expect(oneIndex).toBeGreaterThan(2_000_000); // the test means something only if an index weighs
    // Ten kept indexes would be ~10x oneIndex; allow a quarter of one for allocator noise.
    expect(heapEnd - heapStart).toBeLessThan(oneIndex / 4);
    // Ten imports, each indexing the list over again: 13 s on the slow machines, alone.
  }, 60_000);

  it('a batch keeps screening on the index it started with until it ends, then lets it go', async () => {
    const dir = dataDir();
    const resources = fixtureResources();
    const screening = createScreening(resources, dir);
    await importOwn(screening, dir, 1, Date.UTC(2026, 0, 1));
    const pool = createScreenPool(resources, dir);
    const billing = { recordMany: () => ({ charged: 0 }) } as unknown as Billing;
    const batches = createBatches({ clock: systemClock, billing, balance: async () => 0, pool, reviewKey: () => '00'.repeat(32) });

    const ownVersion = (info: { list_versions: { source: string; sha256: string }[] }) => info.list_versions.find((v) => v.source.startsWith('user:'))?.sha256;
    // In a function of its own, so no variable of this test holds the first index.
    const start = async () => {
      const first = screening.current()!;
      return { b: await batches.create(ME, { env: 'test', total_rows: 2, reason: 'periodic_rescreen' }, first), firstIndex: new WeakRef(first.index) };
    };
    const { b, firstIndex } = await start();
    const startedOn = ownVersion(b);
    expect(b.matcher_version).toBe(MATCHER_VERSION);

    // The list changes twice while the batch is open.
    await importOwn(screening, dir, 2, Date.UTC(2026, 0, 2));
    await importOwn(screening, dir, 3, Date.UTC(2026, 0, 3));
    const now = screening.current()!;
    expect(ownVersion({ list_versions: now.versions })).not.toBe(startedOn);

    // Row 1 is a person only on version 1 of the own list: the batch still finds them.
    const row = { row: 1, subject: { type: 'individual', first_name: 'Given1', middle_name: 'Middle0v1', last_name: 'Family13' }, previous_result_summary: { risk_score: 0, risk_level: 'low', flags: [] } };
    let out = '';
    for await (const chunk of batches.processChunk(ME, b.id, [JSON.stringify(row)], now)) out += chunk;
    expect(out).toContain('"matches"');
    const result = JSON.parse(out.split('\n')[0]!) as { matches: { source: string; name: string }[] };
    expect(result.matches.some((m) => m.source === 'user:own-people' && m.name.includes('Middle0v1'))).toBe(true);
    expect(ownVersion(await batches.info(ME, b.id, now))).toBe(startedOn);

    await collect();
    expect(firstIndex.deref()).toBeDefined(); // held by the open batch

    // Cancelled: the batch stays listed (its figures are still read) but its index is released.
    await batches.cancel(ME, b.id, now);
    await collect();
    expect(firstIndex.deref()).toBeUndefined();
    expect(ownVersion(await batches.info(ME, b.id, now))).toBe(startedOn);
  });
});
