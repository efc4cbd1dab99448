// Hosted sessions: made by an API key, opened and completed by the person through the token in
// the URL. The token is returned once and only its SHA-256 is stored. Completion is single-use:
// the row moves to `completed` in one UPDATE that only an open, unexpired session matches.
import { randomBytes } from 'node:crypto';
import type { Environment } from '../../../../src-shared/catalog';
import type { Engine, Q } from '../../db/engine';
import type { Clock } from '../clock';
import { newId, nowIso, sha256Hex } from '../ids';
import type { PaidOnce } from '../verification/billing';
import type { HostedAttempt, HostedAttemptCheck } from '../../../../src-shared/contracts/hosted';
import { hostedSessionsRepo, type HostedRow } from './sessions-repo';

export type HostedProduct = 'human' | 'age' | 'identity' | 'compliance';
export type HostedState = 'created' | 'opened' | 'completed' | 'revoked' | 'expired';

/** A hosted session's row (the migrated schema's: db/tables.ts). `challenge_misses`: failed attempts
 * answered `retry`, the session staying open; `billed_verification_id`: the ledger row that bills
 * the session, its first billable act (migration 0012). */
export type { HostedRow } from './sessions-repo';

/** A failed attempt as it is kept: the failure code, the challenge's rule missed, the rules' numbers. */
export interface FailedAttempt {
  verificationId: string | null;
  reason: string | null;
  rule: HostedAttempt['rule'];
  checks: HostedAttemptCheck[];
}


export interface HostedSettings {
  product: HostedProduct;
  redirectUrl?: string | undefined;
  failureRedirectUrl?: string | undefined;
  expiresInHours: number;
  pageTitle?: string | undefined;
  successMessage?: string | undefined;
  failureMessage?: string | undefined;
  minAge?: number | undefined;
}

const hashOf = (token: string) => sha256Hex(`hosted:${token}`);

export function createHostedSessions(engine: Engine, clock: Clock) {
  const repo = hostedSessionsRepo(engine.dialect);
  const { q } = engine;
  const now = () => nowIso(clock.now());
  const record = (tx: Q, r: HostedRow, a: FailedAttempt) =>
    repo.attempt(tx, { session_id: r.id, at: now(), verification_id: a.verificationId, reason: a.reason, rule: a.rule, checks: JSON.stringify(a.checks) });
  /** The state as a person or an analyst sees it: an open session past its time is expired. */
  const stateOf = (r: HostedRow): HostedState => ((r.state === 'created' || r.state === 'opened') && r.expires_at <= now() ? 'expired' : r.state);

  return {
    stateOf,
    /** Sessions that ended failed since `sinceIso` (UTC, as stored), per environment. */
    async failedSince(orgId: number, sinceIso: string): Promise<Record<Environment, number>> {
      const out: Record<Environment, number> = { test: 0, live: 0 };
      for (const r of await repo.failedSince(q, orgId, sinceIso)) out[r.env] = Number(r.n);
      return out;
    },
    /** `tx`: the transaction that also writes the act's audit row, when there is one. */
    async create(owner: { orgId: number; env: Environment; keyId: string | null; flowId?: string }, s: HostedSettings, tx: Q = q): Promise<{ row: HostedRow; token: string }> {
      const token = randomBytes(32).toString('base64url');
      const created = clock.now();
      const row = {
        id: newId('hs'), token_hash: hashOf(token), org_id: owner.orgId, env: owner.env, api_key_id: owner.keyId, product: s.product,
        redirect_url: s.redirectUrl || null, failure_redirect_url: s.failureRedirectUrl || null, page_title: s.pageTitle ?? null,
        success_message: s.successMessage ?? null, failure_message: s.failureMessage ?? null, min_age: s.minAge ?? null,
        created_at: nowIso(created), expires_at: nowIso(created + s.expiresInHours * 3_600_000), flow_id: owner.flowId ?? null,
      };
      await repo.insert(tx, row);
      return { row: (await repo.byId(tx, row.id))!, token };
    },
    /** The session a URL token names (any state), or undefined. */
    byToken: async (token: string) => (token.length >= 20 && token.length <= 100 ? repo.byHash(q, hashOf(token)) : undefined),
    byId: (id: string, on: Q = q) => repo.byId(on, id),
    /** Marks the first visit; later visits change nothing. */
    open(r: HostedRow): Promise<void> {
      return repo.open(q, r.id, now());
    },
    /** Single use: true for the one call that completed it; a failure's attempt is recorded with it. */
    complete(r: HostedRow, verificationId: string, outcome: 'passed' | 'failed', failed?: FailedAttempt): Promise<boolean> {
      return engine.transaction(async (tx) => {
        if (!(await repo.complete(tx, r.id, verificationId, outcome, now()))) return false;
        if (failed) await record(tx, r, failed);
        return true;
      });
    },
    /** An age flow waiting for an ID document: the verification it continues. */
    setPending(r: HostedRow, verificationId: string): Promise<void> {
      return repo.pending(q, r.id, verificationId);
    },
    /**
     * A failed attempt the person may make again, while the session allows `allowed` misses:
     * counted and recorded, true (the session stays open for another); false when it allowed no
     * more (or is closed), and nothing is written.
     */
    miss(r: HostedRow, allowed: number, failed: FailedAttempt): Promise<boolean> {
      return engine.transaction(async (tx) => {
        if (!(await repo.miss(tx, r.id, now(), allowed))) return false;
        await record(tx, r, failed);
        return true;
      });
    },
    /** The session's failed attempts, oldest first (codes and numbers only). */
    async failedAttempts(id: string, on: Q = q): Promise<HostedAttempt[]> {
      return (await repo.attempts(on, id)).map((a) => ({
        attempt: a.attempt, at: a.at, verification_id: a.verification_id, reason: a.reason, rule: a.rule as HostedAttempt['rule'],
        checks: JSON.parse(a.checks) as HostedAttemptCheck[],
      }));
    },
    /**
     * One hosted session, one charge: its first billable act claims the session's charge in the
     * transaction that writes its ledger row; every later act (a recording after a missed
     * challenge) is a row of 0 credits. Read in that transaction (on PostgreSQL under the
     * session's row lock), two acts at once on two instances cannot both be the first.
     */
    paidOnce(r: HostedRow): PaidOnce {
      return {
        covered: async (tx = q) => (await repo.billedBy(tx, r.id)) !== null,
        claim: async (tx, verificationId) => {
          if (!(await repo.bill(tx, r.id, verificationId))) throw new Error('hosted session billed twice');
        },
      };
    },
    /** `tx`: the transaction that also writes the act's audit row, when there is one. */
    revoke: (id: string, orgId: number, tx: Q = q) => repo.revoke(tx, id, orgId),
    list: (orgId: number, env: Environment, limit = 200) => repo.list(q, orgId, env, limit),
  };
}
export type HostedSessions = ReturnType<typeof createHostedSessions>;
