// SQL for team invitations and the membership changes of team management, on either engine
// (db/engine.ts). Each function takes the query builder to run on: the engine's, or the caller's
// transaction.
import type { ExpressionBuilder } from 'kysely';
import { changedOne, type Q } from '../../db/engine';
import type { Tables } from '../../db/tables';
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

/** Neither accepted nor cancelled, and not yet expired at `at`. */
const pending = (at: string) => (e: ExpressionBuilder<Tables, 'team_invitations'>) =>
  e.and([e('team_invitations.accepted_at', 'is', null), e('team_invitations.cancelled_at', 'is', null), e('team_invitations.expires_at', '>', at)]);

const invitations = (q: Q) => q.selectFrom('team_invitations').selectAll();

export const teamRepo = {
  async insert(q: Q, i: { orgId: number; email: string; role: TeamRole; tokenHash: string; invitedBy: number; at: string; expires: string }): Promise<number> {
    return (await q.insertInto('team_invitations').values({
      org_id: i.orgId, email: i.email, role: i.role, token_hash: i.tokenHash, invited_by: i.invitedBy, created_at: i.at, expires_at: i.expires,
    }).returning('id').executeTakeFirstOrThrow()).id;
  },
  byId: (q: Q, id: number): Promise<InvitationRow | undefined> => invitations(q).where('id', '=', id).executeTakeFirst(),
  byTokenHash: (q: Q, hash: string): Promise<InvitationRow | undefined> => invitations(q).where('token_hash', '=', hash).executeTakeFirst(),
  pendingFor: (q: Q, orgId: number, email: string, at: string): Promise<InvitationRow | undefined> =>
    invitations(q).where('org_id', '=', orgId).where('email', '=', email).where(pending(at)).limit(1).executeTakeFirst(),
  pendingOf: (q: Q, orgId: number, at: string): Promise<(InvitationRow & { inviter_email: string })[]> =>
    q.selectFrom('team_invitations').innerJoin('users as u', 'u.id', 'team_invitations.invited_by')
      .selectAll('team_invitations').select('u.email as inviter_email')
      .where('team_invitations.org_id', '=', orgId).where(pending(at)).orderBy('team_invitations.id').execute(),
  // Single use: only a pending invitation is accepted or cancelled, in one conditional UPDATE.
  async accept(q: Q, id: number, userId: number, at: string): Promise<boolean> {
    const r = await q.updateTable('team_invitations').set({ accepted_at: at, accepted_by: userId }).where('id', '=', id).where(pending(at)).executeTakeFirst();
    return changedOne(r);
  },
  async cancel(q: Q, id: number, userId: number, at: string): Promise<boolean> {
    const r = await q.updateTable('team_invitations').set({ cancelled_at: at, cancelled_by: userId }).where('id', '=', id).where(pending(at)).executeTakeFirst();
    return changedOne(r);
  },
  async setRole(q: Q, userId: number, role: Role): Promise<void> {
    await q.updateTable('users').set({ role }).where('id', '=', userId).execute();
  },
  async setBilling(q: Q, userId: number, billing: boolean): Promise<void> {
    await q.updateTable('users').set({ billing: billing ? 1 : 0 }).where('id', '=', userId).execute();
  },
  async markRemoved(q: Q, userId: number, at: string): Promise<boolean> {
    const r = await q.updateTable('users').set({ removed_at: at }).where('id', '=', userId).where('removed_at', 'is', null).executeTakeFirst();
    return changedOne(r);
  },
  async endSessions(q: Q, userId: number): Promise<number> {
    const r = await q.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(r.numDeletedRows);
  },
  /** An invited person joins: a new organisation, role and join time (billing is not carried over). */
  async join(q: Q, userId: number, orgId: number, role: Role, at: string): Promise<void> {
    await q.updateTable('users').set({ org_id: orgId, role, billing: 0, joined_at: at, removed_at: null }).where('id', '=', userId).execute();
  },
  /** A removed member's row, revived by an accepted invitation with the account the invitee creates now. */
  async revive(q: Q, userId: number, u: { orgId: number; role: Role; name: string; passwordHash: string; at: string }): Promise<void> {
    await q.updateTable('users').set({
      org_id: u.orgId, role: u.role, name: u.name, password_hash: u.passwordHash, billing: 0, joined_at: u.at, removed_at: null, last_active_at: null,
    }).where('id', '=', userId).execute();
  },
  async liveKeysBy(q: Q, orgId: number, userId: number): Promise<number> {
    const r = await q.selectFrom('api_keys').select((e) => e.fn.countAll<number>().as('n'))
      .where('org_id', '=', orgId).where('created_by', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(r?.n ?? 0);
  },
};

export function isPending(i: InvitationRow, at: string): boolean {
  return i.accepted_at === null && i.cancelled_at === null && i.expires_at > at;
}
