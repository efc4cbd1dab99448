// SQL for team invitations and the membership changes of team management.
import type { Db } from '../../db/open';
import type { Role } from '../../../../src-shared/catalog';
import type { TeamRole } from '../../../../src-shared/contracts/team';

export interface InvitationRow {
  id: number;
  org_id: number;
  email: string;
  role: TeamRole;
  token_hash: string;
  invited_by: number;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: number | null;
  cancelled_at: string | null;
  cancelled_by: number | null;
}

const PENDING = 'accepted_at IS NULL AND cancelled_at IS NULL AND expires_at > ?';

export function teamRepo(db: Db) {
  const s = {
    insert: db.prepare<[number, string, TeamRole, string, number, string, string]>(
      'INSERT INTO team_invitations (org_id, email, role, token_hash, invited_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    byId: db.prepare<[number], InvitationRow>('SELECT * FROM team_invitations WHERE id = ?'),
    byTokenHash: db.prepare<[string], InvitationRow>('SELECT * FROM team_invitations WHERE token_hash = ?'),
    pendingFor: db.prepare<[number, string, string], InvitationRow>(
      `SELECT * FROM team_invitations WHERE org_id = ? AND email = ? AND ${PENDING} LIMIT 1`,
    ),
    pendingOf: db.prepare<[number, string], InvitationRow & { inviter_email: string }>(
      `SELECT i.*, u.email AS inviter_email FROM team_invitations i JOIN users u ON u.id = i.invited_by
        WHERE i.org_id = ? AND i.accepted_at IS NULL AND i.cancelled_at IS NULL AND i.expires_at > ? ORDER BY i.id`,
    ),
    // Single use: only a pending invitation is accepted or cancelled, in one conditional UPDATE.
    accept: db.prepare<[string, number, number, string]>(`UPDATE team_invitations SET accepted_at = ?, accepted_by = ? WHERE id = ? AND ${PENDING}`),
    cancel: db.prepare<[string, number, number, string]>(`UPDATE team_invitations SET cancelled_at = ?, cancelled_by = ? WHERE id = ? AND ${PENDING}`),
    setRole: db.prepare<[Role, number]>('UPDATE users SET role = ? WHERE id = ?'),
    setBilling: db.prepare<[number, number]>('UPDATE users SET billing = ? WHERE id = ?'),
    markRemoved: db.prepare<[string, number]>('UPDATE users SET removed_at = ? WHERE id = ? AND removed_at IS NULL'),
    endSessions: db.prepare<[number]>('DELETE FROM sessions WHERE user_id = ?'),
    /** An invited person joins: a new organisation, role and join time (billing is not carried over). */
    join: db.prepare<[number, Role, string, number]>(
      'UPDATE users SET org_id = ?, role = ?, billing = 0, joined_at = ?, removed_at = NULL WHERE id = ?',
    ),
    /** A removed member's row, revived by an accepted invitation with the account the invitee creates now. */
    revive: db.prepare<[number, Role, string, string, string, number]>(
      'UPDATE users SET org_id = ?, role = ?, name = ?, password_hash = ?, billing = 0, joined_at = ?, removed_at = NULL, last_active_at = NULL WHERE id = ?',
    ),
    liveKeysBy: db.prepare<[number, number], { n: number }>(
      'SELECT COUNT(*) AS n FROM api_keys WHERE org_id = ? AND created_by = ? AND revoked_at IS NULL',
    ),
  };
  return {
    insert: (i: { orgId: number; email: string; role: TeamRole; tokenHash: string; invitedBy: number; at: string; expires: string }) =>
      Number(s.insert.run(i.orgId, i.email, i.role, i.tokenHash, i.invitedBy, i.at, i.expires).lastInsertRowid),
    byId: (id: number) => s.byId.get(id),
    byTokenHash: (hash: string) => s.byTokenHash.get(hash),
    pendingFor: (orgId: number, email: string, at: string) => s.pendingFor.get(orgId, email, at),
    pendingOf: (orgId: number, at: string) => s.pendingOf.all(orgId, at),
    accept: (id: number, userId: number, at: string) => s.accept.run(at, userId, id, at).changes === 1,
    cancel: (id: number, userId: number, at: string) => s.cancel.run(at, userId, id, at).changes === 1,
    setRole: (userId: number, role: Role) => s.setRole.run(role, userId),
    setBilling: (userId: number, billing: boolean) => s.setBilling.run(billing ? 1 : 0, userId),
    markRemoved: (userId: number, at: string) => s.markRemoved.run(at, userId).changes === 1,
    endSessions: (userId: number) => s.endSessions.run(userId).changes,
    join: (userId: number, orgId: number, role: Role, at: string) => s.join.run(orgId, role, at, userId),
    revive: (userId: number, u: { orgId: number; role: Role; name: string; passwordHash: string; at: string }) =>
      s.revive.run(u.orgId, u.role, u.name, u.passwordHash, u.at, userId),
    liveKeysBy: (orgId: number, userId: number) => s.liveKeysBy.get(orgId, userId)?.n ?? 0,
  };
}
export type TeamRepo = ReturnType<typeof teamRepo>;

export function isPending(i: InvitationRow, at: string): boolean {
  return i.accepted_at === null && i.cancelled_at === null && i.expires_at > at;
}
