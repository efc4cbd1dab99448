// SQL for organisations, users and sessions.
import type { Db } from '../../db/open';
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

export function accountsRepo(db: Db) {
  const s = {
    firstOrg: db.prepare<[], OrgRow>('SELECT * FROM organizations ORDER BY id LIMIT 1'),
    orgById: db.prepare<[number], OrgRow>('SELECT * FROM organizations WHERE id = ?'),
    insertOrg: db.prepare<[string, Plan, string]>('INSERT INTO organizations (name, plan, created_at) VALUES (?, ?, ?)'),
    setPlan: db.prepare<[Plan, number]>('UPDATE organizations SET plan = ? WHERE id = ?'),
    setFourEyes: db.prepare<[number, number]>('UPDATE organizations SET four_eyes = ? WHERE id = ?'),
    userByEmail: db.prepare<[string], UserRow>('SELECT * FROM users WHERE email = ? AND removed_at IS NULL'),
    anyUserByEmail: db.prepare<[string], UserRow>('SELECT * FROM users WHERE email = ?'),
    userById: db.prepare<[number], UserRow>('SELECT * FROM users WHERE id = ?'),
    ownerOf: db.prepare<[number], UserRow>("SELECT * FROM users WHERE org_id = ? AND role = 'owner' ORDER BY id LIMIT 1"),
    countUsers: db.prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM users WHERE org_id = ? AND removed_at IS NULL'),
    countTeam: db.prepare<[number, string, number], { n: number }>(
      `SELECT (SELECT COUNT(*) FROM team_invitations WHERE org_id = ? AND accepted_at IS NULL AND cancelled_at IS NULL AND expires_at > ?)
            + (SELECT COUNT(*) FROM users WHERE org_id = ? AND removed_at IS NULL) AS n`,
    ),
    membersOf: db.prepare<[number], UserRow>('SELECT * FROM users WHERE org_id = ? AND removed_at IS NULL ORDER BY id'),
    usersOf: db.prepare<[number], UserRow>('SELECT * FROM users WHERE org_id = ? ORDER BY id'),
    insertUser: db.prepare<[number, string, string, string, Role, number, string, string]>(
      'INSERT INTO users (org_id, email, name, password_hash, role, billing, created_at, joined_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    touchUser: db.prepare<[string, number]>('UPDATE users SET last_active_at = ? WHERE id = ?'),
    insertSession: db.prepare<[string, number, string, string, string]>(
      'INSERT INTO sessions (token_hash, user_id, created_at, expires_at, idle_expires_at) VALUES (?, ?, ?, ?, ?)',
    ),
    sessionByHash: db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE token_hash = ?'),
    slideSession: db.prepare<[string, string]>('UPDATE sessions SET idle_expires_at = ? WHERE token_hash = ?'),
    deleteSession: db.prepare<[string]>('DELETE FROM sessions WHERE token_hash = ?'),
    deleteExpiredSessions: db.prepare<[string, string]>('DELETE FROM sessions WHERE expires_at < ? OR idle_expires_at < ?'),
  };
  return {
    firstOrg: () => s.firstOrg.get(),
    orgById: (id: number) => s.orgById.get(id),
    insertOrg: (name: string, plan: Plan, at: string) => Number(s.insertOrg.run(name, plan, at).lastInsertRowid),
    setPlan: (orgId: number, plan: Plan) => s.setPlan.run(plan, orgId).changes,
    setFourEyes: (orgId: number, on: boolean) => s.setFourEyes.run(on ? 1 : 0, orgId).changes,
    /** An active user (not removed from a team). */
    userByEmail: (email: string) => s.userByEmail.get(email),
    /** Any user row with this e-mail, removed ones included (e-mails are unique across rows). */
    anyUserByEmail: (email: string) => s.anyUserByEmail.get(email),
    userById: (id: number) => s.userById.get(id),
    ownerOf: (orgId: number) => s.ownerOf.get(orgId),
    countUsers: (orgId: number) => s.countUsers.get(orgId)?.n ?? 0,
    /** Team size as the plan counts it: active members plus pending invitations at `at`. */
    countTeam: (orgId: number, at: string) => s.countTeam.get(orgId, at, orgId)?.n ?? 0,
    /** Every user row ever in the organisation, removed ones included (the audit log names them). */
    usersOf: (orgId: number) => s.usersOf.all(orgId),
    /** The team: users not removed. */
    membersOf: (orgId: number) => s.membersOf.all(orgId),
    insertUser: (u: { orgId: number; email: string; name: string; passwordHash: string; role: Role; billing: boolean; at: string }) =>
      Number(s.insertUser.run(u.orgId, u.email, u.name, u.passwordHash, u.role, u.billing ? 1 : 0, u.at, u.at).lastInsertRowid),
    touchUser: (id: number, at: string) => s.touchUser.run(at, id),
    insertSession: (hash: string, userId: number, at: string, expires: string, idle: string) =>
      s.insertSession.run(hash, userId, at, expires, idle),
    sessionByHash: (hash: string) => s.sessionByHash.get(hash),
    slideSession: (hash: string, idle: string) => s.slideSession.run(idle, hash),
    deleteSession: (hash: string) => s.deleteSession.run(hash),
    deleteExpiredSessions: (at: string) => s.deleteExpiredSessions.run(at, at),
  };
}
export type AccountsRepo = ReturnType<typeof accountsRepo>;
