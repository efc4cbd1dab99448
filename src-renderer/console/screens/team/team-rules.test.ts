// The Team screen's rules without a DOM: what each role is shown, checked cell by cell against
// docs/roles.md (the table the service's team-roles.test.ts checks against the service), and the
// sentences built from counts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../../../src-shared/catalog';
import { ERRORS } from '../../../../src-shared/errors';
import { activityText, can, invitableRoles, removalNotice, seatSummary, teamFullText } from './team-rules';

const ROLE_COLUMNS: Role[] = ['owner', 'admin', 'member'];

/** Whether the screen offers each action of docs/roles.md to `viewer`. */
const SHOWN: Record<string, (viewer: Role) => boolean> = {
  'List members': (v) => can.listMembers(v),
  'See team activity': (v) => can.seeActivity(v),
  'Invite a member': (v) => can.invite(v, 'member'),
  'Invite an admin': (v) => can.invite(v, 'admin'),
  'List pending invitations': (v) => can.listInvites(v),
  'Cancel a member invitation': (v) => can.cancelInvite(v, { role: 'member' }),
  'Cancel an admin invitation': (v) => can.cancelInvite(v, { role: 'admin' }),
  "Change a member's role": (v) => can.changeRole(v, { role: 'member' }),
  'Remove a member': (v) => can.remove(v, { role: 'member' }),
  'Remove an admin': (v) => can.remove(v, { role: 'admin' }),
  'Remove the owner': (v) => can.remove(v, { role: 'owner' }),
  'Give a member billing access': (v) => can.setBilling(v, { role: 'member' }),
  "Change an admin's billing access": (v) => can.setBilling(v, { role: 'admin' }),
  "Change the owner's billing access": (v) => can.setBilling(v, { role: 'owner' }),
  "End a member's sessions": (v) => can.endSessions(v, { role: 'member' }),
  "End an admin's sessions": (v) => can.endSessions(v, { role: 'admin' }),
};

function matrix(): [string, Record<Role, number>][] {
  const doc = readFileSync(join(import.meta.dirname, '../../../../docs/roles.md'), 'utf8');
  // The team table only: the whole matrix after it is permissions.test.ts's.
  const rows = doc.split('\n## Every other console route')[0]!.split('\n').filter((l) => /^\| [A-Z]/.test(l) && !l.startsWith('| Action'));
  return rows.map((l) => {
    const [action, , ...statuses] = l.split('|').slice(1, -1).map((c) => c.trim());
    return [action!, Object.fromEntries(ROLE_COLUMNS.map((r, i) => [r, Number(statuses[i])])) as Record<Role, number>];
  });
}

describe('what each role is shown (docs/roles.md)', () => {
  const rows = matrix();

  it('covers every row of the table', () => {
    expect(rows.map(([a]) => a).sort()).toEqual(Object.keys(SHOWN).sort());
  });

  it.each(rows.flatMap(([action, cells]) => ROLE_COLUMNS.map((role) => [action, role, cells[role]] as const)))(
    '%s as %s: shown exactly when the service answers 2xx (%i)',
    (action, role, status) => {
      expect(SHOWN[action]!(role)).toBe(status >= 200 && status < 300);
    },
  );

  it('nobody changes the owner\'s role; owners choose member or admin in an invitation, admins member only', () => {
    for (const v of ROLE_COLUMNS) expect(can.changeRole(v, { role: 'owner' })).toBe(false);
    expect(can.changeRole('owner', { role: 'admin' })).toBe(true);
    expect(invitableRoles('owner')).toEqual(['member', 'admin']);
    expect(invitableRoles('admin')).toEqual(['member']);
    expect(invitableRoles('member')).toEqual([]);
  });
});

describe('seatSummary', () => {
  it('counts pending invitations toward the plan\'s seats', () => {
    expect(seatSummary(3, 1, 10)).toEqual({ text: '4 of 10 seats used: 3 members, 1 pending invitation', full: false });
    expect(seatSummary(3, 0, 10)).toEqual({ text: '3 of 10 seats used', full: false });
    expect(seatSummary(2, 2, 10).text).toBe('4 of 10 seats used: 2 members, 2 pending invitations');
  });

  it('is full when members and invitations fill the plan', () => {
    expect(seatSummary(2, 1, 3)).toEqual({ text: '3 of 3 seats used: 2 members, 1 pending invitation', full: true });
    expect(seatSummary(1, 0, 1)).toEqual({ text: '1 of 1 seat used', full: true });
  });

  it('says there is no limit on Enterprise (limit null)', () => {
    expect(seatSummary(12, 2, null)).toEqual({ text: '12 members · 2 pending invitations · no seat limit on this plan', full: false });
    expect(seatSummary(1, 0, null).text).toBe('1 member · no seat limit on this plan');
  });

  it('counts members only for a member, who does not see invitations', () => {
    expect(seatSummary(3, null, 10)).toEqual({ text: '3 members · the plan allows 10 seats', full: false });
    expect(seatSummary(3, null, null).text).toBe('3 members · no seat limit on this plan');
  });
});

describe('texts', () => {
  it('adds the team limit\'s counts to the spec\'s text', () => {
    const message = ERRORS.team_full.error;
    expect(teamFullText(message, { current: 3, limit: 3 })).toBe(
      'Team limit reached. Upgrade your plan for more members. 3 of 3 seats are taken by members and pending invitations.',
    );
    expect(teamFullText(message, { current: 1, limit: 1 })).toContain('1 of 1 seat is taken');
    expect(teamFullText(message, undefined)).toBe(message);
  });

  it('says which API keys of a removed member stay active', () => {
    expect(removalNotice('Mo Member', 0)).toBe('Mo Member was removed from the team and signed out.');
    expect(removalNotice('Mo Member', 1)).toBe(
      'Mo Member was removed from the team and signed out. The API key they created stays active: revoke it in API keys if it should stop working.',
    );
    expect(removalNotice('Mo Member', 2)).toBe(
      'Mo Member was removed from the team and signed out. The 2 API keys they created stay active: revoke them in API keys if they should stop working.',
    );
  });
});

describe('activityText', () => {
  const owner = { user_id: 1, name: 'Olivia Owner', email: 'owner@example.test' };
  const base = { at: '2026-11-23T10:00:00.000Z', actor: owner, subject_email: 'mo@example.test', export: null, from: null, to: null, object_id: null, env: null };
  it('says each kind of team activity as a sentence', () => {
    expect(activityText({ ...base, kind: 'invitation_sent', to: 'admin' })).toBe('Olivia Owner invited mo@example.test as an admin');
    expect(activityText({ ...base, kind: 'invitation_cancelled', from: 'member' })).toBe('Olivia Owner cancelled the invitation of mo@example.test');
    expect(activityText({ ...base, kind: 'invitation_accepted', to: 'member' })).toBe('mo@example.test accepted the invitation and joined as a member');
    expect(activityText({ ...base, kind: 'role_changed', from: 'member', to: 'admin' })).toBe('Olivia Owner made mo@example.test an admin');
    expect(activityText({ ...base, kind: 'billing_changed', from: 'false', to: 'true' })).toBe('Olivia Owner gave mo@example.test billing access');
    expect(activityText({ ...base, kind: 'billing_changed', from: 'true', to: 'false' })).toBe('Olivia Owner took billing access from mo@example.test');
    expect(activityText({ ...base, kind: 'member_removed', from: 'member' })).toBe('Olivia Owner removed mo@example.test from the team');
    expect(activityText({ ...base, kind: 'member_added', actor: null, to: 'member' })).toBe('The command line on this computer added mo@example.test as a member');
    expect(activityText({ ...base, kind: 'export_created', subject_email: null, export: { id: 7, report_type: 'full-v21', format: 'pdf' } }))
      .toBe('Olivia Owner exported Full analytics (V2.1) as PDF (export #7)');
  });

  it('says the changes to what the organisation shares (issue 26), by id and environment', () => {
    const on = { ...base, subject_email: null, env: 'live' as const };
    expect(activityText({ ...on, kind: 'webhook_added', object_id: 'whe_1' })).toBe('Olivia Owner added the live webhook endpoint whe_1');
    expect(activityText({ ...on, kind: 'webhook_removed', object_id: 'whe_1', actor: null })).toBe('The command line on this computer removed the live webhook endpoint whe_1');
    expect(activityText({ ...on, kind: 'webhook_secret_rotated', object_id: 'whe_1' })).toBe('Olivia Owner rotated the signing secret of the live webhook endpoint whe_1');
    expect(activityText({ ...on, kind: 'age_gate_created', object_id: 'ag_live_1', to: 'on' })).toBe('Olivia Owner set up the live age gate (store ag_live_1), switched on');
    expect(activityText({ ...on, kind: 'age_gate_changed', object_id: 'ag_live_1', from: 'on', to: 'off' })).toBe('Olivia Owner changed the live age gate\'s settings, switching it off');
    expect(activityText({ ...on, kind: 'age_gate_changed', object_id: 'ag_live_1', from: 'on', to: 'on' })).toBe('Olivia Owner changed the live age gate\'s settings');
    expect(activityText({ ...on, kind: 'flow_published', object_id: 'pf_1', env: 'test' })).toBe('Olivia Owner published the test flow pf_1');
    expect(activityText({ ...on, kind: 'flow_disabled', object_id: 'pf_1' })).toBe('Olivia Owner switched off the live flow pf_1');
    expect(activityText({ ...on, kind: 'flow_enabled', object_id: 'pf_1' })).toBe('Olivia Owner switched the live flow pf_1 back on');
    expect(activityText({ ...on, kind: 'onsite_started', env: null, to: '192.168.1.20:8443' })).toBe('Olivia Owner started the on-site server on 192.168.1.20:8443');
    expect(activityText({ ...on, kind: 'onsite_stopped', env: null, from: '192.168.1.20:8443' })).toBe('Olivia Owner stopped the on-site server');
  });
});
