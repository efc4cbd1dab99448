// The whole role-permission matrix (docs/roles.md, "Every other console route" and "Inside a
// route"): the table must list every signed-in route the service registers (the team routes have
// their own table, team-roles.test.ts), and every cell is called as that role. `no` must be a 403
// `Permission denied`; `yes` and `own` must never be refused for the role (a 400 for the empty
// body, a 404 for the made-up id or a plan refusal is the route working). The cases inside a
// route (own keys, others' exports, the credits snapshot) are checked on real items.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../../src-shared/catalog';
import { closeAll, testService, type TestService } from '../harness';
import { rolesFor, seesCredits } from '../../../../src-shared/policy';

afterAll(closeAll);

const ROLES: Role[] = ['owner', 'admin', 'member'];
type Cell = 'yes' | 'no' | 'own';
const PASSWORD = 'a member password';
const DOC = readFileSync(join(import.meta.dirname, '../../../../docs/roles.md'), 'utf8');

function section(title: string): string[] {
  const start = DOC.indexOf(`\n${title}\n`);
  if (start < 0) throw new Error(`docs/roles.md has no "${title}"`);
  const rest = DOC.slice(start + title.length + 2);
  const end = rest.search(/\n#{2,3} /);
  return (end < 0 ? rest : rest.slice(0, end)).split('\n').filter((l) => l.startsWith('| `'));
}

const cells = (l: string) => l.split('|').slice(1, -1).map((c) => c.trim());

/** "Every other console route": `METHOD /path` -> cell per role. */
function routeMatrix(): { route: string; method: string; path: string; cells: Record<Role, Cell> }[] {
  return section('## Every other console route').map((l) => {
    const [route, ...rest] = cells(l);
    const name = route!.replace(/`/g, '');
    const [method, path] = name.split(' ') as [string, string];
    return { route: name, method, path, cells: Object.fromEntries(ROLES.map((r, i) => [r, rest[i] as Cell])) as Record<Role, Cell> };
  });
}

/** Made-up ids: the role check comes before the lookup, so an allowed role gets a 404, never a 403. */
function concrete(path: string): string {
  return path.replace(/:slug/g, 'no-such-list').replace(/:[a-z_]+/g, '999999');
}

interface Actor { t: TestService; cookie: string }

async function actor(role: Role, opts: { billing?: boolean; t?: TestService } = {}): Promise<Actor> {
  const t = opts.t ?? await testService({ plan: 'enterprise' });
  if (role === 'owner') return { t, cookie: await t.login() };
  const email = `actor-${role}${opts.billing ? '-billing' : ''}@example.test`;
  await t.s.accounts.addUser({ orgId: t.orgId, email, name: email, password: PASSWORD, role, ...(opts.billing ? { billing: true } : {}) });
  return { t, cookie: await t.login(email, PASSWORD) };
}

describe('docs/roles.md: every other console route', () => {
  const rows = routeMatrix();

  it('lists every signed-in route outside the team table once, each cell yes, no or own', async () => {
    const t = await testService();
    const registered = t.routes
      .filter((r) => r.auth.kind === 'session' && !r.path.startsWith('/api/team/'))
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    expect(rows.map((r) => r.route).sort()).toEqual(registered);
    for (const r of rows) for (const role of ROLES) expect(['yes', 'no', 'own']).toContain(r.cells[role]);
    // The registry's acts, through the policy, agree with the table (a route without an act is open to all).
    for (const r of t.routes.filter((x) => x.auth.kind === 'session' && !x.path.startsWith('/api/team/'))) {
      const row = rows.find((x) => x.route === `${r.method} ${r.path}`)!;
      const byRole: readonly string[] = 'act' in r.auth && r.auth.act ? rolesFor(r.auth.act) : ROLES;
      // A route for those who see credits: a member (the table's, without billing access) does not.
      const allowed = 'credits' in r.auth && r.auth.credits ? byRole.filter((x) => seesCredits({ role: x as Role, billing: false })) : byRole;
      for (const role of ROLES) expect(row.cells[role] === 'no', `${row.route} as ${role}`).toBe(!allowed.includes(role));
    }
  });

  describe.each(ROLES)('as %s', (role) => {
    let a: Actor;
    beforeAll(async () => {
      a = await actor(role);
      await a.t.grant(100_000);
    });

    it.each(rows.map((r) => [r.route, r] as const))('%s', async (_name, row) => {
      const body = row.method === 'GET' ? undefined : {};
      const r = await a.t.json(row.method, concrete(row.path), { cookie: a.cookie, ...(body ? { body } : {}) });
      if (row.cells[role] === 'no') {
        expect(r.status).toBe(403);
        expect(r.body).toMatchObject({ error: 'Permission denied' });
      } else {
        expect(r.status, JSON.stringify(r.body)).not.toBe(401);
        expect(r.status === 403 ? r.body : null, 'refused for the role').toBeNull();
      }
    });
  });
});

describe('docs/roles.md: inside a route', () => {
  type Who = Role | 'billing';
  const WHO: Who[] = ['owner', 'admin', 'member', 'billing'];
  const cases = section('### Inside a route').map((l) => {
    const [name, ...rest] = cells(l);
    return { name: name!, cells: Object.fromEntries(WHO.map((w, i) => [w, rest[i] === 'yes'])) as Record<Who, boolean> };
  });

  async function world(who: Who) {
    const t = await testService({ plan: 'enterprise' });
    const owner = await t.login();
    const a = who === 'owner' ? { t, cookie: owner } : await actor(who === 'billing' ? 'member' : who, { t, ...(who === 'billing' ? { billing: true } : {}) });
    return { t, owner, cookie: a.cookie };
  }

  const range = () => {
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
    return { env: 'test', from, to };
  };

  /** A batch another analyst opened (made in core: no lists need to load for it). */
  const othersBatch = async (t: TestService) => {
    const other = await t.s.accounts.addUser({ orgId: t.orgId, email: 'other-analyst@example.test', name: 'Other', password: PASSWORD, role: 'member' });
    return (await t.s.batches.create({ orgId: t.orgId, userId: other.id }, { env: 'test', total_rows: 1, reason: 'periodic_rescreen' }, null)).id;
  };

  const CHECKS: Record<string, (who: Who) => Promise<boolean>> = {
    '`GET /api/console/batches` lists batches opened by others': async (who) => {
      const { t, cookie } = await world(who);
      const id = await othersBatch(t);
      const r = await t.json<{ batches: { id: string }[] }>('GET', '/api/console/batches', { cookie });
      if (r.status === 403) return false;
      expect(r.status).toBe(200);
      return r.body.batches.some((b) => b.id === id);
    },
    '`POST /api/console/batches/:id/end` on a batch opened by someone else': async (who) => {
      const { t, cookie } = await world(who);
      const r = await t.json('POST', `/api/console/batches/${await othersBatch(t)}/end`, { cookie });
      if (r.status === 403) expect(r.body).toMatchObject({ error: 'Permission denied' });
      else expect(r.status).toBe(200);
      return r.status === 200;
    },
    '`GET /api/console/batches/:id` on a batch opened by someone else': async (who) => {
      const { t, cookie } = await world(who);
      const r = await t.json('GET', `/api/console/batches/${await othersBatch(t)}`, { cookie });
      if (r.status === 404) expect(r.body).toEqual({ error: 'Batch not found' });
      else expect(r.status).toBe(200);
      return r.status === 200;
    },
    '`GET /api/credits/ledger` answers': async (who) => {
      const { t, cookie } = await world(who);
      const r = await t.json('GET', '/api/credits/ledger', { cookie });
      expect([200, 403]).toContain(r.status);
      return r.status === 200;
    },
    '`GET /api/keys` lists keys made by others': async (who) => {
      const { t, cookie } = await world(who);
      const k = await t.key();
      const r = await t.json<{ keys: { id: string }[] }>('GET', '/api/keys', { cookie });
      expect(r.status).toBe(200);
      return r.body.keys.some((x) => x.id === k.id);
    },
    '`POST /api/keys/:id/revoke` on a key made by someone else': async (who) => {
      const { t, cookie } = await world(who);
      const k = await t.key();
      const r = await t.json('POST', `/api/keys/${k.id}/revoke`, { cookie });
      if (r.status === 403) expect(r.body).toMatchObject({ error: 'Permission denied' });
      else expect(r.status).toBe(200);
      return r.status === 200;
    },
    '`GET /api/reports/v21/full` carries the credits snapshot': async (who) => {
      const { t, cookie } = await world(who);
      const q = new URLSearchParams(range()).toString();
      const r = await t.json<{ data: { credits: { available: boolean; snapshot: unknown } } }>('GET', `/api/reports/v21/full?${q}`, { cookie });
      expect(r.status).toBe(200);
      expect(r.body.data.credits.snapshot === null).toBe(!r.body.data.credits.available);
      return r.body.data.credits.available;
    },
    '`DELETE /api/reports/exports/:id` on an export made by someone else': async (who) => {
      const { t, owner, cookie } = await world(who);
      const made = await t.json<{ id: number }>('POST', '/api/reports/exports', { cookie: owner, body: { report_type: 'overview', ...range() } });
      expect(made.status).toBe(201);
      const r = await t.json('DELETE', `/api/reports/exports/${made.body.id}`, { cookie });
      if (who === 'owner') return r.status === 200;
      if (r.status === 403) expect(r.body).toMatchObject({ error: 'Permission denied' });
      return r.status === 200;
    },
    '`GET /api/reports/exports` lists exports made by others': async (who) => {
      const { t, owner, cookie } = await world(who);
      const made = await t.json<{ id: number }>('POST', '/api/reports/exports', { cookie: owner, body: { report_type: 'volume', ...range() } });
      const r = await t.json<{ exports: { id: number }[] }>('GET', '/api/reports/exports', { cookie });
      expect(r.status).toBe(200);
      return r.body.exports.some((e) => e.id === made.body.id);
    },
  };

  it('has a check for every case in the table, and nothing else', () => {
    expect(cases.map((c) => c.name).sort()).toEqual(Object.keys(CHECKS).sort());
  });

  describe.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    it.each(WHO)('as %s', async (who) => {
      expect(await CHECKS[c.name]!(who)).toBe(c.cells[who]);
    });
  });
});
