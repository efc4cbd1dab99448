// The audit log's words for batches others ended: an expiry by the service ("System") and an
// administrator's End (whose batch it was), in the table and in the CSV export.
import { describe, expect, it } from 'vitest';
import { auditCsv, AuditEntry } from '../../../../src-shared/contracts/audit';
import { actorText, ACTION_LABEL, auditDetail } from './audit-labels';

const base = AuditEntry.parse({
  seq: 7, at: '2026-01-15T12:10:00.000Z', actor: { kind: 'system', user_id: null, email: null, role: null }, action: 'batch.expired', env: 'test',
  screening_id: null, batch_id: 'bat_1234567890abcdef', row_number: null, entity_ids: [], record_hashes: [], disposition: null, reason_code: null,
  has_note: null, clearance_id: null, approver: null, key_id: null, list_id: null, setting: null, from_value: null, to_value: null,
  count_total: 30, count_done: 20, count_failed: 1, risk_score: null, target: { user_id: 4, email: 'mo.member@example.test' }, client_ref_hmac: null,
  invitation_id: null, prev_hash: '0'.repeat(64), hash: 'a'.repeat(64),
});

describe('batches ended by someone else', () => {
  it('an expiry: by System, whose batch, its counts and why', () => {
    expect(actorText(base)).toBe('System');
    expect(ACTION_LABEL['batch.expired']).toBe('Batch expired');
    expect(auditDetail(base)).toBe('batch bat_1234567890abcdef of mo.member@example.test · 20 of 30 rows screened, 1 failed · no activity for 10 minutes');
    expect(auditCsv([base]).split('\r\n')[1]!.split(',').slice(2, 5)).toEqual(['system', '', 'batch.expired']);
  });

  it('an administrator\'s End: who ended it is the actor, whose batch the detail', () => {
    const e: AuditEntry = { ...base, action: 'batch.cancelled', actor: { kind: 'user', user_id: 2, email: 'ada.admin@example.test', role: 'admin' } };
    expect(actorText(e)).toBe('ada.admin@example.test');
    expect(auditDetail(e)).toBe('batch bat_1234567890abcdef of mo.member@example.test · 20 of 30 rows screened, 1 failed');
    // An analyst's own cancel names nobody else.
    expect(auditDetail({ ...e, target: null })).toBe('batch bat_1234567890abcdef · 20 of 30 rows screened, 1 failed');
  });
});
