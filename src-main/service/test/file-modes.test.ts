// Everything the service writes into its data directory is its user's alone (issue 9): the
// database with its -wal and -shm, logs, the organisation's own lists and imported official
// files are 0600, their folders 0700, whatever the umask; an older install's looser files are
// tightened when the service opens the directory again. POSIX only.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScreeningResponse } from '../../../src-shared/contracts/screening';
import { compose, type Services } from '../compose';
import { ManualClock } from '../core/clock';
import { createApp } from '../http/app';
import { createLogger } from '../log';
import { cookieFrom, OWNER } from './harness';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const UN_XML = readFileSync(join(ROOT, 'resources', 'watchlists', 'un_sc', '2026-02-27', 'consolidated.xml'));

/** Every folder and file under `dir` (itself included), with its permission bits in octal. */
function modes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (p: string): void => {
    const st = statSync(p);
    out[relative(dir, p) || '.'] = (st.mode & 0o777).toString(8);
    if (st.isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
  };
  walk(dir);
  return out;
}

function allPrivate(found: Record<string, string>, dir: string): Record<string, string> {
  return Object.fromEntries(Object.keys(found).map((p) => [p, statSync(join(dir, p)).isDirectory() ? '700' : '600']));
}

async function start(dataDir: string): Promise<{ s: Services; call: (method: string, path: string, init?: RequestInit) => Promise<Response> }> {
  const s = await compose({ dataDir, clock: new ManualClock(Date.now()), logger: createLogger({ dataDir }) });
  const { app } = createApp(s);
  return { s, call: async (method, path, init = {}) => app.request(`http://127.0.0.1:4310${path}`, { method, ...init }) };
}

describe.skipIf(process.platform === 'win32')('file modes in the data directory', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-modes-'));
  // Not created yet: the service makes it, and its parent, itself.
  const parent = join(root, 'fresh');
  const dataDir = join(parent, 'data');
  let umask: number;
  beforeAll(() => {
    // The most permissive umask: the modes must come from the service, not from the umask.
    umask = process.umask(0);
  });
  afterAll(() => {
    process.umask(umask);
    rmSync(root, { recursive: true, force: true });
  });

  it('a fresh data directory after login, a screening, list imports and log lines holds only 0600 files in 0700 folders', async () => {
    const { s, call } = await start(dataDir);
    try {
      const setup = await s.accounts.setup({ organization: 'Modes Org', name: OWNER.name, email: OWNER.email, password: OWNER.password, plan: 'pro' });
      const login = await call('POST', '/api/auth/login', { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: OWNER.email, password: OWNER.password }) });
      expect(login.status).toBe(200);
      const cookie = cookieFrom(login);
      expect(await s.screening.ready(60_000)).not.toBeNull();
      const key = await s.keys.create({ orgId: setup.org.id, plan: 'pro', name: 'modes', env: 'test', scopes: ['compliance'], demo: false, createdBy: setup.user.id });
      const screen = await call('POST', '/api/compliance/v1/screen', {
        headers: { 'X-API-Key': key.api_key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ subject: { type: 'individual', first_name: 'Jane', last_name: 'Roe' } }),
      });
      expect(((await screen.json()) as ScreeningResponse).screening.lists_checked).toEqual(['sanctions', 'pep']);
      const user = await call('POST', '/api/screening/lists/user?name=Our%20PEPs', {
        headers: { Cookie: cookie, 'Content-Type': 'text/csv' }, body: 'kind,name\npep,Quentin Abernathy-Vole\n',
      });
      expect(user.status).toBe(201);
      const official = await call('POST', '/api/screening/lists/official?source=un_sc&filename=consolidated.xml', {
        headers: { Cookie: cookie, 'Content-Type': 'application/octet-stream' }, body: UN_XML,
      });
      expect(official.status).toBe(201);

      await s.logger.flush();
      const found = modes(parent);
      // What was written, so the check below cannot pass on an empty folder.
      expect(Object.keys(found)).toEqual(expect.arrayContaining([
        'data/console.db', 'data/console.db-wal', 'data/console.db-shm', 'data/logs/service.log',
        'data/lists/index.json', 'data/lists/user/our-peps.csv', 'data/lists/official/un_sc/list.xml',
      ]));
      expect(found).toEqual(allPrivate(found, parent));
    } finally {
      s.close();
    }
  }, 120_000);

  it('an existing install with looser modes is tightened when the service opens it', async () => {
    for (const p of Object.keys(modes(dataDir))) chmodSync(join(dataDir, p), statSync(join(dataDir, p)).isDirectory() ? 0o755 : 0o644);
    expect(Object.values(modes(dataDir))).toContain('644');
    const { s } = await start(dataDir);
    try {
      expect(await s.screening.ready(60_000)).not.toBeNull();
      s.logger.info('reopened');
      await s.logger.flush();
      const found = modes(dataDir);
      expect(found).toEqual(allPrivate(found, dataDir));
      expect(Object.keys(found)).toContain('lists/user/our-peps.csv');
    } finally {
      s.close();
    }
  }, 120_000);
});
