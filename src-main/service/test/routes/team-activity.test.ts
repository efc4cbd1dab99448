// GET /api/team/activity: the team's shared activity (account spec, Authentication rule 6) for
// every role, newest first: invitations, joins, role and billing changes, removals and report
// exports; never API keys (private per member) and never another organisation's activity.
import { afterAll, describe, expect, it } from 'vitest';
import type { CreatedInvitation, TeamActivity } from '../../../../src-shared/contracts/team';
import { closeAll, testService } from '../harness';

afterAll(closeAll);

const PASSWORD = 'a member password';

function tokenOf(created: CreatedInvitation): string {
  return /token=([A-Za-z0-9_-]+)$/.exec(created.accept_url)![1]!;
}

describe('GET /api/team/activity', () => {
  it('every role sees what the team did, newest first, with who did it and to whom; API keys are not in it', async () => {
    const t = await testService({ plan: 'growth' });
    const owner = await t.login();
    const made = await t.json<CreatedInvitation>('POST', '/api/team/invite', { cookie: owner, body: { email: 'mo@example.test', role: 'member' } });
    t.clock.advance(1000);
    const dropped = await t.json<CreatedInvitation>('POST', '/api/team/invite', { cookie: owner, body: { email: 'gone@example.test', role: 'admin' } });
    t.clock.advance(1000);
    expect((await t.json('DELETE', `/api/team/invites/${dropped.body.invite.id}`, { cookie: owner })).status).toBe(200);
    t.clock.advance(1000);
    const accepted = await t.json('POST', '/api/team/invite/accept', { body: { token: tokenOf(made.body), name: 'Mo', password: PASSWORD } });
    expect(accepted.status).toBe(200);
    t.clock.advance(1000);
    const mo = (await t.s.accounts.userByEmail('mo@example.test'))!;
    // Billing access is a member's (an admin sees credits by role), so it is given first.
    expect((await t.json('PATCH', `/api/team/members/${mo.id}/billing`, { cookie: owner, body: { billing: true } })).status).toBe(200);
    t.clock.advance(1000);
    expect((await t.json('PATCH', `/api/team/members/${mo.id}/role`, { cookie: owner, body: { role: 'admin' } })).status).toBe(200);
    t.clock.advance(1000);
    const member = await t.login('mo@example.test', PASSWORD);
    const exp = await t.json<{ id: number }>('POST', '/api/reports/exports', { cookie: member, body: { report_type: 'usage', format: 'csv', env: 'test', from: '2026-01-01', to: '2026-01-31' } });
    expect(exp.status).toBe(201);
    t.clock.advance(1000);
    // A key the member makes stays private: it is not team activity.
    expect((await t.json('POST', '/api/keys', { cookie: member, body: { name: 'Mo private', env: 'test', scopes: ['human'] } })).status).toBe(201);

    await t.s.accounts.addUser({ orgId: t.orgId, email: 'pat@example.test', name: 'Pat', password: PASSWORD, role: 'member' });
    const asMember = await t.login('pat@example.test', PASSWORD);
    const r = await t.json<TeamActivity>('GET', '/api/team/activity', { cookie: asMember });
    expect(r.status).toBe(200);
    const owner_ = { user_id: t.ownerId, name: expect.any(String), email: expect.any(String) };
    const moRef = { user_id: mo.id, name: 'Mo', email: 'mo@example.test' };
    expect(r.body.entries.map((e) => e.kind)).toEqual([
      'export_created', 'role_changed', 'billing_changed', 'invitation_accepted', 'invitation_cancelled', 'invitation_sent', 'invitation_sent',
    ]);
    const [exported, role, billing, joined, cancelled, sentAdmin, sentMember] = r.body.entries;
    expect(exported).toEqual({ at: expect.any(String), kind: 'export_created', actor: moRef, subject_email: null, export: { id: exp.body.id, report_type: 'usage', format: 'csv' }, from: null, to: null, object_id: null, env: null });
    expect(billing).toMatchObject({ actor: owner_, subject_email: 'mo@example.test', from: 'false', to: 'true' });
    expect(role).toMatchObject({ actor: owner_, subject_email: 'mo@example.test', from: 'member', to: 'admin' });
    expect(joined).toMatchObject({ actor: moRef, subject_email: 'mo@example.test', to: 'member' });
    expect(cancelled).toMatchObject({ actor: owner_, subject_email: 'gone@example.test', from: 'admin' });
    expect(sentAdmin).toMatchObject({ actor: owner_, subject_email: 'gone@example.test', to: 'admin' });
    expect(sentMember).toMatchObject({ actor: owner_, subject_email: 'mo@example.test', to: 'member' });
    expect(JSON.stringify(r.body)).not.toContain('Mo private');
    expect(r.body).toMatchObject({ total: 7, page: 1, pages: 1 });

    // Removal shows too, for the admin and the owner alike.
    t.clock.advance(1000);
    expect((await t.json('DELETE', `/api/team/members/${mo.id}`, { cookie: owner })).status).toBe(200);
    for (const cookie of [owner, asMember]) {
      const again = await t.json<TeamActivity>('GET', '/api/team/activity?per_page=1', { cookie });
      expect(again.body.entries).toEqual([expect.objectContaining({ kind: 'member_removed', subject_email: 'mo@example.test', from: 'admin' })]);
      expect(again.body).toMatchObject({ total: 8, page: 1, pages: 8 });
    }
  });

  it('pages; per_page above 100 or a page of 0 is a 400; signed out is a 401', async () => {
    const t = await testService({ plan: 'growth' });
    const owner = await t.login();
    for (let i = 0; i < 5; i++) {
      await t.json('POST', '/api/team/invite', { cookie: owner, body: { email: `p${i}@example.test`, role: 'member' } });
      t.clock.advance(1000);
    }
    const p2 = await t.json<TeamActivity>('GET', '/api/team/activity?per_page=2&page=2', { cookie: owner });
    expect(p2.body.entries.map((e) => e.subject_email)).toEqual(['p2@example.test', 'p1@example.test']);
    expect(p2.body).toMatchObject({ total: 5, page: 2, pages: 3 });
    expect((await t.json('GET', '/api/team/activity?per_page=101', { cookie: owner })).status).toBe(400);
    expect((await t.json('GET', '/api/team/activity?page=0', { cookie: owner })).status).toBe(400);
    expect((await t.json('GET', '/api/team/activity')).status).toBe(401);
  });

  it('another organisation\'s activity never appears', async () => {
    const t = await testService({ plan: 'growth' });
    const owner = await t.login();
    await t.json('POST', '/api/team/invite', { cookie: owner, body: { email: 'ours@example.test', role: 'member' } });
    const other = await t.addOrg({ plan: 'growth' });
    const theirs = await other.login();
    await t.json('POST', '/api/team/invite', { cookie: theirs, body: { email: 'theirs@example.test', role: 'member' } });
    const ours = await t.json<TeamActivity>('GET', '/api/team/activity', { cookie: owner });
    expect(ours.body.entries.map((e) => e.subject_email)).toEqual(['ours@example.test']);
    const them = await t.json<TeamActivity>('GET', '/api/team/activity', { cookie: theirs });
    expect(them.body.entries.map((e) => e.subject_email)).toEqual(['theirs@example.test']);
  });
});
