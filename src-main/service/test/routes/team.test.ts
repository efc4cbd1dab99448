// Team management (account spec, team endpoints; issue 13), through the HTTP app: every endpoint's
// happy path, every error with the spec's text and the status docs/decisions.md gives it, plan
// limits with pending invitations, the 7-day expiry, single use, the three ways of accepting,
// cross-organisation isolation, removal ending sessions, and no token stored in clear.
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { Plan, Role } from '../../../../src-shared/catalog';
import type { AuditPage } from '../../../../src-shared/contracts/audit';
import type { Session } from '../../../../src-shared/contracts/accounts';
import type { CreatedInvitation, InvitationList, MemberList } from '../../../../src-shared/contracts/team';
import { closeAll, cookieFrom, OWNER, testService, type TestService } from '../harness';

afterAll(closeAll);

const DAY = 24 * 3600_000;
const PASSWORD = 'a member password';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function add(t: TestService, email: string, role: Role, orgId = t.orgId): Promise<number> {
  return (await t.s.accounts.addUser({ orgId, email, name: email.split('@')[0]!, password: PASSWORD, role })).id;
}

async function invite(t: TestService, cookie: string, email: string, role: 'admin' | 'member' = 'member') {
  return t.json<CreatedInvitation & { error?: string; current?: number; limit?: number; field?: string }>(
    'POST', '/api/team/invite', { cookie, body: { email, role } },
  );
}

function tokenOf(created: CreatedInvitation): string {
  const m = /#\/accept-invite\?token=([A-Za-z0-9_-]+)$/.exec(created.accept_url);
  if (!m) throw new Error(`no token in ${created.accept_url}`);
  return m[1]!;
}

async function setup(plan: Plan = 'pro') {
  const t = await testService({ plan });
  return { t, owner: await t.login() };
}

describe('GET /api/team/members', () => {
  it('lists every member with the spec\'s fields, the total and the plan\'s limit; members see it too', async () => {
    const { t, owner } = await setup('growth');
    const memberId = await add(t, 'mia@example.test', 'member');
    const member = await t.login('mia@example.test', PASSWORD);
    const { status, body } = await t.json<MemberList>('GET', '/api/team/members', { cookie: member });
    expect(status).toBe(200);
    expect(body.total).toBe(2);
    expect(body.limit).toBe(10);
    expect(body.members[0]).toEqual({
      id: t.ownerId, user_id: t.ownerId, email: OWNER.email, name: OWNER.name, role: 'owner',
      joined_at: expect.stringMatching(ISO), last_active: expect.stringMatching(ISO), billing: true,
    });
    expect(body.members[1]).toMatchObject({ id: memberId, user_id: memberId, email: 'mia@example.test', role: 'member' });
    expect((await t.json('GET', '/api/team/members', { cookie: owner })).status).toBe(200);
  });

  it('limit is null on Enterprise (unlimited); a member never signed in has last_active null', async () => {
    const { t, owner } = await setup('enterprise');
    await add(t, 'quiet@example.test', 'member');
    const { body } = await t.json<MemberList>('GET', '/api/team/members', { cookie: owner });
    expect(body.limit).toBeNull();
    expect(body.members.find((m) => m.email === 'quiet@example.test')?.last_active).toBeNull();
  });
});

describe('POST /api/team/invite', () => {
  it('201 with the invitation (integer id, ISO dates, 7 days) and the acceptance link, its token only in the fragment', async () => {
    const { t, owner } = await setup();
    const { status, body } = await invite(t, owner, 'New.Person@Example.test', 'admin');
    expect(status).toBe(201);
    expect(body.message).toEqual(expect.any(String));
    expect(body.invite).toEqual({
      id: expect.any(Number), email: 'new.person@example.test', role: 'admin',
      created_at: expect.stringMatching(ISO), expires_at: expect.stringMatching(ISO),
    });
    expect(Number.isInteger(body.invite.id)).toBe(true);
    expect(Date.parse(body.invite.expires_at) - Date.parse(body.invite.created_at)).toBe(7 * DAY);
    expect(body.accept_url.startsWith('http://127.0.0.1:4310/#/accept-invite?token=')).toBe(true);
    expect(Buffer.from(tokenOf(body), 'base64url')).toHaveLength(32);
  });

  it('stores only the token\'s SHA-256: the token is nowhere in the database', async () => {
    const { t, owner } = await setup();
    const { body } = await invite(t, owner, 'hash@example.test');
    const token = tokenOf(body);
    const row = (await t.sql('SELECT * FROM team_invitations WHERE id = ?', body.invite.id))[0] as Record<string, unknown>;
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(Object.values(row).some((v) => typeof v === 'string' && v.includes(token))).toBe(false);
    // The database file too, on SQLite (PostgreSQL's cluster files: privacy.test.ts).
    if (t.s.embedded) {
      t.s.db.pragma('wal_checkpoint(TRUNCATE)');
      const { readFileSync } = await import('node:fs');
      const { join } = await import('node:path');
      expect(readFileSync(join(t.dataDir, 'console.db')).includes(Buffer.from(token))).toBe(false);
    }
  });

  it('400 `Invalid email format` naming the field; 400 for a role other than admin or member', async () => {
    const { t, owner } = await setup();
    for (const email of ['not-an-email', 'a@b', 'two words@example.test', '']) {
      const r = await invite(t, owner, email);
      expect(r.status, email).toBe(400);
      expect(r.body, email).toEqual({ error: 'Invalid email format', field: 'email' });
    }
    const owner2 = await t.json<{ field: string }>('POST', '/api/team/invite', { cookie: owner, body: { email: 'x@example.test', role: 'owner' } });
    expect(owner2.status).toBe(400);
    expect(owner2.body.field).toBe('role');
  });

  it('409 `Email already on team` for a member (any case); 409 while an invitation to the e-mail is pending', async () => {
    const { t, owner } = await setup();
    await add(t, 'mia@example.test', 'member');
    const dup = await invite(t, owner, 'MIA@example.test');
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: 'Email already on team', field: 'email' });
    const self = await invite(t, owner, OWNER.email);
    expect(self.body.error).toBe('Email already on team');
    expect((await invite(t, owner, 'pending@example.test')).status).toBe(201);
    const again = await invite(t, owner, 'pending@example.test', 'admin');
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'An invitation for this email is already pending', field: 'email' });
  });

  it('owners and admins invite; members get 403 `Permission denied`; only the owner invites admins', async () => {
    const { t, owner } = await setup();
    await add(t, 'ada@example.test', 'admin');
    await add(t, 'mia@example.test', 'member');
    const admin = await t.login('ada@example.test', PASSWORD);
    const member = await t.login('mia@example.test', PASSWORD);
    expect((await invite(t, admin, 'by-admin@example.test')).status).toBe(201);
    const adminAdmin = await invite(t, admin, 'another-admin@example.test', 'admin');
    expect(adminAdmin.status).toBe(403);
    expect(adminAdmin.body).toEqual({ error: 'Permission denied' });
    const byMember = await invite(t, member, 'by-member@example.test');
    expect(byMember.status).toBe(403);
    expect(byMember.body).toEqual({ error: 'Permission denied' });
    expect((await invite(t, owner, 'another-admin@example.test', 'admin')).status).toBe(201);
  });
});

describe('team size by plan (pending invitations count)', () => {
  it('Starter (3): owner + member + one pending invitation fill it; the next is 403 with current and limit; cancelling frees the seat', async () => {
    const { t, owner } = await setup('starter');
    await add(t, 'mia@example.test', 'member');
    const pending = await invite(t, owner, 'third@example.test');
    expect(pending.status).toBe(201);
    const full = await invite(t, owner, 'fourth@example.test');
    expect(full.status).toBe(403);
    expect(full.body).toEqual({ error: 'Team limit reached. Upgrade your plan for more members.', current: 3, limit: 3 });
    expect((await t.json('DELETE', `/api/team/invites/${pending.body.invite.id}`, { cookie: owner })).status).toBe(200);
    expect((await invite(t, owner, 'fourth@example.test')).status).toBe(201);
  });

  it('Free (1): the owner alone; any invitation is 403 current 1, limit 1', async () => {
    const { t, owner } = await setup('free');
    const r = await invite(t, owner, 'x@example.test');
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: 'Team limit reached. Upgrade your plan for more members.', current: 1, limit: 1 });
  });

  it('Growth 10 and Pro 25 from the catalogue; Enterprise takes 40 invitations', async () => {
    for (const [plan, limit] of [['growth', 10], ['pro', 25]] as const) {
      const { t, owner } = await setup(plan);
      for (let i = 1; i < limit; i++) expect((await invite(t, owner, `p${i}@example.test`)).status).toBe(201);
      expect((await invite(t, owner, 'over@example.test')).body).toMatchObject({ current: limit, limit });
    }
    const { t, owner } = await setup('enterprise');
    for (let i = 0; i < 40; i++) expect((await invite(t, owner, `e${i}@example.test`)).status).toBe(201);
    expect((await t.json<InvitationList>('GET', '/api/team/invites', { cookie: owner })).body.total).toBe(40);
  });

  it('an expired invitation no longer counts, and the plan cannot drop below members plus pending invitations', async () => {
    const { t, owner } = await setup('starter');
    await invite(t, owner, 'a@example.test');
    await invite(t, owner, 'b@example.test');
    expect((await invite(t, owner, 'c@example.test')).status).toBe(403);
    const down = await t.json('PATCH', '/api/account/plan', { cookie: owner, body: { plan: 'free' } });
    expect(down.status).toBe(409);
    expect(down.body).toMatchObject({ current: 3, limit: 1 });
    t.clock.advance(7 * DAY + 1);
    // (Sessions last at most 7 days: sign in again.)
    expect((await invite(t, await t.login(), 'c@example.test')).status).toBe(201);
  });
});

describe('POST /api/team/invite/accept', () => {
  it('an invitee without an account creates it with name and password, joins with the role and is signed in', async () => {
    const { t, owner } = await setup();
    const created = await invite(t, owner, 'newbie@example.test', 'admin');
    const res = await t.call('POST', '/api/team/invite/accept', { body: { token: tokenOf(created.body), name: 'New Bie', password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Invitation accepted', organization: 'Test Org', role: 'admin' });
    const cookie = cookieFrom(res);
    const me = await t.json('GET', '/api/auth/me', { cookie });
    expect(me.body).toMatchObject({ user: { email: 'newbie@example.test', name: 'New Bie', role: 'admin' }, organization: { id: t.orgId } });
    // Immediate access with the role: an admin lists invitations.
    expect((await t.json('GET', '/api/team/invites', { cookie })).status).toBe(200);
    expect(await t.login('newbie@example.test', PASSWORD)).toMatch(/^cc_session=/);
    const list = await t.json<MemberList>('GET', '/api/team/members', { cookie: owner });
    expect(list.body.members.map((m) => [m.email, m.role])).toContainEqual(['newbie@example.test', 'admin']);
    expect((await t.json<InvitationList>('GET', '/api/team/invites', { cookie: owner })).body.total).toBe(0);
  });

  it('without an account, name and password are required (400 naming the field); the invitation stays usable', async () => {
    const { t, owner } = await setup();
    const token = tokenOf((await invite(t, owner, 'newbie@example.test')).body);
    const noName = await t.json('POST', '/api/team/invite/accept', { body: { token } });
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({ field: 'name' });
    const noPassword = await t.json('POST', '/api/team/invite/accept', { body: { token, name: 'N' } });
    expect(noPassword.body).toMatchObject({ field: 'password' });
    const short = await t.json('POST', '/api/team/invite/accept', { body: { token, name: 'N', password: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ field: 'password' });
    expect((await t.json('POST', '/api/team/invite/accept', { body: { token, name: 'N', password: PASSWORD } })).status).toBe(200);
  });

  it('single use: a used token is 400 `Invalid invitation token`, as are unknown and cancelled ones', async () => {
    const { t, owner } = await setup();
    const token = tokenOf((await invite(t, owner, 'once@example.test')).body);
    expect((await t.json('POST', '/api/team/invite/accept', { body: { token, name: 'O', password: PASSWORD } })).status).toBe(200);
    const reused = await t.json('POST', '/api/team/invite/accept', { body: { token, name: 'O', password: PASSWORD } });
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual({ error: 'Invalid invitation token' });
    const unknown = await t.json('POST', '/api/team/invite/accept', { body: { token: 'A'.repeat(43), name: 'O', password: PASSWORD } });
    expect(unknown.body).toEqual({ error: 'Invalid invitation token' });
    const cancelled = await invite(t, owner, 'cancelled@example.test');
    await t.json('DELETE', `/api/team/invites/${cancelled.body.invite.id}`, { cookie: owner });
    const c = await t.json('POST', '/api/team/invite/accept', { body: { token: tokenOf(cancelled.body), name: 'C', password: PASSWORD } });
    expect(c.status).toBe(400);
    expect(c.body).toEqual({ error: 'Invalid invitation token' });
  });

  it('an unknown token is refused while another invitation is pending, which stays pending', async () => {
    const { t, owner } = await setup();
    const pending = await invite(t, owner, 'waiting@example.test');
    const r = await t.json('POST', '/api/team/invite/accept', { body: { token: 'B'.repeat(43), name: 'W', password: PASSWORD } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'Invalid invitation token' });
    expect((await t.json<InvitationList>('GET', '/api/team/invites', { cookie: owner })).body.invites.map((i) => i.id)).toEqual([pending.body.invite.id]);
  });

  it('expires 7 days after creation: a second before it works, at 7 days it is `Invalid invitation token`', async () => {
    const { t, owner } = await setup();
    const early = tokenOf((await invite(t, owner, 'early@example.test')).body);
    const late = tokenOf((await invite(t, owner, 'late@example.test')).body);
    t.clock.advance(7 * DAY - 1000);
    expect((await t.json('POST', '/api/team/invite/accept', { body: { token: early, name: 'E', password: PASSWORD } })).status).toBe(200);
    t.clock.advance(1000);
    const r = await t.json('POST', '/api/team/invite/accept', { body: { token: late, name: 'L', password: PASSWORD } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'Invalid invitation token' });
    expect((await t.json<InvitationList>('GET', '/api/team/invites', { cookie: await t.login() })).body.total).toBe(0);
  });

  it('signed in as another account: 403 telling to log out and log in with the invited e-mail; nothing changes', async () => {
    const { t, owner } = await setup();
    const token = tokenOf((await invite(t, owner, 'invitee@example.test')).body);
    const r = await t.json('POST', '/api/team/invite/accept', { cookie: owner, body: { token } });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: 'This invitation is for another e-mail address. Log out and log in with the invited e-mail.' });
    expect((await t.json<InvitationList>('GET', '/api/team/invites', { cookie: owner })).body.total).toBe(1);
    expect((await t.json('GET', '/api/auth/me', { cookie: owner })).body).toMatchObject({ user: { role: 'owner' } });
  });

  it('an account exists for the invited e-mail but nobody is signed in: 401, log in first', async () => {
    const { t, owner } = await setup();
    const other = await t.addOrg({ name: 'Elsewhere' });
    await add(t, 'moving@example.test', 'member', other.orgId);
    const token = tokenOf((await invite(t, owner, 'moving@example.test')).body);
    const r = await t.json('POST', '/api/team/invite/accept', { body: { token, name: 'X', password: PASSWORD } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: 'Log in with the invited e-mail to accept this invitation' });
  });

  it('signed in with the invited e-mail: accepted directly with the token alone; the account moves to the team with the role', async () => {
    const { t, owner } = await setup();
    const other = await t.addOrg({ name: 'Elsewhere' });
    const userId = await add(t, 'moving@example.test', 'admin', other.orgId);
    const token = tokenOf((await invite(t, owner, 'moving@example.test')).body);
    const cookie = await t.login('moving@example.test', PASSWORD);
    const r = await t.json('POST', '/api/team/invite/accept', { cookie, body: { token } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'Invitation accepted', organization: 'Test Org', role: 'member' });
    // The same session now works in the new organisation, with the invited role.
    expect((await t.json('GET', '/api/auth/me', { cookie })).body).toMatchObject({ user: { id: userId, role: 'member' }, organization: { id: t.orgId } });
    const otherOwner = await other.login();
    const left = await t.json<MemberList>('GET', '/api/team/members', { cookie: otherOwner });
    expect(left.body.members.map((m) => m.email)).not.toContain('moving@example.test');
  });

  it('a team that became full while the invitation waited (the plan set lower by the admin CLI) refuses it, 403 with current and limit, by either way of accepting; it joins once there is room', async () => {
    const { t, owner } = await setup('starter');
    const fresh = tokenOf((await invite(t, owner, 'fresh@example.test')).body);
    const other = await t.addOrg({ name: 'Elsewhere' });
    await add(t, 'mover@example.test', 'member', other.orgId);
    const moving = tokenOf((await invite(t, owner, 'mover@example.test')).body);
    await t.setPlan('free');
    const created = await t.json('POST', '/api/team/invite/accept', { body: { token: fresh, name: 'Fresh', password: PASSWORD } });
    expect(created.status).toBe(403);
    expect(created.body).toMatchObject({ error: 'Team limit reached. Upgrade your plan for more members.', current: 1, limit: 1 });
    const mover = await t.login('mover@example.test', PASSWORD);
    const moved = await t.json('POST', '/api/team/invite/accept', { cookie: mover, body: { token: moving } });
    expect(moved.status).toBe(403);
    expect((await t.json<MemberList>('GET', '/api/team/members', { cookie: owner })).body.total).toBe(1);
    // Refused, not spent: both invitations wait, and one joins once the plan has room again.
    expect((await t.json<InvitationList>('GET', '/api/team/invites', { cookie: owner })).body.total).toBe(2);
    await t.setPlan('starter');
    expect((await t.json('POST', '/api/team/invite/accept', { cookie: mover, body: { token: moving } })).status).toBe(200);
    expect((await t.json<MemberList>('GET', '/api/team/members', { cookie: owner })).body.total).toBe(2);
  });

  it('the owner of another organisation cannot join: 409', async () => {
    const { t, owner } = await setup();
    const other = await t.addOrg({ name: 'Elsewhere' });
    const token = tokenOf((await invite(t, owner, other.email)).body);
    const r = await t.json('POST', '/api/team/invite/accept', { cookie: await other.login(), body: { token } });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ error: 'The owner of another organization cannot join a team; ownership must be transferred first' });
  });

  it('refuses a cross-origin accept', async () => {
    const { t, owner } = await setup();
    const token = tokenOf((await invite(t, owner, 'x@example.test')).body);
    const r = await t.json('POST', '/api/team/invite/accept', { body: { token, name: 'X', password: PASSWORD }, headers: { Origin: 'https://evil.example' } });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: 'Cross-origin request refused' });
  });
});

describe('PATCH /api/team/members/{id}/role', () => {
  it('the owner makes a member admin and back; the new role applies at once', async () => {
    const { t, owner } = await setup();
    const id = await add(t, 'mia@example.test', 'member');
    const mia = await t.login('mia@example.test', PASSWORD);
    expect((await t.json('GET', '/api/team/invites', { cookie: mia })).status).toBe(403);
    const r = await t.json('PATCH', `/api/team/members/${id}/role`, { cookie: owner, body: { role: 'admin' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'Member role updated', member: { id, email: 'mia@example.test', role: 'admin' } });
    expect((await t.json('GET', '/api/team/invites', { cookie: mia })).status).toBe(200);
    const back = await t.json('PATCH', `/api/team/members/${id}/role`, { cookie: owner, body: { role: 'member' } });
    expect(back.body).toMatchObject({ member: { role: 'member' } });
  });

  it('403 `Only owners can change member roles` for admins and members', async () => {
    const { t } = await setup();
    const target = await add(t, 'mia@example.test', 'member');
    await add(t, 'ada@example.test', 'admin');
    for (const email of ['ada@example.test', 'mia@example.test']) {
      const cookie = await t.login(email, PASSWORD);
      const r = await t.json('PATCH', `/api/team/members/${target}/role`, { cookie, body: { role: 'admin' } });
      expect(r.status, email).toBe(403);
      expect(r.body).toEqual({ error: 'Only owners can change member roles' });
    }
  });

  it('the owner\'s role cannot change (403) and nobody is made owner here (400 on role)', async () => {
    const { t, owner } = await setup();
    const id = await add(t, 'mia@example.test', 'member');
    const self = await t.json('PATCH', `/api/team/members/${t.ownerId}/role`, { cookie: owner, body: { role: 'member' } });
    expect(self.status).toBe(403);
    expect(self.body).toEqual({ error: "Cannot change the owner's role; ownership must be transferred first" });
    const toOwner = await t.json('PATCH', `/api/team/members/${id}/role`, { cookie: owner, body: { role: 'owner' } });
    expect(toOwner.status).toBe(400);
    expect(toOwner.body).toMatchObject({ field: 'role' });
  });

  it('404 `Team member not found` for unknown, malformed and other organisations\' ids', async () => {
    const { t, owner } = await setup();
    const other = await t.addOrg();
    const theirs = await add(t, 'theirs@example.test', 'member', other.orgId);
    for (const id of ['999999', 'abc', String(theirs), String(other.ownerId)]) {
      const r = await t.json('PATCH', `/api/team/members/${id}/role`, { cookie: owner, body: { role: 'admin' } });
      expect(r.status, id).toBe(404);
      expect(r.body).toEqual({ error: 'Team member not found' });
    }
    expect((await t.s.accounts.userById(theirs))?.role).toBe('member');
  });
});

describe('PATCH /api/team/members/{id}/billing', () => {
  it('the owner gives a member billing access and takes it away; the member list, the session and the audit log show it', async () => {
    const { t, owner } = await setup();
    const id = await add(t, 'mia@example.test', 'member');
    const mia = await t.login('mia@example.test', PASSWORD);
    expect((await t.json<Session>('GET', '/api/auth/me', { cookie: mia })).body.user.billing).toBe(false);
    const r = await t.json('PATCH', `/api/team/members/${id}/billing`, { cookie: owner, body: { billing: true } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'Billing access updated', member: { id, email: 'mia@example.test', role: 'member', billing: true } });
    expect((await t.json<Session>('GET', '/api/auth/me', { cookie: mia })).body.user.billing).toBe(true);
    const list = await t.json<MemberList>('GET', '/api/team/members', { cookie: owner });
    expect(list.body.members.map((m) => [m.email, m.billing])).toEqual([[OWNER.email, true], ['mia@example.test', true]]);
    const same = await t.json('PATCH', `/api/team/members/${id}/billing`, { cookie: owner, body: { billing: true } });
    expect(same.body).toMatchObject({ message: 'Billing access unchanged', member: { billing: true } });
    await t.json('PATCH', `/api/team/members/${id}/billing`, { cookie: owner, body: { billing: false } });
    expect((await t.json<Session>('GET', '/api/auth/me', { cookie: mia })).body.user.billing).toBe(false);
    const log = await t.json<AuditPage>('GET', '/api/audit?action=member.billing_changed', { cookie: owner });
    expect(log.body.entries.map((e) => [e.target?.user_id, e.from_value, e.to_value])).toEqual([[id, 'true', 'false'], [id, 'false', 'true']]);
  });

  it('an admin sees credits by role (their flag is fixed); a member keeps the flag through a role change and back', async () => {
    const { t, owner } = await setup();
    const adaId = await add(t, 'ada@example.test', 'admin');
    const ada = await t.login('ada@example.test', PASSWORD);
    expect((await t.json<Session>('GET', '/api/auth/me', { cookie: ada })).body.user).toMatchObject({ role: 'admin', billing: true });
    const fixed = await t.json('PATCH', `/api/team/members/${adaId}/billing`, { cookie: owner, body: { billing: false } });
    expect(fixed.status).toBe(403);
    expect(fixed.body).toEqual({ error: 'Admins always have billing access' });
    const miaId = await add(t, 'mia@example.test', 'member');
    await t.json('PATCH', `/api/team/members/${miaId}/billing`, { cookie: owner, body: { billing: true } });
    await t.json('PATCH', `/api/team/members/${miaId}/role`, { cookie: owner, body: { role: 'admin' } });
    await t.json('PATCH', `/api/team/members/${miaId}/role`, { cookie: owner, body: { role: 'member' } });
    const mia = await t.login('mia@example.test', PASSWORD);
    expect((await t.json<Session>('GET', '/api/auth/me', { cookie: mia })).body.user).toMatchObject({ role: 'member', billing: true });
    await t.json('PATCH', `/api/team/members/${adaId}/role`, { cookie: owner, body: { role: 'member' } });
    expect((await t.json<Session>('GET', '/api/auth/me', { cookie: ada })).body.user).toMatchObject({ role: 'member', billing: false });
  });

  it('errors: owner\'s own flag 403, bad body 400 naming billing, unknown and other organisations\' members 404', async () => {
    const { t, owner } = await setup();
    const other = await t.addOrg();
    const theirs = await add(t, 'theirs@example.test', 'member', other.orgId);
    const self = await t.json('PATCH', `/api/team/members/${t.ownerId}/billing`, { cookie: owner, body: { billing: false } });
    expect(self.status).toBe(403);
    expect(self.body).toEqual({ error: 'Owners always have billing access' });
    const id = await add(t, 'mia@example.test', 'member');
    const bad = await t.json('PATCH', `/api/team/members/${id}/billing`, { cookie: owner, body: { billing: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'billing' });
    for (const target of ['999999', 'abc', String(theirs), String(other.ownerId)]) {
      const r = await t.json('PATCH', `/api/team/members/${target}/billing`, { cookie: owner, body: { billing: true } });
      expect(r.status, target).toBe(404);
      expect(r.body).toEqual({ error: 'Team member not found' });
    }
    expect((await t.s.accounts.userById(theirs))?.billing).toBe(0);
  });

  it('admins and members are refused 403 `Permission denied`, also for themselves; signed out 401', async () => {
    const { t } = await setup();
    const target = await add(t, 'mia@example.test', 'member');
    const adminId = await add(t, 'ada@example.test', 'admin');
    for (const [email, id] of [['ada@example.test', target], ['ada@example.test', adminId], ['mia@example.test', target]] as const) {
      const cookie = await t.login(email, PASSWORD);
      const r = await t.json('PATCH', `/api/team/members/${id}/billing`, { cookie, body: { billing: true } });
      expect(r.status, email).toBe(403);
      expect(r.body).toEqual({ error: 'Permission denied' });
    }
    expect((await t.json('PATCH', `/api/team/members/${target}/billing`, { body: { billing: true } })).status).toBe(401);
    expect((await t.s.accounts.userById(target))?.billing).toBe(0);
  });
});

describe('DELETE /api/team/members/{id}', () => {
  it('the owner removes a member: their sessions end at once, they cannot sign in, the list drops them; their keys stay', async () => {
    const { t, owner } = await setup();
    const id = await add(t, 'mia@example.test', 'member');
    const mia = await t.login('mia@example.test', PASSWORD);
    const key = await t.json<{ key: { id: string } }>('POST', '/api/keys', { cookie: mia, body: { name: 'mia', env: 'test', scopes: ['human'] } });
    expect(key.status).toBe(201);
    const r = await t.json('DELETE', `/api/team/members/${id}`, { cookie: owner });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'Team member removed', active_api_keys: 1 });
    expect((await t.json('GET', '/api/auth/me', { cookie: mia })).status).toBe(401);
    expect((await t.sql('SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?', id))[0]).toEqual({ n: 0 });
    expect((await t.call('POST', '/api/auth/login', { body: { email: 'mia@example.test', password: PASSWORD } })).status).toBe(401);
    const list = await t.json<MemberList>('GET', '/api/team/members', { cookie: owner });
    expect(list.body.members.map((m) => m.email)).toEqual([OWNER.email]);
    expect((await t.json('DELETE', `/api/team/members/${id}`, { cookie: owner })).status).toBe(404);
    const keys = await t.json<{ keys: { id: string; revoked_at: string | null; created_by: string | null }[] }>('GET', '/api/keys', { cookie: owner });
    expect(keys.body.keys.find((k) => k.id === key.body.key.id)).toMatchObject({ revoked_at: null, created_by: 'mia@example.test' });
  });

  it('`Cannot remove owner` (403), for the owner and for an admin', async () => {
    const { t, owner } = await setup();
    await add(t, 'ada@example.test', 'admin');
    const admin = await t.login('ada@example.test', PASSWORD);
    for (const cookie of [owner, admin]) {
      const r = await t.json('DELETE', `/api/team/members/${t.ownerId}`, { cookie });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: 'Cannot remove owner' });
    }
  });

  it('admins remove members but not admins (403 `Permission denied`); members remove nobody', async () => {
    const { t } = await setup();
    await add(t, 'ada@example.test', 'admin');
    const otherAdmin = await add(t, 'abe@example.test', 'admin');
    const memberId = await add(t, 'mia@example.test', 'member');
    await add(t, 'max@example.test', 'member');
    const admin = await t.login('ada@example.test', PASSWORD);
    const member = await t.login('max@example.test', PASSWORD);
    const byMember = await t.json('DELETE', `/api/team/members/${memberId}`, { cookie: member });
    expect(byMember.status).toBe(403);
    expect(byMember.body).toEqual({ error: 'Permission denied' });
    const adminAdmin = await t.json('DELETE', `/api/team/members/${otherAdmin}`, { cookie: admin });
    expect(adminAdmin.status).toBe(403);
    expect(adminAdmin.body).toEqual({ error: 'Permission denied' });
    expect((await t.json('DELETE', `/api/team/members/${memberId}`, { cookie: admin })).status).toBe(200);
  });

  it('404 for another organisation\'s member, who keeps their access', async () => {
    const { t, owner } = await setup();
    const other = await t.addOrg();
    const theirs = await add(t, 'theirs@example.test', 'member', other.orgId);
    const theirCookie = await t.login('theirs@example.test', PASSWORD);
    const r = await t.json('DELETE', `/api/team/members/${theirs}`, { cookie: owner });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'Team member not found' });
    expect((await t.json('GET', '/api/auth/me', { cookie: theirCookie })).status).toBe(200);
  });

  it('a removed member invited again comes back with the account made at acceptance', async () => {
    const { t, owner } = await setup();
    const id = await add(t, 'mia@example.test', 'admin');
    await t.json('DELETE', `/api/team/members/${id}`, { cookie: owner });
    const token = tokenOf((await invite(t, owner, 'mia@example.test')).body);
    const res = await t.call('POST', '/api/team/invite/accept', { body: { token, name: 'Mia Again', password: 'a brand new password' } });
    expect(res.status).toBe(200);
    expect((await t.json('GET', '/api/auth/me', { cookie: cookieFrom(res) })).body).toMatchObject({ user: { id, name: 'Mia Again', role: 'member' } });
    expect((await t.call('POST', '/api/auth/login', { body: { email: 'mia@example.test', password: PASSWORD } })).status).toBe(401);
  });
});

describe('GET /api/team/invites and DELETE /api/team/invites/{id}', () => {
  it('lists pending invitations with the inviter\'s e-mail; accepted, cancelled and expired ones drop out', async () => {
    const { t, owner } = await setup();
    await add(t, 'ada@example.test', 'admin');
    const admin = await t.login('ada@example.test', PASSWORD);
    const a = await invite(t, owner, 'a@example.test', 'admin');
    await invite(t, admin, 'b@example.test');
    const { status, body } = await t.json<InvitationList>('GET', '/api/team/invites', { cookie: admin });
    expect(status).toBe(200);
    expect(body.total).toBe(2);
    expect(body.invites[0]).toEqual({ ...a.body.invite, invited_by: OWNER.email });
    expect(body.invites[1]).toMatchObject({ email: 'b@example.test', role: 'member', invited_by: 'ada@example.test' });
    const cancel = await t.json('DELETE', `/api/team/invites/${a.body.invite.id}`, { cookie: owner });
    expect(cancel.status).toBe(200);
    expect(cancel.body).toEqual({ message: 'Invitation cancelled' });
    expect((await t.json<InvitationList>('GET', '/api/team/invites', { cookie: owner })).body.invites.map((i) => i.email)).toEqual(['b@example.test']);
  });

  it('cancelling twice, or an unknown, malformed or other organisation\'s invitation: 404', async () => {
    const { t, owner } = await setup();
    const other = await t.addOrg();
    const otherCookie = await other.login();
    const theirs = await invite(t, otherCookie, 'theirs@example.test');
    expect(theirs.status).toBe(201);
    for (const id of [String(theirs.body.invite.id), '424242', 'x1']) {
      const r = await t.json('DELETE', `/api/team/invites/${id}`, { cookie: owner });
      expect(r.status, id).toBe(404);
      expect(r.body).toEqual({ error: 'Invitation not found' });
    }
    // B's invitation is untouched and A's list never shows it.
    expect((await t.json<InvitationList>('GET', '/api/team/invites', { cookie: otherCookie })).body.total).toBe(1);
    expect((await t.json<InvitationList>('GET', '/api/team/invites', { cookie: owner })).body.total).toBe(0);
    const mine = await invite(t, owner, 'mine@example.test');
    expect((await t.json('DELETE', `/api/team/invites/${mine.body.invite.id}`, { cookie: owner })).status).toBe(200);
    expect((await t.json('DELETE', `/api/team/invites/${mine.body.invite.id}`, { cookie: owner })).status).toBe(404);
  });

  it('another organisation\'s members never appear in the list of members', async () => {
    const { t, owner } = await setup();
    const other = await t.addOrg();
    await add(t, 'theirs@example.test', 'member', other.orgId);
    const mine = await t.json<MemberList>('GET', '/api/team/members', { cookie: owner });
    expect(mine.body.members.map((m) => m.email)).toEqual([OWNER.email]);
    const theirs = await t.json<MemberList>('GET', '/api/team/members', { cookie: await other.login() });
    expect(theirs.body.members.map((m) => m.email).sort()).toEqual([other.email, 'theirs@example.test'].sort());
  });
});

describe('the audit log', () => {
  it('records invitations, cancellations, acceptances, role changes and removals by user id, and the chain holds', async () => {
    const { t, owner } = await setup();
    const a = await invite(t, owner, 'a@example.test');
    const b = await invite(t, owner, 'b@example.test', 'admin');
    await t.json('DELETE', `/api/team/invites/${b.body.invite.id}`, { cookie: owner });
    const res = await t.call('POST', '/api/team/invite/accept', { body: { token: tokenOf(a.body), name: 'A', password: PASSWORD } });
    const newId = ((await t.json<{ user: { id: number } }>('GET', '/api/auth/me', { cookie: cookieFrom(res) })).body).user.id;
    await t.json('PATCH', `/api/team/members/${newId}/role`, { cookie: owner, body: { role: 'admin' } });
    await t.json('DELETE', `/api/team/members/${newId}`, { cookie: owner });
    const log = await t.json<AuditPage>('GET', '/api/audit?per_page=50', { cookie: owner });
    const rows = log.body.entries.map((e) => [e.action, e.actor.user_id, e.target?.user_id ?? null, e.invitation_id, e.from_value, e.to_value]);
    expect(rows.reverse()).toEqual([
      ['session.signed_in', t.ownerId, null, null, null, 'password'],
      ['member.invited', t.ownerId, null, a.body.invite.id, null, 'member'],
      ['member.invited', t.ownerId, null, b.body.invite.id, null, 'admin'],
      ['invite.cancelled', t.ownerId, null, b.body.invite.id, 'admin', null],
      ['invite.accepted', newId, newId, a.body.invite.id, null, 'member'],
      // The new account is signed in at once (spec rule 5), and that is a sign-in too.
      ['session.signed_in', newId, null, null, null, 'invitation'],
      ['member.role_changed', t.ownerId, newId, null, 'member', 'admin'],
      ['member.removed', t.ownerId, newId, null, 'admin', null],
    ]);
    // The removed member is still named by the log.
    expect(log.body.entries[0]!.target).toEqual({ user_id: newId, email: 'a@example.test' });
    expect((await t.json('GET', '/api/audit/verify', { cookie: owner })).body).toMatchObject({ ok: true, rows: 8 });
  });
});
