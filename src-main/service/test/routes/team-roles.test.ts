// The role × action matrix of the team routes: docs/roles.md's table is read and every cell is
// checked against the service, each in a fresh organisation (owner, a second admin and member as
// targets, pending member and admin invitations), so the document and the code cannot drift.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../../src-shared/catalog';
import { closeAll, testService, type TestService } from '../harness';

afterAll(closeAll);

const ROLE_COLUMNS: Role[] = ['owner', 'admin', 'member'];
const PASSWORD = 'a member password';

interface World {
  t: TestService;
  cookie: string;
  targetAdmin: number;
  targetMember: number;
  memberInvite: number;
  adminInvite: number;
}

type Act = (w: World) => Promise<number>;

const ACTIONS: Record<string, Act> = {
  'List members': async (w) => (await w.t.call('GET', '/api/team/members', { cookie: w.cookie })).status,
  'See team activity': async (w) => (await w.t.call('GET', '/api/team/activity', { cookie: w.cookie })).status,
  'Invite a member': async (w) => (await w.t.call('POST', '/api/team/invite', { cookie: w.cookie, body: { email: 'new@example.test', role: 'member' } })).status,
  'Invite an admin': async (w) => (await w.t.call('POST', '/api/team/invite', { cookie: w.cookie, body: { email: 'new@example.test', role: 'admin' } })).status,
  'List pending invitations': async (w) => (await w.t.call('GET', '/api/team/invites', { cookie: w.cookie })).status,
  'Cancel a member invitation': async (w) => (await w.t.call('DELETE', `/api/team/invites/${w.memberInvite}`, { cookie: w.cookie })).status,
  'Cancel an admin invitation': async (w) => (await w.t.call('DELETE', `/api/team/invites/${w.adminInvite}`, { cookie: w.cookie })).status,
  "Change a member's role": async (w) => (await w.t.call('PATCH', `/api/team/members/${w.targetMember}/role`, { cookie: w.cookie, body: { role: 'admin' } })).status,
  'Remove a member': async (w) => (await w.t.call('DELETE', `/api/team/members/${w.targetMember}`, { cookie: w.cookie })).status,
  'Remove an admin': async (w) => (await w.t.call('DELETE', `/api/team/members/${w.targetAdmin}`, { cookie: w.cookie })).status,
  'Remove the owner': async (w) => (await w.t.call('DELETE', `/api/team/members/${w.t.ownerId}`, { cookie: w.cookie })).status,
  'Give a member billing access': async (w) => (await w.t.call('PATCH', `/api/team/members/${w.targetMember}/billing`, { cookie: w.cookie, body: { billing: true } })).status,
  "Change an admin's billing access": async (w) => (await w.t.call('PATCH', `/api/team/members/${w.targetAdmin}/billing`, { cookie: w.cookie, body: { billing: false } })).status,
  "End a member's sessions": async (w) => (await w.t.call('POST', `/api/team/members/${w.targetMember}/end-sessions`, { cookie: w.cookie })).status,
  "End an admin's sessions": async (w) => (await w.t.call('POST', `/api/team/members/${w.targetAdmin}/end-sessions`, { cookie: w.cookie })).status,
  "Change the owner's billing access": async (w) => (await w.t.call('PATCH', `/api/team/members/${w.t.ownerId}/billing`, { cookie: w.cookie, body: { billing: false } })).status,
};

/** The table in docs/roles.md: action -> status per role. */
function matrix(): [string, Record<Role, number>][] {
  const doc = readFileSync(join(import.meta.dirname, '../../../../docs/roles.md'), 'utf8');
  // The team table only: the whole matrix after it is permissions.test.ts's.
  const rows = doc.split('\n## Every other console route')[0]!.split('\n').filter((l) => /^\| [A-Z]/.test(l) && !l.startsWith('| Action'));
  return rows.map((l) => {
    const cells = l.split('|').slice(1, -1).map((c) => c.trim());
    const [action, , ...statuses] = cells;
    return [action!, Object.fromEntries(ROLE_COLUMNS.map((r, i) => [r, Number(statuses[i])])) as Record<Role, number>];
  });
}

async function world(actor: Role): Promise<World> {
  const t = await testService({ plan: 'enterprise' });
  const addUser = async (email: string, role: Role) =>
    (await t.s.accounts.addUser({ orgId: t.orgId, email, name: email, password: PASSWORD, role })).id;
  const targetAdmin = await addUser('target-admin@example.test', 'admin');
  const targetMember = await addUser('target-member@example.test', 'member');
  const owner = (await t.s.accounts.userById(t.ownerId))!;
  const org = (await t.s.accounts.orgById(t.orgId))!;
  const memberInvite = (await t.s.team.invite(owner, org, { email: 'invited-member@example.test', role: 'member' })).invitation.id;
  const adminInvite = (await t.s.team.invite(owner, org, { email: 'invited-admin@example.test', role: 'admin' })).invitation.id;
  let cookie: string;
  if (actor === 'owner') cookie = await t.login();
  else {
    await addUser(`actor-${actor}@example.test`, actor);
    cookie = await t.login(`actor-${actor}@example.test`, PASSWORD);
  }
  return { t, cookie, targetAdmin, targetMember, memberInvite, adminInvite };
}

describe('docs/roles.md', () => {
  const rows = matrix();

  it('has a row for every team action checked here, and nothing else', () => {
    expect(rows.map(([a]) => a).sort()).toEqual(Object.keys(ACTIONS).sort());
    for (const [, cells] of rows) for (const r of ROLE_COLUMNS) expect(Number.isInteger(cells[r])).toBe(true);
  });

  describe.each(rows)('%s', (action, cells) => {
    it.each(ROLE_COLUMNS)('as %s', async (role) => {
      const w = await world(role);
      expect(await ACTIONS[action]!(w)).toBe(cells[role]);
    });
  });
});
