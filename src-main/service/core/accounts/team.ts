// Team management (issue 13): the members of an organisation, invitations by e-mail with a
// one-time token, role changes and removals, each recorded in the audit log in the transaction of
// the act. Who may do what is docs/roles.md; the route guard checks the route's roles, and the
// finer rules (an admin acts only on member-level people and invitations) are checked here.
import { randomBytes } from 'node:crypto';
import { PLAN_INFO } from '../../../../src-shared/catalog';
import {
  INVITATION_DAYS, InviteEmail, type InvitationListItem, type Member, type MemberList, type TeamRole,
} from '../../../../src-shared/contracts/team';
import { DAY_MS } from '../../../../src-shared/dates';
import { AppError } from '../../../../src-shared/errors';
import type { Engine, Q } from '../../db/engine';
import { actorOf, type Audit } from '../audit/audit';
import type { Clock } from '../clock';
import { nowIso, sha256Hex } from '../ids';
import type { Accounts, SessionContext } from './accounts';
import { hashPassword } from './passwords';
import type { OrgRow, UserRow } from './repo';
import { isPending, teamRepo, type InvitationRow } from './team-repo';
import { seesCredits, team, teamOverLimit } from '../../../../src-shared/policy';

export function toMember(u: UserRow): Member {
  return {
    id: u.id, user_id: u.id, email: u.email, name: u.name, role: u.role,
    joined_at: u.joined_at ?? u.created_at, last_active: u.last_active_at,
    billing: seesCredits(u),
  };
}

export interface AcceptOutcome {
  org: OrgRow;
  role: TeamRole;
  user: UserRow;
  /** True when the invitee had no account and one was made: the route signs them in. */
  created: boolean;
}

export function createTeam(engine: Engine, clock: Clock, accounts: Accounts, audit: Audit) {
  const repo = teamRepo;
  const users = accounts.repo;
  const { q } = engine;
  const now = () => nowIso(clock.now());

  /** A member of this organisation (not removed), or 404: other organisations' ids are unknown here. */
  async function memberOf(tx: Q, org: OrgRow, id: number): Promise<UserRow> {
    const u = await users.userById(tx, id);
    if (!u || u.org_id !== org.id || u.removed_at !== null) throw new AppError('member_not_found');
    return u;
  }

  /** Re-reads the invitation in the act's transaction; anything but a pending one is an invalid token. */
  async function pendingInvitation(tx: Q, tokenHash: string): Promise<InvitationRow> {
    const inv = await repo.byTokenHash(tx, tokenHash);
    if (!inv || !isPending(inv, now())) throw new AppError('invalid_invitation');
    return inv;
  }

  /**
   * The plan's team size, counting the member about to join (their invitation no longer pending),
   * under the organisation's lock: two acceptances at once, on any instances, cannot both take the last place.
   */
  async function checkRoomToJoin(tx: Q, orgId: number): Promise<OrgRow> {
    await users.lockOrg(tx, orgId);
    const org = (await users.orgById(tx, orgId))!;
    const current = await users.countUsers(tx, org.id);
    const limit = teamOverLimit(org.plan, current + 1);
    if (limit !== null) throw new AppError('team_full', { current, team_limit: limit });
    return org;
  }

  return {
    async members(org: OrgRow): Promise<MemberList> {
      const members = (await users.membersOf(q, org.id)).map(toMember);
      return { members, total: members.length, limit: PLAN_INFO[org.plan].team_size };
    },

    async invitations(org: OrgRow): Promise<{ invites: InvitationListItem[]; total: number }> {
      const invites = (await repo.pendingOf(q, org.id, now())).map((i) => ({
        id: i.id, email: i.email, role: i.role, invited_by: i.inviter_email, created_at: i.created_at, expires_at: i.expires_at,
      }));
      return { invites, total: invites.length };
    },

    /** A pending invitation and its token (shown once: only the token's SHA-256 is stored). */
    invite(actor: UserRow, org: OrgRow, input: { email: string; role: TeamRole }): Promise<{ invitation: InvitationRow; token: string }> {
      const parsed = InviteEmail.safeParse(input.email);
      if (!parsed.success) throw new AppError('invalid_email', { field: 'email' });
      const email = parsed.data;
      // Only the owner gives admin rights, by invitation as by role change.
      if (!team.invite(actor.role, input.role)) throw new AppError('permission_denied');
      const token = randomBytes(32).toString('base64url');
      return audit.atomically(async (tx) => {
        const at = now();
        const existing = await users.userByEmail(tx, email);
        if (existing && existing.org_id === org.id) throw new AppError('already_on_team', { field: 'email' });
        // The team's size is read and an invitation added under the organisation's lock (any instance).
        await users.lockOrg(tx, org.id);
        if (await repo.pendingFor(tx, org.id, email, at)) throw new AppError('invitation_pending', { field: 'email' });
        const current = await users.countTeam(tx, org.id, at);
        const limit = teamOverLimit(org.plan, current + 1);
        if (limit !== null) throw new AppError('team_full', { current, team_limit: limit });
        const id = await repo.insert(tx, {
          orgId: org.id, email, role: input.role, tokenHash: sha256Hex(token), invitedBy: actor.id,
          at, expires: nowIso(clock.now() + INVITATION_DAYS * DAY_MS),
        });
        await audit.record({ orgId: org.id, actor: actorOf(actor), action: 'member.invited', invitationId: id, to: input.role }, tx);
        return { invitation: (await repo.byId(tx, id))!, token };
      });
    },

    cancelInvitation(actor: UserRow, org: OrgRow, id: number): Promise<void> {
      return audit.atomically(async (tx) => {
        const inv = await repo.byId(tx, id);
        if (!inv || inv.org_id !== org.id || !isPending(inv, now())) throw new AppError('invitation_not_found');
        if (!team.invite(actor.role, inv.role)) throw new AppError('permission_denied');
        await repo.cancel(tx, inv.id, actor.id, now());
        await audit.record({ orgId: org.id, actor: actorOf(actor), action: 'invite.cancelled', invitationId: inv.id, from: inv.role }, tx);
      });
    },

    /**
     * Accepting (spec rule 4): signed in with the invited e-mail, the token alone; signed in as
     * someone else, refused (log out, log in with the invited e-mail); no account for the invited
     * e-mail, `name` and `password` create one in the inviting organisation.
     */
    async accept(input: { token: string; name?: string | undefined; password?: string | undefined }, session: SessionContext | null): Promise<AcceptOutcome> {
      const tokenHash = sha256Hex(input.token);
      const first = await pendingInvitation(q, tokenHash);

      if (session) {
        if (session.user.email !== first.email) throw new AppError('invitation_other_account');
        return audit.atomically(async (tx) => {
          const inv = await pendingInvitation(tx, tokenHash);
          const user = (await users.userById(tx, session.user.id))!;
          if (user.org_id === inv.org_id) throw new AppError('already_on_team');
          if (user.role === 'owner') throw new AppError('invitation_other_owner');
          const org = await checkRoomToJoin(tx, inv.org_id);
          const at = now();
          // One organisation per user: joining this team leaves the other one, recorded there.
          await audit.record({ orgId: user.org_id, actor: actorOf(user), action: 'member.removed', targetUserId: user.id, from: user.role }, tx);
          await repo.join(tx, user.id, org.id, inv.role, at);
          if (!(await repo.accept(tx, inv.id, user.id, at))) throw new AppError('invalid_invitation');
          const joined = (await users.userById(tx, user.id))!;
          await audit.record({ orgId: org.id, actor: actorOf(joined), action: 'invite.accepted', invitationId: inv.id, targetUserId: joined.id, to: inv.role }, tx);
          return { org, role: inv.role, user: joined, created: false };
        });
      }

      const existing = await users.anyUserByEmail(q, first.email);
      if (existing && existing.removed_at === null) throw new AppError('invitation_login_required');
      if (!input.name) throw new AppError('account_validation', { field: 'name', message: 'Your name and a password (at least 10 characters) create your account' });
      if (!input.password) throw new AppError('account_validation', { field: 'password', message: 'Your name and a password (at least 10 characters) create your account' });
      const name = input.name;
      const passwordHash = await hashPassword(input.password);
      return audit.atomically(async (tx) => {
        const inv = await pendingInvitation(tx, tokenHash);
        const org = await checkRoomToJoin(tx, inv.org_id);
        const at = now();
        const again = await users.anyUserByEmail(tx, inv.email);
        if (again && again.removed_at === null) throw new AppError('invitation_login_required');
        let userId: number;
        if (again) {
          // A member removed earlier (here or elsewhere) comes back with the account made now.
          await repo.revive(tx, again.id, { orgId: org.id, role: inv.role, name, passwordHash, at });
          userId = again.id;
        } else {
          userId = await users.insertUser(tx, { orgId: org.id, email: inv.email, name, passwordHash, role: inv.role, billing: false, at });
        }
        if (!(await repo.accept(tx, inv.id, userId, at))) throw new AppError('invalid_invitation');
        const user = (await users.userById(tx, userId))!;
        await audit.record({ orgId: org.id, actor: actorOf(user), action: 'invite.accepted', invitationId: inv.id, targetUserId: user.id, to: inv.role }, tx);
        return { org, role: inv.role, user, created: true };
      });
    },

    /** Owner only (route guard). The owner's own role is not changed here, and nobody is made owner. */
    changeRole(actor: UserRow, org: OrgRow, id: number, role: TeamRole): Promise<{ member: UserRow; changed: boolean }> {
      return audit.atomically(async (tx) => {
        const target = await memberOf(tx, org, id);
        if (target.role === 'owner') throw new AppError('owner_role_fixed');
        if (target.role === role) return { member: target, changed: false };
        await repo.setRole(tx, target.id, role);
        await audit.record({ orgId: org.id, actor: actorOf(actor), action: 'member.role_changed', targetUserId: target.id, from: target.role, to: role }, tx);
        return { member: (await users.userById(tx, target.id))!, changed: true };
      });
    },

    /** Owner only (the route): the billing flag of an admin or member; owners always have it. */
    setBilling(actor: UserRow, org: OrgRow, id: number, billing: boolean): Promise<{ member: UserRow; changed: boolean }> {
      return audit.atomically(async (tx) => {
        const target = await memberOf(tx, org, id);
        if (target.role === 'owner') throw new AppError('owner_billing_fixed');
        if (target.role === 'admin') throw new AppError('admin_billing_fixed');
        if ((target.billing === 1) === billing) return { member: target, changed: false };
        await repo.setBilling(tx, target.id, billing);
        await audit.record({
          orgId: org.id, actor: actorOf(actor), action: 'member.billing_changed', targetUserId: target.id,
          from: String(target.billing === 1), to: String(billing),
        }, tx);
        return { member: (await users.userById(tx, target.id))!, changed: true };
      });
    },

    /**
     * The owner ends every console session of another person (issue 39: people at their own desks
     * sign in there; a lost laptop or a departure ends theirs from the owner's desk). Their next
     * request asks them to sign in again; their keys are untouched. Audited with how many ended.
     */
    endSessions(actor: UserRow, org: OrgRow, id: number): Promise<number> {
      return audit.atomically(async (tx) => {
        const target = await memberOf(tx, org, id);
        if (target.id === actor.id) throw new AppError('cannot_end_own_sessions');
        const ended = await repo.endSessions(tx, target.id);
        await audit.record({ orgId: org.id, actor: actorOf(actor), action: 'session.revoked', targetUserId: target.id, to: String(ended) }, tx);
        return ended;
      });
    },

    /**
     * Owners remove anyone but themselves; admins remove members only. The member's sessions end at
     * once; the keys they made stay active (their integrations keep working) and are counted back.
     */
    remove(actor: UserRow, org: OrgRow, id: number): Promise<{ activeApiKeys: number }> {
      return audit.atomically(async (tx) => {
        const target = await memberOf(tx, org, id);
        if (target.role === 'owner') throw new AppError('cannot_remove_owner');
        if (!team.remove(actor.role, target)) throw new AppError('permission_denied');
        await repo.markRemoved(tx, target.id, now());
        await repo.endSessions(tx, target.id);
        await audit.record({ orgId: org.id, actor: actorOf(actor), action: 'member.removed', targetUserId: target.id, from: target.role }, tx);
        return { activeApiKeys: await repo.liveKeysBy(tx, org.id, target.id) };
      });
    },
  };
}
export type Team = ReturnType<typeof createTeam>;
