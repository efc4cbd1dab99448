// Team activity: what the team did, for everyone on it (account spec, Authentication rule 6). Read
// from the audit log's team actions and the export jobs, newest first. API keys stay private to
// the member who made them and are not in it; nothing about verified people is either. Of the acts
// that change what the organisation exposes, those on things every member already sees listed
// (webhook endpoints, the age gate, published flows, the on-site server) are in it; sign-ins,
// hosted sessions, KYC reports and downloads stay in the audit log for owners and admins.
import type { TeamActivity, TeamActivityKind } from '../../../../src-shared/contracts/team';
import type { Engine } from '../../db/engine';
import { teamActivityRepo } from './team-activity-repo';

const KIND_OF_ACTION: Record<string, TeamActivityKind> = {
  'member.added': 'member_added',
  'member.invited': 'invitation_sent',
  'invite.cancelled': 'invitation_cancelled',
  'invite.accepted': 'invitation_accepted',
  'member.role_changed': 'role_changed',
  'member.billing_changed': 'billing_changed',
  'member.removed': 'member_removed',
  'webhook.added': 'webhook_added',
  'webhook.removed': 'webhook_removed',
  'webhook.secret_rotated': 'webhook_secret_rotated',
  'age_gate.created': 'age_gate_created',
  'age_gate.changed': 'age_gate_changed',
  'flow.published': 'flow_published',
  'flow.changed': 'flow_changed',
  'flow.disabled': 'flow_disabled',
  'flow.enabled': 'flow_enabled',
  'onsite.started': 'onsite_started',
  'onsite.stopped': 'onsite_stopped',
  'team_server.started': 'team_server_started',
  'team_server.stopped': 'team_server_stopped',
};
const ACTIONS = Object.keys(KIND_OF_ACTION);

export function createTeamActivity(engine: Engine) {
  const repo = teamActivityRepo;
  const { q } = engine;

  return {
    async page(orgId: number, pageNo: number, perPage: number): Promise<TeamActivity> {
      const total = await repo.count(q, orgId, ACTIONS);
      const rows = await repo.page(q, orgId, ACTIONS, perPage, (pageNo - 1) * perPage);
      const entries: TeamActivity['entries'] = [];
      for (const r of rows) {
        const actor = r.actor_id === null ? undefined : await repo.user(q, Number(r.actor_id));
        const target = r.target_user_id === null ? undefined : await repo.user(q, Number(r.target_user_id));
        const invited = r.invitation_id === null ? undefined : await repo.invitationEmail(q, Number(r.invitation_id), orgId);
        entries.push({
          at: r.at,
          kind: r.action === 'export.created' ? 'export_created' : KIND_OF_ACTION[r.action]!,
          actor: actor ? { user_id: actor.id, name: actor.name, email: actor.email } : null,
          subject_email: target?.email ?? invited ?? null,
          export: r.export_id === null ? null : { id: Number(r.export_id), report_type: r.report_type!, format: r.format! },
          from: r.from_value,
          to: r.to_value,
          object_id: r.object_id,
          env: r.env,
        });
      }
      return { total, page: pageNo, pages: Math.max(1, Math.ceil(total / perPage)), entries };
    },
  };
}
export type TeamActivityReader = ReturnType<typeof createTeamActivity>;
