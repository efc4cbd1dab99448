// The process interfaces, as an operator uses them: `npm run serve` (what the shell forks too)
// and the admin CLI working on the same data directory while the service runs.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './cli-command';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** Starts scripts/serve.mjs with `args`; resolves once it listens, with its URL and what it printed. */
async function serve(args: string[]): Promise<{ proc: ChildProcess; url: string; out: () => string; err: () => string }> {
  const proc = spawn(process.execPath, [join(ROOT, 'scripts/serve.mjs'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start: ${out}${err}`)), 120_000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.on('exit', (code) => reject(new Error(`service exited ${code}: ${out}${err}`)));
  });
  return { proc, url, out: () => out, err: () => err };
}

function startService(dataDir: string): Promise<{ proc: ChildProcess; url: string }> {
  return serve(['--data-dir', dataDir, '--port', '0']);
}

function exited(proc: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
}

describe('npm run serve -- --lazy-models', () => {
  it('loads the face and document models at the first request that needs them, not at start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cc-serve-lazy-'));
    const s = await serve(['--data-dir', dataDir, '--port', '0', '--lazy-models']);
    try {
      const logText = () => readFileSync(join(dataDir, 'logs', 'service.log'), 'utf8');
      await expect.poll(logText, { timeout: 30_000 }).toContain('"msg":"lists_loaded"');
      // An eager start has its face workers ready and the reader loading by now (5 s at most).
      await new Promise((r) => setTimeout(r, 6000));
      expect(logText()).not.toMatch(/faces_worker_ready|document_reader_ready/);
      const health = await fetch(`${s.url}/api/health`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { models: unknown }).models).toEqual({ faces: 'idle', documents: 'idle' });
    } finally {
      s.proc.kill('SIGTERM');
      await exited(s.proc);
    }
  }, 60_000);
});

describe('npm run serve + CLI on one data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-serve-'));
  let svc: { proc: ChildProcess; url: string };

  beforeAll(async () => {
    const init = await cli('init', '--data-dir', dataDir, '--org', 'Operator Org', '--owner-email', 'op@example.test', '--owner-password', 'operator password', '--plan', 'starter');
    expect(init.status, init.stderr).toBe(0);
    svc = await startService(dataDir);
  }, 180_000);
  afterAll(() => {
    if (svc?.proc.exitCode === null) svc.proc.kill('SIGKILL');
  });
  /** The operator's session cookie. */
  const signIn = async (): Promise<string> => {
    const login = await fetch(`${svc.url}/api/auth/login`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'op@example.test', password: 'operator password' }),
    });
    return login.headers.get('set-cookie')!.split(';')[0]!;
  };

  it('prints the loopback URL and answers health', async () => {
    expect(svc.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${svc.url}/api/health`);
    expect(res.status).toBe(200);
  });

  it('a key created by the CLI works at once; revoking it by the CLI stops it at once', async () => {
    const created = await cli('keys', 'create', '--data-dir', dataDir, '--env', 'test', '--scopes', 'human,age', '--name', 'ops', '--json');
    expect(created.status, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout) as Record<string, unknown>;
    expect(key).toEqual({
      id: expect.stringMatching(/^key_/), api_key: expect.stringMatching(/^svk-[A-Za-z0-9]{32}$/),
      secret: expect.stringMatching(/^svsk-[A-Za-z0-9]{48}$/), env: 'test', scopes: ['human', 'age'],
    });
    const before = await fetch(`${svc.url}/api/status/ver_x`, { headers: { 'X-API-Key': String(key.api_key) } });
    expect(before.status).toBe(404);
    expect((await cli('keys', 'revoke', '--data-dir', dataDir, String(key.id))).status).toBe(0);
    const after = await fetch(`${svc.url}/api/status/ver_x`, { headers: { 'X-API-Key': String(key.api_key) } });
    expect(after.status).toBe(401);
  });

  it('credits and plan changes by the CLI show in the running service', async () => {
    expect((await cli('credits', 'grant', '--data-dir', dataDir, '500')).status).toBe(0);
    expect((await cli('credits', 'grant', '--data-dir', dataDir, '250')).stdout).toContain('balance 750');
    expect((await cli('credits', 'balance', '--data-dir', dataDir)).stdout).toBe('750');
    expect((await cli('plan', 'set', '--data-dir', dataDir, 'enterprise')).status).toBe(0);
    const login = await fetch(`${svc.url}/api/auth/login`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'op@example.test', password: 'operator password' }),
    });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const account = await (await fetch(`${svc.url}/api/account`, { headers: { Cookie: cookie } })).json();
    expect(account).toMatchObject({ plan: { id: 'enterprise' }, credits: { balance: 750 } });
  });

  it('the CLI refuses bad input with exit code 2 and a message', async () => {
    expect((await cli('plan', 'set', '--data-dir', dataDir, 'platinum'))).toMatchObject({ status: 2, stderr: expect.stringContaining('plan must be one of') });
    expect((await cli('credits', 'grant', '--data-dir', dataDir, '-5')).status).toBe(2);
    expect((await cli('keys', 'create', '--data-dir', dataDir, '--env', 'prod', '--scopes', 'human')).status).toBe(2);
    expect((await cli('init', '--data-dir', dataDir, '--org', 'Again', '--owner-email', 'x@example.test', '--owner-password', 'password 123')).status).toBe(1);
  });

  it('serves the console at / with a strict CSP', async () => {
    const res = await fetch(`${svc.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('the bundled service screens batch rows in its worker thread', async () => {
    expect((await cli('plan', 'set', '--data-dir', dataDir, 'pro')).status).toBe(0);
    const cookie = await signIn();
    for (let i = 0; i < 60; i++) {
      const l = (await (await fetch(`${svc.url}/api/screening/lists`, { headers: { Cookie: cookie } })).json()) as { state: string };
      if (l.state === 'ready') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    await fetch(`${svc.url}/api/console/batches/preview?env=test&rows=1`, { headers: { Cookie: cookie } });
    const b = (await (await fetch(`${svc.url}/api/console/batches`, {
      method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/json' }, body: JSON.stringify({ env: 'test', total_rows: 1 }),
    })).json()) as { id: string };
    const rows = await fetch(`${svc.url}/api/console/batches/${b.id}/rows`, {
      method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/x-ndjson' },
      body: JSON.stringify({ row: 1, subject: { type: 'individual', first_name: 'Vladimir', last_name: 'Putin' } }),
    });
    expect((await rows.text()).trim().split('\n')).toHaveLength(2);
    // Log lines reach the file within a moment (they are written off the event loop).
    await expect.poll(() => readFileSync(join(dataDir, 'logs', 'service.log'), 'utf8'), { timeout: 3000 }).toContain('"screened_in":"worker"');
  }, 60_000);

  it('the bundled service screens single requests in its worker thread once the worker is up', async () => {
    const cookie = await signIn();
    const logText = () => readFileSync(join(dataDir, 'logs', 'service.log'), 'utf8');
    for (let i = 0; i < 60 && !logText().includes('"msg":"screen_worker_ready"'); i++) await new Promise((r) => setTimeout(r, 500));
    const res = await fetch(`${svc.url}/api/console/screen?env=test`, {
      method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ subject: { type: 'individual', first_name: 'Vladimir', last_name: 'Putin' } }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { matches: { name: string }[] };
    expect(body.matches.some((m) => /putin/i.test(m.name))).toBe(true);
    await expect.poll(logText, { timeout: 3000 }).toMatch(/"msg":"screening_runs".*"job":"screen","in":"worker"/);
  }, 60_000);

  it('the bundled service starts from the build\'s screening snapshot and screens through it', async () => {
    const log = readFileSync(join(dataDir, 'logs', 'service.log'), 'utf8');
    expect(log).toMatch(/"msg":"lists_loaded".*"snapshot":"used"/);
    expect((await cli('plan', 'set', '--data-dir', dataDir, 'pro')).status).toBe(0);
    const cookie = await signIn();
    for (const [first_name, last_name] of [['Vladimir', 'Putin'], ['ウラジーミル', 'プーチン']]) {
      const res = await fetch(`${svc.url}/api/console/screen?env=test`, {
        method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/json', Origin: svc.url },
        body: JSON.stringify({ subject: { type: 'individual', first_name, last_name } }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { matches: { entity_id: string }[] };
      expect(body.matches.map((m) => m.entity_id)).toContain('us_ofac_sdn:35096');
    }
  }, 60_000);

  it('the bundled service reads an imported own list in its worker thread, not on the HTTP loop', async () => {
    const cookie = await signIn();
    const logText = () => readFileSync(join(dataDir, 'logs', 'service.log'), 'utf8');
    for (let i = 0; i < 60 && !logText().includes('"msg":"screen_worker_ready"'); i++) await new Promise((r) => setTimeout(r, 500));
    const post = (csv: string) => fetch(`${svc.url}/api/screening/lists/user?name=Worker%20checked`, {
      method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'text/csv', Origin: svc.url }, body: csv,
    });
    const bad = await post('kind,name\nnot-a-kind,Someone\n');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { rows: { rejected: number } }).rows.rejected).toBe(1);
    const good = await post('kind,name,dob\npep,Worker Checked Person,1970\nwanted,Another Checked Person,\n');
    expect(good.status).toBe(201);
    expect(((await good.json()) as { rows: { imported: number } }).rows.imported).toBe(2);
    await expect.poll(logText, { timeout: 3000 }).toMatch(/"msg":"screening_runs".*"job":"check-user-list","in":"worker"/);
  }, 60_000);

  it('a second service on the same data directory exits 1 naming the first one\'s process; the first keeps serving (issue 25)', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts/serve.mjs'), '--data-dir', dataDir, '--port', '0', '--lazy-models'], { encoding: 'utf8', cwd: ROOT, timeout: 120_000 });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(
      `Compliance Console service failed to start: ${dataDir} is already served by process ${svc.proc.pid}. Stop it first, or start this one with another --data-dir.`,
    );
    expect(readFileSync(join(dataDir, 'service.lock'), 'utf8').trim()).toBe(String(svc.proc.pid));
  });

  it('shuts down cleanly on SIGTERM, giving the data directory back', async () => {
    const done = exited(svc.proc);
    svc.proc.kill('SIGTERM');
    expect(await done).toBe(0);
    expect(existsSync(join(dataDir, 'service.lock'))).toBe(false);
  });

  it('a lock left by a service that was killed is taken over', async () => {
    // A process id no process has now: the lock of a service killed with -9.
    writeFileSync(join(dataDir, 'service.lock'), '2147483646\n');
    const again = await startService(dataDir);
    try {
      expect((await fetch(`${again.url}/api/health`)).status).toBe(200);
      expect(readFileSync(join(dataDir, 'service.lock'), 'utf8').trim()).toBe(String(again.proc.pid));
    } finally {
      const done = exited(again.proc);
      again.proc.kill('SIGTERM');
      await done;
    }
  }, 180_000);
});

describe('npm run serve refuses what it must', () => {
  it('refuses a non-loopback host', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts/serve.mjs'), '--data-dir', mkdtempSync(join(tmpdir(), 'cc-h-')), '--host', '0.0.0.0'], {
      encoding: 'utf8', cwd: ROOT, timeout: 120_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('loopback');
  });
});

describe('npm run demo', () => {
  it('seeds a fresh test-mode organisation and prints a login and keys that work', async () => {
    const { proc, url, out: printed } = await serve(['--demo', '--port', '0']);
    const out = printed();
    try {
      expect(out).toContain('TEST MODE');
      const login = /login:\s+(\S+) \/ (\S+)/.exec(out)!;
      const key = /(svk-[A-Za-z0-9]{32})/.exec(out)![1]!;
      const res = await fetch(`${url}/api/auth/login`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: login[1], password: login[2] }),
      });
      expect(res.status).toBe(200);
      // The 90 days of history are written once the URL is out: the reports show them soon after.
      const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
      let total = 0;
      for (let tries = 0; total === 0 && tries < 100; tries++) {
        const from = new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10);
        const overview = await fetch(`${url}/api/reports/overview?env=test&from=${from}&to=${new Date().toISOString().slice(0, 10)}`, { headers: { Cookie: cookie } });
        total = ((await overview.json()) as { data?: { total_verifications?: number } }).data?.total_verifications ?? 0;
        if (total === 0) await new Promise((r) => setTimeout(r, 100));
      }
      expect(total).toBeGreaterThan(1000);
      // Screening loads first; the face models start once it is ready, and health says when they are.
      const dir = /data directory:\s+(\S+)/.exec(out)![1]!;
      await expect.poll(async () => ((await (await fetch(`${url}/api/health`)).json()) as { models: { faces: string } }).models.faces, { timeout: 60_000, interval: 250 }).toBe('ready');
      const log = readFileSync(join(dir, 'logs', 'service.log'), 'utf8');
      expect(log.indexOf('"msg":"lists_loaded"')).toBeGreaterThan(-1);
      expect(log.indexOf('"msg":"lists_loaded"')).toBeLessThan(log.indexOf('"msg":"faces_pool"'));
      const init = await fetch(`${url}/api/v1/verify-age/init`, {
        method: 'POST', headers: { 'Content-Type': 'application/json', 'X-API-Key': key }, body: '{}',
      });
      expect(init.status).toBe(200);
    } finally {
      proc.kill('SIGTERM');
    }
  }, 180_000);
});

function occupyPort(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0 });
    });
  });
}

describe('a port that is taken', () => {
  it('npm run demo moves to a free port and says so, and removes its data directory when stopped', async () => {
    const taken = await occupyPort();
    let proc: ChildProcess | undefined;
    try {
      const started = await serve(['--demo', '--port', String(taken.port)]);
      proc = started.proc;
      const { url } = started;
      const out = started.out();
      const err = started.err();
      const port = Number(new URL(url).port);
      expect(port).not.toBe(taken.port);
      expect(out).toContain(`Port ${taken.port} is in use; using free port ${port} instead.`);
      expect(err).not.toMatch(/\n\s+at /);
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      const dataDir = /data directory: (\S+)/.exec(out)![1]!;
      expect(existsSync(join(dataDir, 'console.db'))).toBe(true);

      const done = exited(proc);
      proc.kill('SIGINT');
      expect(await done).toBe(0);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      if (proc && proc.exitCode === null) proc.kill('SIGKILL');
      taken.server.close();
    }
  }, 180_000);

  it('npm run serve with that port asked for by name refuses it in one line, without a stack trace', async () => {
    const taken = await occupyPort();
    try {
      const r = spawnSync(process.execPath, [join(ROOT, 'scripts/serve.mjs'), '--data-dir', mkdtempSync(join(tmpdir(), 'cc-p-')), '--port', String(taken.port)], {
        encoding: 'utf8', cwd: ROOT, timeout: 120_000,
      });
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toBe(`Compliance Console service failed to start: port ${taken.port} on 127.0.0.1 is in use. Stop what uses it, or pass --port 0 for any free port.`);
    } finally {
      taken.server.close();
    }
  }, 180_000);
});

describe('console static files', () => {
  it('serves index.html for client routes, 404 for missing assets, and never escapes the folder', async () => {
    const { mkdtempSync: mk, writeFileSync } = await import('node:fs');
    const dir = mk(join(tmpdir(), 'cc-static-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
    const { testService } = await import('./harness');
    const { compose } = await import('../compose');
    const { createApp } = await import('../http/app');
    const t = await testService();
    const s = await compose({ dataDir: mkdtempSync(join(tmpdir(), 'cc-static-data-')), consoleDir: dir });
    const { app } = createApp(s);
    const route = await app.request('http://127.0.0.1/keys');
    expect(route.status).toBe(200);
    expect(await route.text()).toContain('console');
    expect((await app.request('http://127.0.0.1/favicon.ico')).status).toBe(404);
    expect((await app.request('http://127.0.0.1/..%2f..%2fetc%2fpasswd.txt')).status).toBe(404);
    s.close();
    t.close();
  });
});
