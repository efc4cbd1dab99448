// Organisation, users and dashboard sessions. A data directory holds one organisation
// (a desktop install); users are its team.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../../src-shared/errors';
import { PLAN_INFO, type Plan, type Role } from '../../../../src-shared/catalog';
import type { Organization, User } from '../../../../src-shared/contracts/accounts';
import type { Engine, Q } from '../../db/engine';
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

/** First runs take turns (Engine.exclusive): one organisation per install, whatever the instance. */
const SETUP_LOCK = 4_310_301;

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

export function createAccounts(engine: Engine, clock: Clock, opts: { loginToken?: string } = {}) {
  const repo = accountsRepo(engine.dialect);
  const { q } = engine;
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

  async function newSession(userId: number): Promise<{ token: string; expires: Date }> {
    const token = randomBytes(32).toString('base64url');
    const now = clock.now();
    const expires = new Date(now + SESSION_MAX_MS);
    await engine.transaction(async (tx) => {
      await repo.insertSession(tx, sha256Hex(token), userId, nowIso(now), expires.toISOString(), nowIso(now + SESSION_IDLE_MS));
      await repo.touchUser(tx, userId, nowIso(now));
    });
    return { token, expires };
  }

  /** The user these credentials belong to, or null; as slow for unknown e-mails as for known ones. */
  async function verifyCredentials(email: string, password: string): Promise<UserRow | null> {
    const user = await repo.userByEmail(q, email);
    const ok = await verifyPassword(password, user?.password_hash ?? (await dummyHash()));
    return user && ok ? user : null;
  }

  return {
    /** The SQL, for modules that read people and organisations on their own transaction. */
    repo,

    async needsSetup(): Promise<boolean> {
      return (await repo.firstOrg(q)) === undefined;
    },

    /** The install's organisation (a data directory holds one), once set up. */
    organization(): Promise<OrgRow | undefined> {
      return repo.firstOrg(q);
    },

    orgById: (id: number): Promise<OrgRow | undefined> => repo.orgById(q, id),
    userById: (id: number): Promise<UserRow | undefined> => repo.userById(q, id),
    userByEmail: (email: string): Promise<UserRow | undefined> => repo.userByEmail(q, email),
    anyUserByEmail: (email: string): Promise<UserRow | undefined> => repo.anyUserByEmail(q, email),
    ownerOf: (orgId: number): Promise<UserRow | undefined> => repo.ownerOf(q, orgId),
    /** Every user row ever in the organisation, removed ones included (the audit log names them). */
    usersOf: (orgId: number): Promise<UserRow[]> => repo.usersOf(q, orgId),
    /** The team: users not removed. */
    membersOf: (orgId: number): Promise<UserRow[]> => repo.membersOf(q, orgId),

    /** First run: creates the organisation and its owner. Refused once an organisation exists. */
    async setup(input: { organization: string; name: string; email: string; password: string; plan?: Plan }) {
      const passwordHash = await hashPassword(input.password);
      const at = nowIso(clock.now());
      return engine.transaction(async (tx) => {
        // Two first runs at once (two instances on an empty database): one organisation.
        await engine.exclusive(tx, SETUP_LOCK);
        if (await repo.firstOrg(tx)) throw new AppError('already_set_up');
        const orgId = await repo.insertOrg(tx, input.organization, input.plan ?? 'free', at);
        const userId = await repo.insertUser(tx, {
          orgId, email: input.email, name: input.name, passwordHash, role: 'owner', billing: true, at,
        });
        return { org: (await repo.orgById(tx, orgId))!, user: (await repo.userById(tx, userId))! };
      });
    },

    /** A user added as is (no plan check, no audit row): set-up and tests; people join by invitation or `addMember`. */
    async addUser(input: { orgId: number; email: string; name: string; password: string; role: Role; billing?: boolean }) {
      const passwordHash = await hashPassword(input.password);
      return this.insertUser({ ...input, passwordHash });
    },

    /** Writes the user (password already hashed); in the caller's transaction when it has one. */
    async insertUser(input: { orgId: number; email: string; name: string; passwordHash: string; role: Role; billing?: boolean }, tx: Q = q): Promise<UserRow> {
      const id = await repo.insertUser(tx, {
        orgId: input.orgId, email: input.email, name: input.name, passwordHash: input.passwordHash,
        role: input.role, billing: input.billing ?? false, at: nowIso(clock.now()),
      });
      return (await repo.userById(tx, id))!;
    },

    verifyCredentials,

    async login(email: string, password: string) {
      const user = await verifyCredentials(email, password);
      if (!user) throw new AppError('invalid_login');
      return { ...(await newSession(user.id)), user, org: (await repo.orgById(q, user.org_id))! };
    },

    /**
     * The shell's one-time token. With one person on the team it signs them in (the desktop's
     * user). With several, nobody is signed in: the window gets a short-lived choice (a random
     * cookie value, kept hashed in memory) to pick a member, who then gives their password, so a
     * shared install never lets one person act as another silently.
     */
    async loginWithToken(token: string): Promise<
      | { kind: 'session'; token: string; expires: Date; user: UserRow; org: OrgRow }
      | { kind: 'choose'; choice: string; expires: Date; members: UserRow[] }> {
      const given = Buffer.from(token);
      const valid = loginToken !== null && given.length === loginToken.length && timingSafeEqual(given, loginToken);
      if (!valid) throw new AppError('invalid_login_token');
      const org = await repo.firstOrg(q);
      const members = org ? await repo.membersOf(q, org.id) : [];
      if (!org || members.length === 0) throw new AppError('invalid_login_token', { message: 'Organization not set up yet' });
      // Checked again after the reads: two windows given one token cannot both use it.
      if (loginToken === null) throw new AppError('invalid_login_token');
      loginToken = null;
      if (members.length === 1) return { kind: 'session', ...(await newSession(members[0]!.id)), user: members[0]!, org };
      const choice = randomBytes(32).toString('base64url');
      const expires = clock.now() + DESKTOP_CHOICE_MS;
      for (const [h, c] of choices) if (c.expires <= clock.now()) choices.delete(h);
      choices.set(sha256Hex(choice), { orgId: org.id, expires });
      return { kind: 'choose', choice, expires: new Date(expires), members };
    },

    /** The members a desktop choice offers (the window reloaded). */
    desktopMembers(choice: string | undefined): Promise<UserRow[]> {
      return repo.membersOf(q, choiceOf(choice).orgId);
    },

    /** The chosen member's password ends the choice with their session; a wrong one leaves it open. */
    async desktopLogin(choice: string | undefined, userId: number, password: string) {
      const { orgId } = choiceOf(choice);
      const user = await repo.userById(q, userId);
      if (!user || user.org_id !== orgId || user.removed_at !== null) throw new AppError('member_not_found');
      if (!(await verifyPassword(password, user.password_hash))) throw new AppError('invalid_password');
      // Checked again after the await: two windows of one choice cannot both finish.
      choiceOf(choice);
      choices.delete(sha256Hex(choice!));
      return { ...(await newSession(user.id)), user, org: (await repo.orgById(q, orgId))! };
    },

    /** Session issued right after first-run setup. */
    sessionFor(userId: number) {
      return newSession(userId);
    },

    /** The signed-in person of a session cookie, on any instance (sessions live in the database). */
    async resolveSession(token: string): Promise<SessionContext | null> {
      const hash = sha256Hex(token);
      const row = await repo.sessionByHash(q, hash);
      if (!row) return null;
      const now = clock.now();
      if (Date.parse(row.expires_at) <= now || Date.parse(row.idle_expires_at) <= now) {
        await repo.deleteSession(q, hash);
        return null;
      }
      const user = await repo.userById(q, row.user_id);
      const org = user && (await repo.orgById(q, user.org_id));
      if (!user || !org || user.removed_at !== null) return null;
      // Slide the idle window at most once a minute to keep writes off the hot path.
      if (Date.parse(row.idle_expires_at) - now < SESSION_IDLE_MS - 60_000) {
        await engine.transaction(async (tx) => {
          await repo.slideSession(tx, hash, nowIso(now + SESSION_IDLE_MS));
          await repo.touchUser(tx, user.id, nowIso(now));
        });
      }
      return { user, org, tokenHash: hash };
    },

    /** Ends the session, on `tx` when the caller has a transaction (its audit row). */
    logout(tokenHash: string, tx: Q = q): Promise<void> {
      return repo.deleteSession(tx, tokenHash);
    },

    /** The admin CLI's override: sets the plan whatever the team size. Returns the plan before. */
    async setPlan(plan: Plan, tx: Q): Promise<OrgRow & { from: Plan }> {
      const org = await repo.firstOrg(tx);
      if (!org) throw new AppError('account_not_found', { message: 'Organization not set up yet' });
      await repo.setPlan(tx, org.id, plan);
      return { ...(await repo.orgById(tx, org.id))!, from: org.plan };
    },

    /**
     * The owner records the plan the organisation bought. A plan whose team size is below the
     * current team is refused: people would keep access the plan does not pay for.
     */
    async changePlan(orgId: number, plan: Plan, tx: Q): Promise<{ org: OrgRow; from: Plan; changed: boolean }> {
      await repo.lockOrg(tx, orgId);
      const org = await repo.orgById(tx, orgId);
      if (!org) throw new AppError('account_not_found', { message: 'Organization not set up yet' });
      if (org.plan === plan) return { org, from: org.plan, changed: false };
      // Pending invitations count toward the team size (account spec).
      const current = await repo.countTeam(tx, orgId, nowIso(clock.now()));
      const limit = teamOverLimit(plan, current);
      if (limit !== null) {
        throw new AppError('conflict', {
          field: 'plan',
          message: `The ${PLAN_INFO[plan].label} plan allows ${limit} ${limit === 1 ? 'person' : 'people'}; your team has ${current}. Remove members first.`,
          current,
          team_limit: limit,
        });
      }
      await repo.setPlan(tx, orgId, plan);
      return { org: (await repo.orgById(tx, orgId))!, from: org.plan, changed: true };
    },

    purgeExpiredSessions(): Promise<void> {
      return repo.deleteExpiredSessions(q, nowIso(clock.now()));
    },
  };
}
export type Accounts = ReturnType<typeof createAccounts>;
