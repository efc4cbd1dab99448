// SQL for organisations, users and sessions, on either engine (db/engine.ts). Each function takes
// the query builder to run on: the engine's, or the caller's transaction.
import type { Dialect, Q } from '../../db/engine';
import type { Plan, Role } from '../../../../src-shared/catalog';

export interface OrgRow {
  id: number;
  name: string;
  plan: Plan;
  created_at: string;
  /** 1 when clearing a strong sanctions match needs a second person's approval. */
  four_eyes: number;
}

export interface UserRow {
  id: number;
  org_id: number;
  email: string;
  name: string;
  password_hash: string;
  role: Role;
  billing: number;
  created_at: string;
  last_active_at: string | null;
  /** When the user joined the organisation (first run, CLI or an accepted invitation). */
  joined_at: string | null;
  /** Set when the member was removed from the team: no sign-in, no session; kept for the audit log. */
  removed_at: string | null;
}

export interface SessionRow {
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  idle_expires_at: string;
}

/** The organisation's own columns (its logo and settings are read where they are used). */
const ORG = ['id', 'name', 'plan', 'created_at', 'four_eyes'] as const;

const users = (q: Q) => q.selectFrom('users').selectAll();

export function accountsRepo(dialect: Dialect) {
  return {
    firstOrg: (q: Q): Promise<OrgRow | undefined> => q.selectFrom('organizations').select(ORG).orderBy('id').limit(1).executeTakeFirst(),
    orgById: (q: Q, id: number): Promise<OrgRow | undefined> => q.selectFrom('organizations').select(ORG).where('id', '=', id).executeTakeFirst(),
    /**
     * Makes the transaction `q` the only one changing the organisation's team (its size against the
     * plan) until it ends: on PostgreSQL the organisation's row lock; SQLite's transactions hold
     * the one write lock already. No transaction takes it together with the credit balance's lock
     * today; one that does must take this one first, as every such transaction must, or PostgreSQL
     * aborts one of two crossing transactions as a deadlock.
     */
    async lockOrg(q: Q, id: number): Promise<void> {
      if (dialect === 'postgres') await q.selectFrom('organizations').select('id').where('id', '=', id).forUpdate().execute();
    },
    async insertOrg(q: Q, name: string, plan: Plan, at: string): Promise<number> {
      return (await q.insertInto('organizations').values({ name, plan, created_at: at }).returning('id').executeTakeFirstOrThrow()).id;
    },
    async setPlan(q: Q, orgId: number, plan: Plan): Promise<void> {
      await q.updateTable('organizations').set({ plan }).where('id', '=', orgId).execute();
    },
    async setFourEyes(q: Q, orgId: number, on: boolean): Promise<void> {
      await q.updateTable('organizations').set({ four_eyes: on ? 1 : 0 }).where('id', '=', orgId).execute();
    },
    /** An active user (not removed from a team). */
    userByEmail: (q: Q, email: string): Promise<UserRow | undefined> => users(q).where('email', '=', email).where('removed_at', 'is', null).executeTakeFirst(),
    /** Any user row with this e-mail, removed ones included (e-mails are unique across rows). */
    anyUserByEmail: (q: Q, email: string): Promise<UserRow | undefined> => users(q).where('email', '=', email).executeTakeFirst(),
    userById: (q: Q, id: number): Promise<UserRow | undefined> => users(q).where('id', '=', id).executeTakeFirst(),
    ownerOf: (q: Q, orgId: number): Promise<UserRow | undefined> => users(q).where('org_id', '=', orgId).where('role', '=', 'owner').orderBy('id').limit(1).executeTakeFirst(),
    async countUsers(q: Q, orgId: number): Promise<number> {
      const r = await q.selectFrom('users').select((e) => e.fn.countAll<number>().as('n')).where('org_id', '=', orgId).where('removed_at', 'is', null).executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    /** Team size as the plan counts it: active members plus pending invitations at `at`. */
    async countTeam(q: Q, orgId: number, at: string): Promise<number> {
      const invited = await q.selectFrom('team_invitations').select((e) => e.fn.countAll<number>().as('n'))
        .where('org_id', '=', orgId).where('accepted_at', 'is', null).where('cancelled_at', 'is', null).where('expires_at', '>', at).executeTakeFirst();
      return Number(invited?.n ?? 0) + (await this.countUsers(q, orgId));
    },
    /** Every user row ever in the organisation, removed ones included (the audit log names them). */
    usersOf: (q: Q, orgId: number): Promise<UserRow[]> => users(q).where('org_id', '=', orgId).orderBy('id').execute(),
    /** The team: users not removed. */
    membersOf: (q: Q, orgId: number): Promise<UserRow[]> => users(q).where('org_id', '=', orgId).where('removed_at', 'is', null).orderBy('id').execute(),
    async insertUser(q: Q, u: { orgId: number; email: string; name: string; passwordHash: string; role: Role; billing: boolean; at: string }): Promise<number> {
      return (await q.insertInto('users').values({
        org_id: u.orgId, email: u.email, name: u.name, password_hash: u.passwordHash, role: u.role, billing: u.billing ? 1 : 0, created_at: u.at, joined_at: u.at,
      }).returning('id').executeTakeFirstOrThrow()).id;
    },
    async touchUser(q: Q, id: number, at: string): Promise<void> {
      await q.updateTable('users').set({ last_active_at: at }).where('id', '=', id).execute();
    },
    async insertSession(q: Q, hash: string, userId: number, at: string, expires: string, idle: string): Promise<void> {
      await q.insertInto('sessions').values({ token_hash: hash, user_id: userId, created_at: at, expires_at: expires, idle_expires_at: idle }).execute();
    },
    sessionByHash: (q: Q, hash: string): Promise<SessionRow | undefined> => q.selectFrom('sessions').selectAll().where('token_hash', '=', hash).executeTakeFirst(),
    async slideSession(q: Q, hash: string, idle: string): Promise<void> {
      await q.updateTable('sessions').set({ idle_expires_at: idle }).where('token_hash', '=', hash).execute();
    },
    async deleteSession(q: Q, hash: string): Promise<void> {
      await q.deleteFrom('sessions').where('token_hash', '=', hash).execute();
    },
    async deleteExpiredSessions(q: Q, at: string): Promise<void> {
      await q.deleteFrom('sessions').where((e) => e.or([e('expires_at', '<', at), e('idle_expires_at', '<', at)])).execute();
    },
  };
}
export type AccountsRepo = ReturnType<typeof accountsRepo>;
