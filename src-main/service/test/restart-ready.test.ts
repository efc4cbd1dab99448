// A restart after an official list import (issue 36): the CLI's import prepares the index of
// the data directory's official lists, and the built service restores it at start instead of
// rebuilding every list, so screening is ready within seconds; /api/health says when it is.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScreeningResponse } from '../../../src-shared/contracts/screening';
import type { Health } from '../../../src-shared/contracts/status';
import { build } from '../../../scripts/build.mjs';
import { cli } from './cli-command';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const UN = join(ROOT, 'resources', 'watchlists', 'un_sc', '2026-02-27', 'consolidated.xml');

async function serve(dataDir: string): Promise<{ proc: ChildProcess; url: string; startedAt: number }> {
  const startedAt = performance.now();
  const proc = spawn(process.execPath, [join(ROOT, 'out', 'main', 'service.js'), '--data-dir', dataDir, '--port', '0', '--lazy-models'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.on('exit', (code) => reject(new Error(`service exited ${code}: ${out}`)));
  });
  return { proc, url, startedAt };
}

describe('a restart after an official list import', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-restart-'));
  let svc: Awaited<ReturnType<typeof serve>> | undefined;
  let apiKey = '';

  beforeAll(async () => {
    // The CLI and the service of one build: the index the CLI prepares is the service's to restore.
    expect(build()).toBe(true);
    const init = await cli('init', '--data-dir', dataDir, '--org', 'Restart Org', '--owner-email', 'op@example.test', '--owner-password', 'operator password', '--plan', 'pro');
    expect(init.status, init.stderr).toBe(0);
    const key = await cli('keys', 'create', '--data-dir', dataDir, '--env', 'test', '--scopes', 'compliance', '--json');
    apiKey = (JSON.parse(key.stdout) as { api_key: string }).api_key;
  }, 300_000);
  afterAll(async () => {
    if (svc?.proc.exitCode === null) {
      const exited = new Promise((r) => svc!.proc.on('exit', r));
      svc.proc.kill('SIGKILL');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('restores the index the import prepared: health goes to screening ready and a screening answers', async () => {
    const imported = await cli('lists', 'import', '--data-dir', dataDir, '--source', 'un_sc', UN, '--json');
    expect(imported.status, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ ok: true, source: 'un_sc', index: { snapshot: 'built: absent' } });

    svc = await serve(dataDir);
    let health: Health | undefined;
    await expect.poll(async () => {
      health = (await (await fetch(`${svc!.url}/api/health`)).json()) as Health;
      // Never ok while screening is not ready.
      if (health.screening !== 'ready') expect(health.status).toBe('degraded');
      return health.screening;
    }, { timeout: 60_000, interval: 50 }).toBe('ready');
    const readyAfter = performance.now() - svc.startedAt;
    expect(health).toMatchObject({ status: 'ok', screening: 'ready', reason: null });

    const res = await fetch(`${svc.url}/api/compliance/v1/screen`, {
      method: 'POST', headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ subject: { type: 'individual', first_name: 'Eric', last_name: 'Badege' } }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as ScreeningResponse;
    expect(body.matches.some((m) => m.source === 'un_sc')).toBe(true);
    expect(body.screening.list_versions.find((v) => v.source === 'un_sc')?.retrieval_date).toBe(new Date().toISOString().slice(0, 10));

    // The service says how its index came to be: restored, not rebuilt.
    await expect.poll(() => readFileSync(join(dataDir, 'logs', 'service.log'), 'utf8'), { timeout: 10_000 }).toContain('"msg":"lists_loaded"');
    const line = readFileSync(join(dataDir, 'logs', 'service.log'), 'utf8').split('\n').find((l) => l.includes('"msg":"lists_loaded"'))!;
    expect(JSON.parse(line)).toMatchObject({ snapshot: 'persisted' });
    console.log(`restart after an official import: screening ready ${(readyAfter / 1000).toFixed(2)} s after the process started (${line})`);
  }, 300_000);
});
