// What the Team screen shows each role (docs/roles.md; a unit test reads that table and checks
// these rules against every cell, so the screen cannot offer what the service refuses), and the
// sentences it builds from counts.
import type { Role } from '../../../../src-shared/catalog';
import type { TeamRole } from '../../../../src-shared/contracts/team';
import type { ReportType } from '../../../../src-shared/contracts/reports';
import type { TeamActivityEntry } from '../../../../src-shared/contracts/team';
import { REPORT_TYPE_LABEL } from '../../components/reports/export-labels';
import { may, team } from '../../../../src-shared/policy';

export const ROLE_LABEL: Record<Role, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };

export const ROLE_HINT: Record<TeamRole, string> = {
  member: 'Works in the console and manages only their own API keys.',
  admin: 'Also invites and removes members, manages every API key, webhooks, lists and settings, and reads the audit log.',
};

/** The Team screen's questions, answered by the one policy (src-shared/policy.ts). */
export const can = {
  listMembers: (viewer: Role) => may(viewer, 'console.use'),
  /** Team activity is the whole team's (API keys are not in it). */
  seeActivity: (viewer: Role) => may(viewer, 'console.use'),
  invite: (viewer: Role, role: TeamRole) => team.invite(viewer, role),
  listInvites: (viewer: Role) => may(viewer, 'team.list_invites'),
  cancelInvite: (viewer: Role, invite: { role: TeamRole }) => team.invite(viewer, invite.role),
  /** The owner's own role is fixed here (ownership is transferred, not given). */
  changeRole: (viewer: Role, target: { role: Role }) => team.changeRole(viewer, target),
  /** A member's billing access (the credit ledger and the reports' credits); owners and admins have it by role. */
  setBilling: (viewer: Role, target: { role: Role }) => team.setBilling(viewer, target),
  remove: (viewer: Role, target: { role: Role }) => team.remove(viewer, target),
  /** Signing another person out everywhere is the owner's (any member or admin; never the owner's own). */
  endSessions: (viewer: Role, target: { role: Role }) => target.role !== 'owner' && may(viewer, 'team.end_sessions'),
};

/** The roles `viewer` may give in an invitation, member first (the usual one). */
export function invitableRoles(viewer: Role): TeamRole[] {
  return (['member', 'admin'] as const).filter((r) => can.invite(viewer, r));
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

export interface Seats {
  text: string;
  /** Every seat taken (members and pending invitations): a new invitation would be refused. */
  full: boolean;
}

/**
 * The team's size against the plan's. Pending invitations take a seat (spec); `pending` is null
 * for members, who do not see invitations, so their line counts members only.
 */
export function seatSummary(members: number, pending: number | null, limit: number | null): Seats {
  const pendingText = pending ? plural(pending, 'pending invitation', 'pending invitations') : '';
  if (limit === null) {
    return { text: [plural(members, 'member', 'members'), pendingText, 'no seat limit on this plan'].filter(Boolean).join(' · '), full: false };
  }
  if (pending === null) {
    return { text: `${plural(members, 'member', 'members')} · the plan allows ${plural(limit, 'seat', 'seats')}`, full: false };
  }
  const used = members + pending;
  const parts = pending > 0 ? `: ${plural(members, 'member', 'members')}, ${pendingText}` : '';
  return { text: `${used.toLocaleString()} of ${plural(limit, 'seat', 'seats')} used${parts}`, full: used >= limit };
}

/** The team-limit refusal with its counts (`current` and `limit` of the spec's body). */
export function teamFullText(message: string, counts: { current: number; limit: number } | undefined): string {
  if (!counts) return message;
  return `${message} ${counts.current.toLocaleString()} of ${plural(counts.limit, 'seat is', 'seats are')} taken by members and pending invitations.`;
}

/**
 * After a removal: who went, and the API keys they made, which stay active (docs/decisions.md,
 * "Team (issue 13)"): the caller links the keys screen when there are any.
 */
export function removalNotice(name: string, activeApiKeys: number): string {
  const gone = `${name} was removed from the team and signed out.`;
  if (activeApiKeys === 0) return gone;
  const keys = activeApiKeys === 1 ? 'The API key they created stays active' : `The ${activeApiKeys.toLocaleString()} API keys they created stay active`;
  return `${gone} ${keys}: revoke ${activeApiKeys === 1 ? 'it' : 'them'} in API keys if ${activeApiKeys === 1 ? 'it' : 'they'} should stop working.`;
}

/** One line of team activity, as a sentence ("Olivia Owner invited mo@… as a member"). */
export function activityText(e: TeamActivityEntry): string {
  const who = e.actor ? e.actor.name : 'The command line on this computer';
  const them = e.subject_email ?? 'someone';
  const asRole = (r: string | null) => (r === 'admin' ? 'an admin' : r === 'owner' ? 'the owner' : 'a member');
  const env = e.env === 'live' ? 'live' : 'test';
  switch (e.kind) {
    case 'member_added': return `${who} added ${them} as ${asRole(e.to)}`;
    case 'invitation_sent': return `${who} invited ${them} as ${asRole(e.to)}`;
    case 'invitation_cancelled': return `${who} cancelled the invitation of ${them}`;
    case 'invitation_accepted': return `${them} accepted the invitation and joined as ${asRole(e.to)}`;
    case 'role_changed': return `${who} made ${them} ${asRole(e.to)}`;
    case 'billing_changed': return e.to === 'true' ? `${who} gave ${them} billing access` : `${who} took billing access from ${them}`;
    case 'member_removed': return `${who} removed ${them} from the team`;
    case 'export_created': {
      const x = e.export;
      const type = x && x.report_type in REPORT_TYPE_LABEL ? REPORT_TYPE_LABEL[x.report_type as ReportType] : (x?.report_type ?? 'a report');
      return `${who} exported ${type} as ${x?.format === 'csv' ? 'CSV' : 'PDF'}${x ? ` (export #${x.id})` : ''}`;
    }
    case 'webhook_added': return `${who} added the ${env} webhook endpoint ${e.object_id ?? ''}`;
    case 'webhook_removed': return `${who} removed the ${env} webhook endpoint ${e.object_id ?? ''}`;
    case 'webhook_secret_rotated': return `${who} rotated the signing secret of the ${env} webhook endpoint ${e.object_id ?? ''}`;
    case 'age_gate_created': return `${who} set up the ${env} age gate (store ${e.object_id ?? ''}), ${e.to === 'on' ? 'switched on' : 'switched off'}`;
    case 'age_gate_changed':
      return `${who} changed the ${env} age gate's settings${e.from !== e.to ? `, switching it ${e.to === 'on' ? 'on' : 'off'}` : ''}`;
    case 'flow_published': return `${who} published the ${env} flow ${e.object_id ?? ''}`;
    case 'flow_changed': return `${who} changed the settings of the ${env} flow ${e.object_id ?? ''}`;
    case 'flow_disabled': return `${who} switched off the ${env} flow ${e.object_id ?? ''}`;
    case 'flow_enabled': return `${who} switched the ${env} flow ${e.object_id ?? ''} back on`;
    case 'onsite_started': return `${who} started the on-site server on ${e.to ?? 'a local address'}`;
    case 'onsite_stopped': return `${who} stopped the on-site server`;
    case 'team_server_started': return `${who} started the team server on ${e.to ?? 'a network address'}`;
    case 'team_server_stopped': return `${who} stopped the team server`;
  }
}
