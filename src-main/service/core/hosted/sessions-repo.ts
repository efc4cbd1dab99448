// SQL for hosted sessions and their failed attempts: ids, states, times, the token's SHA-256
// (never the token) and the attempts' rule codes; nothing the person sent.
import type { Environment } from '../../../../src-shared/catalog';
import type { Db } from '../../db/open';
import type { HostedRow } from './sessions';

export interface AttemptRow { session_id: string; attempt: number; at: string; verification_id: string | null; reason: string | null; rule: string | null; checks: string }

export function hostedSessionsRepo(db: Db) {
  return {
    insert: db.prepare(
      `INSERT INTO hosted_sessions (id, token_hash, org_id, env, api_key_id, product, redirect_url, failure_redirect_url, page_title,
         success_message, failure_message, min_age, state, created_at, expires_at, flow_id)
       VALUES (@id, @token_hash, @org_id, @env, @api_key_id, @product, @redirect_url, @failure_redirect_url, @page_title,
         @success_message, @failure_message, @min_age, 'created', @created_at, @expires_at, @flow_id)`,
    ),
    byHash: db.prepare<[string], HostedRow>('SELECT * FROM hosted_sessions WHERE token_hash = ?'),
    byId: db.prepare<[string], HostedRow>('SELECT * FROM hosted_sessions WHERE id = ?'),
    open: db.prepare("UPDATE hosted_sessions SET state = 'opened', opened_at = @at WHERE id = @id AND state = 'created'"),
    complete: db.prepare(
      `UPDATE hosted_sessions SET state = 'completed', verification_id = @verification_id, outcome = @outcome, completed_at = @at
       WHERE id = @id AND state IN ('created','opened') AND expires_at > @at`,
    ),
    pending: db.prepare("UPDATE hosted_sessions SET verification_id = @verification_id WHERE id = @id AND state IN ('created','opened')"),
    revoke: db.prepare("UPDATE hosted_sessions SET state = 'revoked' WHERE id = @id AND org_id = @org AND state IN ('created','opened')"),
    miss: db.prepare(
      `UPDATE hosted_sessions SET challenge_misses = challenge_misses + 1
       WHERE id = @id AND state IN ('created','opened') AND expires_at > @at AND challenge_misses < @allowed`,
    ),
    billedBy: db.prepare<[string], { billed_verification_id: string | null }>('SELECT billed_verification_id FROM hosted_sessions WHERE id = ?'),
    bill: db.prepare('UPDATE hosted_sessions SET billed_verification_id = @verification_id WHERE id = @id AND billed_verification_id IS NULL'),
    failedSince: db.prepare<[number, string], { env: Environment; n: number }>(
      "SELECT env, count(*) AS n FROM hosted_sessions WHERE org_id = ? AND state = 'completed' AND outcome = 'failed' AND completed_at >= ? GROUP BY env",
    ),
    list: db.prepare<[number, string, number], HostedRow>('SELECT * FROM hosted_sessions WHERE org_id = ? AND env = ? ORDER BY created_at DESC, id DESC LIMIT ?'),
    // The next number in one statement: two attempts recorded at once cannot take the same.
    attempt: db.prepare(
      `INSERT INTO hosted_attempts (session_id, attempt, at, verification_id, reason, rule, checks)
       SELECT @session_id, COALESCE(MAX(attempt), 0) + 1, @at, @verification_id, @reason, @rule, @checks FROM hosted_attempts WHERE session_id = @session_id`,
    ),
    attempts: db.prepare<[string], AttemptRow>('SELECT * FROM hosted_attempts WHERE session_id = ? ORDER BY attempt'),
  };
}
