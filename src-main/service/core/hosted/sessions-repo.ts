// SQL for hosted sessions and their failed attempts, on either engine (db/engine.ts): ids,
// states, times, the token's SHA-256 (never the token) and the attempts' rule codes; nothing the
// person sent. Each function takes the query builder to run on: the engine's, or the caller's
// transaction.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Environment } from '../../../../src-shared/catalog';
import { changedOne, type Dialect, type Q } from '../../db/engine';
import type { HostedAttemptsTable, HostedSessionsTable } from '../../db/tables';

export type HostedRow = Selectable<HostedSessionsTable>;
export type AttemptRow = Selectable<HostedAttemptsTable>;

const OPEN = ['created', 'opened'] as const;
const sessions = (q: Q) => q.selectFrom('hosted_sessions').selectAll();

export function hostedSessionsRepo(dialect: Dialect) {
  return {
    async insert(q: Q, row: Omit<Insertable<HostedSessionsTable>, 'state'>): Promise<void> {
      await q.insertInto('hosted_sessions').values({ ...row, state: 'created' }).execute();
    },
    byHash: (q: Q, hash: string): Promise<HostedRow | undefined> => sessions(q).where('token_hash', '=', hash).executeTakeFirst(),
    byId: (q: Q, id: string): Promise<HostedRow | undefined> => sessions(q).where('id', '=', id).executeTakeFirst(),
    async open(q: Q, id: string, at: string): Promise<void> {
      await q.updateTable('hosted_sessions').set({ state: 'opened', opened_at: at }).where('id', '=', id).where('state', '=', 'created').execute();
    },
    async complete(q: Q, id: string, verificationId: string, outcome: 'passed' | 'failed', at: string): Promise<boolean> {
      return changedOne(await q.updateTable('hosted_sessions').set({ state: 'completed', verification_id: verificationId, outcome, completed_at: at })
        .where('id', '=', id).where('state', 'in', OPEN).where('expires_at', '>', at).executeTakeFirst());
    },
    async pending(q: Q, id: string, verificationId: string): Promise<void> {
      await q.updateTable('hosted_sessions').set({ verification_id: verificationId }).where('id', '=', id).where('state', 'in', OPEN).execute();
    },
    async revoke(q: Q, id: string, orgId: number): Promise<boolean> {
      return changedOne(await q.updateTable('hosted_sessions').set({ state: 'revoked' })
        .where('id', '=', id).where('org_id', '=', orgId).where('state', 'in', OPEN).executeTakeFirst());
    },
    async miss(q: Q, id: string, at: string, allowed: number): Promise<boolean> {
      return changedOne(await q.updateTable('hosted_sessions').set((e) => ({ challenge_misses: sql<number>`${e.ref('challenge_misses')} + 1` }))
        .where('id', '=', id).where('state', 'in', OPEN).where('expires_at', '>', at).where('challenge_misses', '<', allowed).executeTakeFirst());
    },
    /**
     * The ledger row that bills the session, read in the charging transaction `q`; on PostgreSQL
     * with the session's row lock, so two acts of one session on two instances take turns to claim it.
     */
    async billedBy(q: Q, id: string): Promise<string | null> {
      let query = q.selectFrom('hosted_sessions').select('billed_verification_id').where('id', '=', id);
      if (dialect === 'postgres') query = query.forUpdate();
      return (await query.executeTakeFirst())?.billed_verification_id ?? null;
    },
    async bill(q: Q, id: string, verificationId: string): Promise<boolean> {
      return changedOne(await q.updateTable('hosted_sessions').set({ billed_verification_id: verificationId })
        .where('id', '=', id).where('billed_verification_id', 'is', null).executeTakeFirst());
    },
    failedSince: (q: Q, orgId: number, sinceIso: string): Promise<{ env: Environment; n: number }[]> =>
      q.selectFrom('hosted_sessions').select((e) => ['env', e.fn.countAll<number>().as('n')])
        .where('org_id', '=', orgId).where('state', '=', 'completed').where('outcome', '=', 'failed').where('completed_at', '>=', sinceIso)
        .groupBy('env').execute(),
    list: (q: Q, orgId: number, env: Environment, limit: number): Promise<HostedRow[]> =>
      sessions(q).where('org_id', '=', orgId).where('env', '=', env).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute(),
    /**
     * The next number in one statement: two attempts of one session recorded at once cannot take
     * the same (the caller's UPDATE of the session row, earlier in its transaction, also makes them take turns).
     */
    async attempt(q: Q, a: Omit<AttemptRow, 'attempt'>): Promise<void> {
      const text = (v: string | null) => sql`CAST(${v} AS TEXT)`;
      await sql`INSERT INTO hosted_attempts (session_id, attempt, at, verification_id, reason, rule, checks)
        SELECT ${text(a.session_id)}, COALESCE(MAX(attempt), 0) + 1, ${text(a.at)}, ${text(a.verification_id)}, ${text(a.reason)}, ${text(a.rule)}, ${text(a.checks)}
        FROM hosted_attempts WHERE session_id = ${a.session_id}`.execute(q);
    },
    attempts: (q: Q, id: string): Promise<AttemptRow[]> => q.selectFrom('hosted_attempts').selectAll().where('session_id', '=', id).orderBy('attempt').execute(),
  };
}
