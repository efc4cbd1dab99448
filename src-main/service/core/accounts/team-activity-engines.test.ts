// Team activity on both engines: the audit log's team actions and the export jobs as one list,
// newest first, with the people and
// invitations they name; the service's own acts and acts outside the list are not in it.
import { describe, expect, it } from 'vitest';
import { accountsAndAudit, ENGINES, testEngines } from '../../test/engines';
import { actorOf, SYSTEM } from '../audit/audit';
import { ManualClock } from '../clock';
import { createTeam } from './team';
import { createTeamActivity } from './team-activity';

const clock = new ManualClock(Date.parse('2026-12-04T09:00:00.000Z'));
const engines = testEngines();

describe.each(ENGINES)('team activity on $dialect', ({ dialect, skip }) => {
  it.skipIf(skip)(`lists team acts and exports newest first, naming their people${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const t = await engines.open(dialect);
    const { accounts, audit } = accountsAndAudit(t.engine, clock);
    const team = createTeam(t.engine, clock, accounts, audit);
    const { org, user: owner } = await accounts.setup({ organization: 'Acme', name: 'Olga', email: 'olga@acme.test', password: 'owner password 1', plan: 'pro' });
    clock.set(Date.parse('2026-12-04T09:01:00.000Z'));
    await team.invite(owner, org, { email: 'new@acme.test', role: 'member' });
    await audit.record({ orgId: org.id, actor: actorOf(owner), action: 'key.created', keyId: 'key_1' });
    await audit.record({ orgId: org.id, actor: SYSTEM, action: 'onsite.started', to: '0.0.0.0:8443' });
    await t.engine.q.insertInto('report_exports').values({
      org_id: org.id, created_by: owner.id, report_type: 'overview', format: 'pdf', env: 'test', from_date: '2026-11-01', to_date: '2026-11-30',
      plan: 'pro', with_credits: 1, status: 'queued', created_at: '2026-12-04T09:02:00.000Z',
    }).execute();
    clock.set(Date.parse('2026-12-04T09:03:00.000Z'));
    await audit.record({ orgId: org.id, actor: actorOf(owner), action: 'webhook.added', objectId: 'we_1', env: 'live' });

    const page = await createTeamActivity(t.engine).page(org.id, 1, 10);
    expect(page.total).toBe(3);
    expect(page.entries.map((e) => [e.kind, e.actor?.email ?? null, e.subject_email, e.export?.report_type ?? null, e.object_id])).toEqual([
      ['webhook_added', 'olga@acme.test', null, null, 'we_1'],
      ['export_created', 'olga@acme.test', null, 'overview', null],
      ['invitation_sent', 'olga@acme.test', 'new@acme.test', null, null],
    ]);
    expect((await createTeamActivity(t.engine).page(org.id, 2, 2)).entries.map((e) => e.kind)).toEqual(['invitation_sent']);
    expect((await createTeamActivity(t.engine).page(org.id + 1, 1, 10)).total).toBe(0);
  });
});
