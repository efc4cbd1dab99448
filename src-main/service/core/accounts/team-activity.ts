// Team activity: what the team did, for everyone on it (account spec, Authentication rule 6). Read
// from the audit log's team actions and the export jobs, newest first. API keys stay private to
// the member who made them and are not in it; nothing about verified people is either. Of the acts
// that change what the organisation exposes, those on things every member already sees listed
// (webhook endpoints, the age gate, published flows, the on-site server) are in it; sign-ins,
// hosted sessions, KYC reports and downloads stay in the audit log for owners and admins.
import type { Environment } from '../../../../src-shared/catalog';
import type { TeamActivity, TeamActivityKind } from '../../../../src-shared/contracts/team';
import type { Db } from '../../db/open';

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
const ACTIONS = Object.keys(KIND_OF_ACTION).map((a) => `'${a}'`).join(',');

interface Row {
  at: string;
  action: string;
  actor_id: string | null;
  target_user_id: number | null;
  invitation_id: number | null;
  from_value: string | null;
  to_value: string | null;
  object_id: string | null;
  env: Environment | null;
  export_id: number | null;
  report_type: string | null;
  format: string | null;
}

export function createTeamActivity(db: Db) {
  // One ordered list of both sources; `seq`/`id` keep entries of the same instant in their order.
  const union = `
    SELECT a.at AS at, a.seq AS tie, a.action AS action, a.actor_id AS actor_id, a.target_user_id AS target_user_id,
           a.invitation_id AS invitation_id, a.from_value AS from_value, a.to_value AS to_value, a.object_id AS object_id, a.env AS env,
           NULL AS export_id, NULL AS report_type, NULL AS format
      FROM audit_log a WHERE a.org_id = @org AND a.action IN (${ACTIONS}) AND a.actor_kind != 'system'
    UNION ALL
    SELECT e.created_at, e.id, 'export.created', CAST(e.created_by AS TEXT), NULL, NULL, NULL, NULL, NULL, NULL, e.id, e.report_type, e.format
      FROM report_exports e WHERE e.org_id = @org`;
  const page = db.prepare<{ org: number; limit: number; offset: number }, Row>(
    `SELECT * FROM (${union}) ORDER BY at DESC, tie DESC LIMIT @limit OFFSET @offset`,
  );
  const count = db.prepare<{ org: number }, { n: number }>(`SELECT COUNT(*) AS n FROM (${union})`);
  const user = db.prepare<[number], { id: number; name: string; email: string }>('SELECT id, name, email FROM users WHERE id = ?');
  const invitation = db.prepare<[number, number], { email: string }>('SELECT email FROM team_invitations WHERE id = ? AND org_id = ?');

  return {
    page(orgId: number, pageNo: number, perPage: number): TeamActivity {
      const total = count.get({ org: orgId })!.n;
      const rows = page.all({ org: orgId, limit: perPage, offset: (pageNo - 1) * perPage });
      return {
        total, page: pageNo, pages: Math.max(1, Math.ceil(total / perPage)),
        entries: rows.map((r) => {
          const actor = r.actor_id === null ? undefined : user.get(Number(r.actor_id));
          const target = r.target_user_id === null ? undefined : user.get(r.target_user_id);
          const invited = r.invitation_id === null ? undefined : invitation.get(r.invitation_id, orgId);
          return {
            at: r.at,
            kind: r.action === 'export.created' ? 'export_created' : KIND_OF_ACTION[r.action]!,
            actor: actor ? { user_id: actor.id, name: actor.name, email: actor.email } : null,
            subject_email: target?.email ?? invited?.email ?? null,
            export: r.export_id === null ? null : { id: r.export_id, report_type: r.report_type!, format: r.format! },
            from: r.from_value,
            to: r.to_value,
            object_id: r.object_id,
            env: r.env,
          };
        }),
      };
    },
  };
}
export type TeamActivityReader = ReturnType<typeof createTeamActivity>;
