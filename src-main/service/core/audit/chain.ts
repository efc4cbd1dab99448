// The audit log's hash chain: each row's hash is an HMAC (key derived from the install secret)
// of the previous row's hash and the row's own columns in a fixed order. Editing, removing or
// inserting a row breaks the chain at that row; without the key it cannot be re-computed.
import { createHmac } from 'node:crypto';
import type { AuditVerification } from '../../../../src-shared/contracts/audit';

/** Every column that the hash covers, in the order it covers them. */
export const CHAINED_COLUMNS = [
  'seq', 'at', 'org_id', 'actor_kind', 'actor_id', 'actor_role', 'action', 'env', 'screening_id', 'batch_id', 'row_number',
  'entity_ids', 'record_hashes', 'disposition', 'reason_code', 'has_note', 'clearance_id', 'approver_user_id', 'key_id', 'list_id',
  'setting', 'from_value', 'to_value', 'count_total', 'count_done', 'count_failed', 'risk_score', 'target_user_id', 'client_ref_hmac',
  // Added by migration 8 (team). Columns added later are hashed only when set, so every row
  // written before them keeps the hash it was written with.
  'invitation_id',
  // Added by migration 13 (clearance override).
  'override_contradiction',
  // Added by migration 18 (a complete audit log): the object an act was about.
  'object_id',
  // Added by migration 26 (the team server): the address a person acted from.
  'source_address',
] as const;
/** How many columns the first version of the log hashed; later ones are left out while null. */
const FIRST_COLUMNS = 29;
export type ChainedColumn = (typeof CHAINED_COLUMNS)[number];

export type AuditRow = Record<ChainedColumn, string | number | null> & { seq: number; prev_hash: string; hash: string };

function canonical(row: Record<ChainedColumn, string | number | null>): (string | number | null)[] {
  const values = CHAINED_COLUMNS.map((c) => row[c] ?? null);
  while (values.length > FIRST_COLUMNS && values[values.length - 1] === null) values.pop();
  return values;
}

export const GENESIS = '0'.repeat(64);

export function rowHash(key: Buffer, prevHash: string, row: Record<ChainedColumn, string | number | null>): string {
  return createHmac('sha256', key)
    .update(prevHash)
    .update('\n')
    .update(JSON.stringify(canonical(row)))
    .digest('hex');
}

/**
 * Walks the rows in seq order. `head` is the last row the service wrote (kept beside the log), so
 * rows cut off the end are found too.
 */
export async function verifyRows(rows: AsyncIterable<AuditRow>, key: Buffer, head: { seq: number; hash: string } | null): Promise<AuditVerification> {
  let expected = 1;
  let prev = GENESIS;
  let count = 0;
  const bad = (seq: number, reason: string): AuditVerification => ({ ok: false, rows: count, first_bad_seq: seq, reason });
  for await (const row of rows) {
    if (row.seq !== expected) return bad(expected, `row ${expected} is missing`);
    if (row.prev_hash !== prev) return bad(row.seq, `row ${row.seq} does not follow row ${row.seq - 1}`);
    if (rowHash(key, prev, row) !== row.hash) return bad(row.seq, `row ${row.seq} was changed after it was written`);
    prev = row.hash;
    count++;
    expected++;
  }
  const last = count;
  if (head) {
    if (head.seq > last) return bad(last + 1, `rows ${last + 1} to ${head.seq} are missing from the end`);
    if (head.seq < last) return bad(head.seq + 1, `row ${head.seq + 1} was added outside the service`);
    if (head.hash !== prev) return bad(last, `row ${last} was changed after it was written`);
  } else if (last > 0) {
    return bad(1, 'the record of the last row written is missing');
  }
  return { ok: true, rows: count, head_seq: last, head_hash: prev };
}
