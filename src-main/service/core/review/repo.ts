// SQL for the clearances waiting for, or given, a second person's approval (four-eyes): ids,
// codes, hashes and flags only, never a customer's name or the listed record.
import type { Clearance, Contradiction } from '../../../../src-shared/contracts/review';
import type { Db } from '../../db/open';

export interface ClearanceRow {
  id: string;
  org_id: number;
  batch_id: string;
  row_number: number;
  screening_id: string;
  entity_ids: string;
  record_hashes: string;
  reason_code: Clearance['reason_code'];
  has_note: number;
  client_ref_hmac: string | null;
  state: Clearance['state'];
  requested_by: number;
  requested_at: string;
  decided_by: number | null;
  decided_at: string | null;
  override_contradiction: Contradiction | null;
  /** Per match: [kind of list, score, dob, country, exact name] (migration 0021; null before it). */
  match_flags: string | null;
}

export function clearanceRepo(db: Db) {
  return {
    insert: db.prepare(
      `INSERT INTO clearances (id, org_id, batch_id, row_number, screening_id, entity_ids, record_hashes, reason_code, has_note, client_ref_hmac, state, requested_by, requested_at, override_contradiction, match_flags)
       VALUES (@id, @org_id, @batch_id, @row_number, @screening_id, @entity_ids, @record_hashes, @reason_code, @has_note, @client_ref_hmac, 'pending', @requested_by, @requested_at, @override_contradiction, @match_flags)`,
    ),
    byId: db.prepare<[string], ClearanceRow>('SELECT * FROM clearances WHERE id = ?'),
    pendingFor: db.prepare<[number, string, number], ClearanceRow>(
      "SELECT * FROM clearances WHERE org_id = ? AND batch_id = ? AND row_number = ? AND state = 'pending'",
    ),
    pendingCount: db.prepare<[number], { n: number }>("SELECT count(*) AS n FROM clearances WHERE org_id = ? AND state = 'pending'"),
    pendingOf: db.prepare<[number], ClearanceRow>("SELECT * FROM clearances WHERE org_id = ? AND state = 'pending' ORDER BY requested_at, id LIMIT 500"),
    ofBatch: db.prepare<[number, string, number], ClearanceRow>(
      'SELECT * FROM clearances WHERE org_id = ? AND batch_id = ? AND requested_by = ? ORDER BY requested_at, id',
    ),
    setState: db.prepare<[Clearance['state'], number | null, string | null, string]>(
      'UPDATE clearances SET state = ?, decided_by = ?, decided_at = ? WHERE id = ?',
    ),
  };
}
