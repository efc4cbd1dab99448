// Organisation, users and dashboard sessions. A data directory holds one organisation
// (a desktop install); users are its team.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../../src-shared/errors';
import { PLAN_INFO, type Plan, type Role } from '../../../../src-shared/catalog';
import type { Organization, User } from '../../../../src-shared/contracts/accounts';
import type { Db } from '../../db/open';
import type { Clock } from '../clock';
import { nowIso, sha256Hex } from '../ids';
import { accountsRepo, type OrgRow, type UserRow } from './repo';
import { dummyHash, hashPassword, verifyPassword } from './passwords';
import { seesCredits, teamOverLimit } from '../../../../src-shared/policy';

/** How long the desktop window may take to choose a member and give the password. */
export const DESKTOP_CHOICE_MS = 10 * 60_000;

/** Sliding idle lifetime and absolute lifetime of a dashboard session. */
export const SESSION_IDLE_MS = 12 * 3600_000;
export const SESSION_MAX_MS = 7 * 24 * 3600_000;

export interface SessionContext {
  user: UserRow;
  org: OrgRow;
  tokenHash: string;
}

export function toUser(u: UserRow): User {
  return { id: u.id, email: u.email, name: u.name, role: u.role, billing: seesCredits(u) };
}

export function toOrganization(o: OrgRow): Organization {
  return { id: o.id, name: o.name, plan: o.plan };
}

export function createAccounts(db: Db, clock: Clock, opts: { loginToken?: string } = {}) {
  const repo = accountsRepo(db);
  // The desktop shell hands the window a one-time token; it is held only in memory.
  let loginToken: Buffer | null = opts.loginToken ? Buffer.from(opts.loginToken) : null;
  // Desktop choices in progress (SHA-256 of the window's cookie -> organisation, expiry): memory only.
  const choices = new Map<string, { orgId: number; expires: number }>();

  function choiceOf(cookie: string | undefined): { orgId: number } {
    const hash = cookie ? sha256Hex(cookie) : '';
    const c = choices.get(hash);
    if (!c || c.expires <= clock.now()) {
      choices.delete(hash);
      throw new AppError('desktop_choice_expired');
    }
    return c;
  }

  function newSession(userId: number): { token: string; expires: Date } {
    const token = randomBytes(32).toString('base64url');
    const now = clock.now();
    const expires = new Date(now + SESSION_MAX_MS);
    repo.insertSession(sha256Hex(token), userId, nowIso(now), expires.toISOString(), nowIso(now + SESSION_IDLE_MS));
    repo.touchUser(userId, nowIso(now));
    return { token, expires };
  }

  /** The user these credentials belong to, or null; as slow for unknown e-mails as for known ones. */
  async function verifyCredentials(email: string, password: string): Promise<UserRow | null> {
    const user = repo.userByEmail(email);
    const ok = await verifyPassword(password, user?.password_hash ?? (await dummyHash()));
    return user && ok ? user : null;
  }

  return {
    repo,
    needsSetup(): boolean {
      return repo.firstOrg() === undefined;
    },

    organization(): OrgRow | undefined {
      return repo.firstOrg();
    },

    /** First run: creates the organisation and its owner. Refused once an organisation exists. */
    async setup(input: { organization: string; name: string; email: string; password: string; plan?: Plan }) {
      const passwordHash = await hashPassword(input.password);
      const at = nowIso(clock.now());
      return db
        .transaction(() => {
          if (repo.firstOrg()) throw new AppError('already_set_up');
          const orgId = repo.insertOrg(input.organization, input.plan ?? 'free', at);
          const userId = repo.insertUser({
            orgId, email: input.email, name: input.name, passwordHash, role: 'owner', billing: true, at,
          });
          return { org: repo.orgById(orgId)!, user: repo.userById(userId)! };
        })
        .immediate();
    },

    /** A user added as is (no plan check, no audit row): set-up and tests; people join by invitation or `addMember`. */
    async addUser(input: { orgId: number; email: string; name: string; password: string; role: Role; billing?: boolean }) {
      const passwordHash = await hashPassword(input.password);
      return this.insertUser({ ...input, passwordHash });
    },

    /** Writes the user (password already hashed); in the caller's transaction when it has one. */
    insertUser(input: { orgId: number; email: string; name: string; passwordHash: string; role: Role; billing?: boolean }): UserRow {
      const id = repo.insertUser({
        orgId: input.orgId, email: input.email, name: input.name, passwordHash: input.passwordHash,
        role: input.role, billing: input.billing ?? false, at: nowIso(clock.now()),
      });
      return repo.userById(id)!;
    },

    verifyCredentials,

    async login(email: string, password: string) {
      const user = await verifyCredentials(email, password);
      if (!user) throw new AppError('invalid_login');
      return { ...newSession(user.id), user, org: repo.orgById(user.org_id)! };
    },

    /**
     * The shell's one-time token. With one person on the team it signs them in (the desktop's
     * user). With several, nobody is signed in: the window gets a short-lived choice (a random
     * cookie value, kept hashed in memory) to pick a member, who then gives their password, so a
     * shared install never lets one person act as another silently.
     */
    loginWithToken(token: string):
      | { kind: 'session'; token: string; expires: Date; user: UserRow; org: OrgRow }
      | { kind: 'choose'; choice: string; expires: Date; members: UserRow[] } {
      const given = Buffer.from(token);
      const valid = loginToken !== null && given.length === loginToken.length && timingSafeEqual(given, loginToken);
      if (!valid) throw new AppError('invalid_login_token');
      const org = repo.firstOrg();
      const members = org ? repo.membersOf(org.id) : [];
      if (!org || members.length === 0) throw new AppError('invalid_login_token', { message: 'Organization not set up yet' });
      loginToken = null;
      if (members.length === 1) return { kind: 'session', ...newSession(members[0]!.id), user: members[0]!, org };
      const choice = randomBytes(32).toString('base64url');
      const expires = clock.now() + DESKTOP_CHOICE_MS;
      for (const [h, c] of choices) if (c.expires <= clock.now()) choices.delete(h);
      choices.set(sha256Hex(choice), { orgId: org.id, expires });
      return { kind: 'choose', choice, expires: new Date(expires), members };
    },

    /** The members a desktop choice offers (the window reloaded). */
    desktopMembers(choice: string | undefined): UserRow[] {
      return repo.membersOf(choiceOf(choice).orgId);
    },

    /** The chosen member's password ends the choice with their session; a wrong one leaves it open. */
    async desktopLogin(choice: string | undefined, userId: number, password: string) {
      const { orgId } = choiceOf(choice);
      const user = repo.userById(userId);
      if (!user || user.org_id !== orgId || user.removed_at !== null) throw new AppError('member_not_found');
      if (!(await verifyPassword(password, user.password_hash))) throw new AppError('invalid_password');
      // Checked again after the await: two windows of one choice cannot both finish.
      choiceOf(choice);
      choices.delete(sha256Hex(choice!));
      return { ...newSession(user.id), user, org: repo.orgById(orgId)! };
    },

    /** Session issued right after first-run setup. */
    sessionFor(userId: number) {
      return newSession(userId);
    },

    resolveSession(token: string): SessionContext | null {
      const hash = sha256Hex(token);
      const row = repo.sessionByHash(hash);
      if (!row) return null;
      const now = clock.now();
      if (Date.parse(row.expires_at) <= now || Date.parse(row.idle_expires_at) <= now) {
        repo.deleteSession(hash);
        return null;
      }
      const user = repo.userById(row.user_id);
      const org = user && repo.orgById(user.org_id);
      if (!user || !org || user.removed_at !== null) return null;
      // Slide the idle window at most once a minute to keep writes off the hot path.
      if (Date.parse(row.idle_expires_at) - now < SESSION_IDLE_MS - 60_000) {
        repo.slideSession(hash, nowIso(now + SESSION_IDLE_MS));
        repo.touchUser(user.id, nowIso(now));
      }
      return { user, org, tokenHash: hash };
    },

    logout(tokenHash: string): void {
      repo.deleteSession(tokenHash);
    },

    /** The admin CLI's override: sets the plan whatever the team size. Returns the plan before. */
    setPlan(plan: Plan): OrgRow & { from: Plan } {
      return db
        .transaction(() => {
          const org = repo.firstOrg();
          if (!org) throw new AppError('account_not_found', { message: 'Organization not set up yet' });
          repo.setPlan(org.id, plan);
          return { ...repo.orgById(org.id)!, from: org.plan };
        })
        .immediate();
    },

    /**
     * The owner records the plan the organisation bought. A plan whose team size is below the
     * current team is refused: people would keep access the plan does not pay for.
     */
    changePlan(orgId: number, plan: Plan): { org: OrgRow; from: Plan; changed: boolean } {
      return db
        .transaction(() => {
          const org = repo.orgById(orgId);
          if (!org) throw new AppError('account_not_found', { message: 'Organization not set up yet' });
          if (org.plan === plan) return { org, from: org.plan, changed: false };
          // Pending invitations count toward the team size (account spec).
          const current = repo.countTeam(orgId, nowIso(clock.now()));
          const limit = teamOverLimit(plan, current);
          if (limit !== null) {
            throw new AppError('conflict', {
              field: 'plan',
              message: `The ${PLAN_INFO[plan].label} plan allows ${limit} ${limit === 1 ? 'person' : 'people'}; your team has ${current}. Remove members first.`,
              current,
              team_limit: limit,
            });
          }
          repo.setPlan(orgId, plan);
          return { org: repo.orgById(orgId)!, from: org.plan, changed: true };
        })
        .immediate();
    },

    purgeExpiredSessions(): void {
      repo.deleteExpiredSessions(nowIso(clock.now()));
    },
  };
}
export type Accounts = ReturnType<typeof createAccounts>;
