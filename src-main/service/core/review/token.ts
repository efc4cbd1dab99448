// The review token of a batch result row: an HMAC over the batch, the row, the screening, the
// client reference and the open matches (entity, record version, score, kind of list, evidence flags). The console sends it back with a
// disposition, so the service knows which matches a disposition covers, and whether one is a
// strong sanctions match, without keeping any result. Pure: the batch worker computes it too.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { MatchEvidence } from '../../../../src-shared/contracts/review';
import type { ListKind } from '../../../../src-shared/contracts/screening';

export interface ReviewBasis {
  batch_id: string;
  row: number;
  screening_id: string;
  /** The row's client reference as the batch echoed it, or null. */
  client_reference_id: string | null;
  matches: readonly { entity_id: string; record_hash: string; score: number; list: ListKind; evidence: MatchEvidence }[];
}

export function reviewToken(key: Buffer, b: ReviewBasis): string {
  const canonical = JSON.stringify([
    b.batch_id, b.row, b.screening_id, b.client_reference_id, b.matches.map((m) => [m.entity_id, m.record_hash, m.score, m.list, m.evidence.dob, m.evidence.country, m.evidence.exact_name]),
  ]);
  return createHmac('sha256', key).update(canonical).digest('base64url');
}

export function reviewTokenValid(key: Buffer, b: ReviewBasis, token: string): boolean {
  const expected = Buffer.from(reviewToken(key, b));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
