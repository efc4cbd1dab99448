// Hosted sessions: made by an API key, opened and completed by the person through the token in
// the URL. The token is returned once and only its SHA-256 is stored. Completion is single-use:
// the row moves to `completed` in one UPDATE that only an open, unexpired session matches.
import { randomBytes } from 'node:crypto';
import type { Environment } from '../../../../src-shared/catalog';
import type { Db } from '../../db/open';
import type { Clock } from '../clock';
import { newId, nowIso, sha256Hex } from '../ids';
import type { PaidOnce } from '../verification/billing';
import type { HostedAttempt, HostedAttemptCheck } from '../../../../src-shared/contracts/hosted';
import { hostedSessionsRepo } from './sessions-repo';

export type HostedProduct = 'human' | 'age' | 'identity' | 'compliance';
export type HostedState = 'created' | 'opened' | 'completed' | 'revoked' | 'expired';

export interface HostedRow {
  id: string;
  token_hash: string;
  org_id: number;
  env: Environment;
  api_key_id: string | null;
  product: HostedProduct;
  redirect_url: string | null;
  failure_redirect_url: string | null;
  page_title: string | null;
  success_message: string | null;
  failure_message: string | null;
  min_age: number | null;
  state: Exclude<HostedState, 'expired'>;
  verification_id: string | null;
  outcome: 'passed' | 'failed' | null;
  created_at: string;
  expires_at: string;
  opened_at: string | null;
  completed_at: string | null;
  /** The published flow this session was started from, if any. */
  flow_id: string | null;
  /**
   * Failed attempts answered `retry`, the session staying open (migration 0012 for the liveness
   * challenge's recordings; since issue 26 every product's failure a person can fix).
   */
  challenge_misses: number;
  /** The ledger row that bills this session: its first billable act (migration 0012). */
  billed_verification_id: string | null;
}

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

export function createHostedSessions(db: Db, clock: Clock) {
  const q = hostedSessionsRepo(db);
  const record = (r: HostedRow, a: FailedAttempt) => {
    q.attempt.run({ session_id: r.id, at: now(), verification_id: a.verificationId, reason: a.reason, rule: a.rule, checks: JSON.stringify(a.checks) });
  };
  const now = () => nowIso(clock.now());
  /** The state as a person or an analyst sees it: an open session past its time is expired. */
  const stateOf = (r: HostedRow): HostedState => ((r.state === 'created' || r.state === 'opened') && r.expires_at <= now() ? 'expired' : r.state);

  return {
    stateOf,
    /** Sessions that ended failed since `sinceIso` (UTC, as stored), per environment. */
    failedSince(orgId: number, sinceIso: string): Record<Environment, number> {
      const out: Record<Environment, number> = { test: 0, live: 0 };
      for (const r of q.failedSince.all(orgId, sinceIso)) out[r.env] = r.n;
      return out;
    },
    create(owner: { orgId: number; env: Environment; keyId: string | null; flowId?: string }, s: HostedSettings): { row: HostedRow; token: string } {
      const token = randomBytes(32).toString('base64url');
      const created = clock.now();
      const row = {
        id: newId('hs'), token_hash: hashOf(token), org_id: owner.orgId, env: owner.env, api_key_id: owner.keyId, product: s.product,
        redirect_url: s.redirectUrl || null, failure_redirect_url: s.failureRedirectUrl || null, page_title: s.pageTitle ?? null,
        success_message: s.successMessage ?? null, failure_message: s.failureMessage ?? null, min_age: s.minAge ?? null,
        created_at: nowIso(created), expires_at: nowIso(created + s.expiresInHours * 3_600_000), flow_id: owner.flowId ?? null,
      };
      q.insert.run(row);
      return { row: q.byId.get(row.id)!, token };
    },
    /** The session a URL token names (any state), or undefined. */
    byToken: (token: string) => (token.length >= 20 && token.length <= 100 ? q.byHash.get(hashOf(token)) : undefined),
    byId: (id: string) => q.byId.get(id),
    /** Marks the first visit; later visits change nothing. */
    open(r: HostedRow): void {
      q.open.run({ id: r.id, at: now() });
    },
    /** Single use: true for the one call that completed it; a failure's attempt is recorded with it. */
    complete(r: HostedRow, verificationId: string, outcome: 'passed' | 'failed', failed?: FailedAttempt): boolean {
      return db.transaction(() => {
        if (q.complete.run({ id: r.id, verification_id: verificationId, outcome, at: now() }).changes !== 1) return false;
        if (failed) record(r, failed);
        return true;
      })();
    },
    /** An age flow waiting for an ID document: the verification it continues. */
    setPending(r: HostedRow, verificationId: string): void {
      q.pending.run({ id: r.id, verification_id: verificationId });
    },
    /**
     * A failed attempt the person may make again, while the session allows `allowed` misses:
     * counted and recorded, true (the session stays open for another); false when it allowed no
     * more (or is closed), and nothing is written.
     */
    miss(r: HostedRow, allowed: number, failed: FailedAttempt): boolean {
      return db.transaction(() => {
        if (q.miss.run({ id: r.id, at: now(), allowed }).changes !== 1) return false;
        record(r, failed);
        return true;
      })();
    },
    /** The session's failed attempts, oldest first (codes and numbers only). */
    failedAttempts: (id: string): HostedAttempt[] => q.attempts.all(id).map((a) => ({
      attempt: a.attempt, at: a.at, verification_id: a.verification_id, reason: a.reason, rule: a.rule as HostedAttempt['rule'],
      checks: JSON.parse(a.checks) as HostedAttemptCheck[],
    })),
    /**
     * One hosted session, one charge: its first billable act claims the session's charge in the
     * transaction that writes its ledger row; every later act (a recording after a missed
     * challenge) is a row of 0 credits.
     */
    paidOnce(r: HostedRow): PaidOnce {
      return {
        covered: () => q.billedBy.get(r.id)?.billed_verification_id != null,
        claim: (verificationId: string) => {
          if (q.bill.run({ id: r.id, verification_id: verificationId }).changes !== 1) throw new Error('hosted session billed twice');
        },
      };
    },
    revoke: (id: string, orgId: number) => q.revoke.run({ id, org: orgId }).changes === 1,
    list: (orgId: number, env: Environment, limit = 200) => q.list.all(orgId, env, limit),
  };
}
export type HostedSessions = ReturnType<typeof createHostedSessions>;
