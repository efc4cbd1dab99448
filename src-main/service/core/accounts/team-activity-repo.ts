// SQL for team activity, on either engine (db/engine.ts): the audit log's team actions and the
// export jobs, as one list newest first, and the people and invitations they name.
import { sql } from 'kysely';
import type { Environment } from '../../../../src-shared/catalog';
import type { Q } from '../../db/engine';

export interface ActivityRow {
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

/** Both sources in one ordered list; `tie` (`seq`, `id`) keeps entries of the same instant in their order. */
const union = (orgId: number, actions: readonly string[]) => sql`
  SELECT a.at AS at, a.seq AS tie, a.action AS action, a.actor_id AS actor_id, a.target_user_id AS target_user_id,
         a.invitation_id AS invitation_id, a.from_value AS from_value, a.to_value AS to_value, a.object_id AS object_id, a.env AS env,
         NULL AS export_id, NULL AS report_type, NULL AS format
    FROM audit_log a WHERE a.org_id = ${orgId} AND a.action IN (${sql.join(actions)}) AND a.actor_kind != 'system'
  UNION ALL
  SELECT e.created_at, e.id, 'export.created', CAST(e.created_by AS TEXT), NULL, NULL, NULL, NULL, NULL, NULL, e.id, e.report_type, e.format
    FROM report_exports e WHERE e.org_id = ${orgId}`;

export const teamActivityRepo = {
  async page(q: Q, orgId: number, actions: readonly string[], limit: number, offset: number): Promise<ActivityRow[]> {
    return (await sql<ActivityRow>`SELECT * FROM (${union(orgId, actions)}) u ORDER BY at DESC, tie DESC LIMIT ${limit} OFFSET ${offset}`.execute(q)).rows;
  },
  async count(q: Q, orgId: number, actions: readonly string[]): Promise<number> {
    return Number((await sql<{ n: number }>`SELECT COUNT(*) AS n FROM (${union(orgId, actions)}) u`.execute(q)).rows[0]?.n ?? 0);
  },
  user: (q: Q, id: number) => q.selectFrom('users').select(['id', 'name', 'email']).where('id', '=', id).executeTakeFirst(),
  invitationEmail: async (q: Q, id: number, orgId: number) =>
    (await q.selectFrom('team_invitations').select('email').where('id', '=', id).where('org_id', '=', orgId).executeTakeFirst())?.email,
};
