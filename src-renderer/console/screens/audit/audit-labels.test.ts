// The audit log's words for the acts that change what the service exposes (issue 26): every
// action has a label, and each detail line is built from ids, codes and counts alone; and for
// batches others ended: an expiry by the service ("System") and an administrator's End.
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_LABEL, AUDIT_ACTIONS, auditCsv, AuditEntry } from '../../../../src-shared/contracts/audit';
import { actorText, auditDetail } from './audit-labels';

const base: AuditEntry = {
  seq: 1, at: '2026-11-27T10:00:00.000Z', actor: { kind: 'user', user_id: 1, email: 'owner@example.test', role: 'owner' }, action: 'screened',
  env: null, screening_id: null, batch_id: null, row_number: null, entity_ids: [], record_hashes: [], disposition: null, reason_code: null,
  has_note: null, clearance_id: null, approver: null, key_id: null, list_id: null, setting: null, from_value: null, to_value: null,
  count_total: null, count_done: null, count_failed: null, risk_score: null, target: null, client_ref_hmac: null, invitation_id: null,
  override_contradiction: null, object_id: null, source_address: null, prev_hash: '0'.repeat(64), hash: 'a'.repeat(64),
};
const e = (over: Partial<AuditEntry>): AuditEntry => ({ ...base, ...over });

describe('audit labels', () => {
  it('every action has a label of its own', () => {
    const labels = AUDIT_ACTIONS.map((a) => AUDIT_ACTION_LABEL[a]);
    expect(labels.every((l) => l.length > 0)).toBe(true);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('says each new act in a line of ids and codes', () => {
    expect(auditDetail(e({ action: 'webhook.added', object_id: 'whe_1', env: 'live' }))).toBe('endpoint whe_1 (Live)');
    expect(auditDetail(e({ action: 'age_gate.created', object_id: 'ag_live_1', env: 'live', to_value: 'on' }))).toBe('Live store ag_live_1 · gate on');
    expect(auditDetail(e({ action: 'age_gate.changed', object_id: 'ag_live_1', env: 'live', from_value: 'on', to_value: 'off', count_total: 3 })))
      .toBe('Live store ag_live_1 · 3 settings changed · gate on → off');
    expect(auditDetail(e({ action: 'age_gate.changed', object_id: 'ag_test_1', env: 'test', from_value: 'on', to_value: 'on', count_total: 1 })))
      .toBe('Test store ag_test_1 · 1 setting changed · gate on');
    expect(auditDetail(e({ action: 'hosted.created', object_id: 'hs_1', env: 'test', to_value: 'age' }))).toBe('Test session hs_1 · age');
    expect(auditDetail(e({ action: 'flow.disabled', object_id: 'pf_1', env: 'live' }))).toBe('Live flow pf_1');
    expect(auditDetail(e({ action: 'onsite.started', to_value: '192.168.1.20:8443' }))).toBe('listening on 192.168.1.20:8443');
    expect(auditDetail(e({ action: 'onsite.started', to_value: '192.168.1.20:8443', actor: { kind: 'system', user_id: null, email: null, role: null } })))
      .toBe('listening on 192.168.1.20:8443 again after a restart');
    expect(auditDetail(e({ action: 'kyc_report.generated', object_id: 'kyc_1', env: 'test', to_value: 'encrypted' }))).toBe('verification kyc_1 (Test) · password-protected PDF');
    expect(auditDetail(e({ action: 'export.downloaded', object_id: '7', env: 'live', to_value: 'overview/pdf' }))).toBe('export #7 (Live) · overview/pdf');
    expect(auditDetail(e({ action: 'session.signed_in', to_value: 'desktop_token' }))).toBe('on the desktop app (its only member)');
    expect(auditDetail(e({ action: 'session.sign_in_failed', target: { user_id: 2, email: 'mia@example.test' } }))).toBe('mia@example.test: wrong password');
    expect(auditDetail(e({ action: 'settings.changed', setting: 'app_schemes', from_value: '0', to_value: '1' }))).toBe('App schemes: 0 → 1 registered');
  });

  it('names the service itself as System, on screen and in the CSV with the label', () => {
    const row = e({ action: 'session.sign_in_failed', actor: { kind: 'system', user_id: null, email: null, role: null }, target: { user_id: 2, email: 'mia@example.test' } });
    expect(actorText(row)).toBe('System');
    const [header, line] = auditCsv([row]).replace(/^\uFEFF/, '').split('\r\n');
    const cells = Object.fromEntries(header!.split(',').map((h, i) => [h, line!.split(',')[i]]));
    expect(cells).toMatchObject({ actor: 'system', action: 'session.sign_in_failed', action_label: 'Sign-in failed', target_user: 'mia@example.test' });
  });
});

const expired = AuditEntry.parse({
  seq: 7, at: '2026-01-15T12:10:00.000Z', actor: { kind: 'system', user_id: null, email: null, role: null }, action: 'batch.expired', env: 'test',
  screening_id: null, batch_id: 'bat_1234567890abcdef', row_number: null, entity_ids: [], record_hashes: [], disposition: null, reason_code: null,
  has_note: null, clearance_id: null, approver: null, key_id: null, list_id: null, setting: null, from_value: null, to_value: null,
  count_total: 30, count_done: 20, count_failed: 1, risk_score: null, target: { user_id: 4, email: 'mo.member@example.test' }, client_ref_hmac: null,
  invitation_id: null, prev_hash: '0'.repeat(64), hash: 'a'.repeat(64),
});

describe('batches ended by someone else', () => {
  it('an expiry: by System, whose batch, its counts and why', () => {
    expect(actorText(expired)).toBe('System');
    expect(AUDIT_ACTION_LABEL['batch.expired']).toBe('Batch expired');
    expect(auditDetail(expired)).toBe('batch bat_1234567890abcdef of mo.member@example.test · 20 of 30 rows screened, 1 failed · no activity for 10 minutes');
    expect(auditCsv([expired]).split('\r\n')[1]!.split(',').slice(2, 6)).toEqual(['system', '', '', 'batch.expired']);
  });

  it('an administrator\'s End: who ended it is the actor, whose batch the detail', () => {
    const e: AuditEntry = { ...expired, action: 'batch.cancelled', actor: { kind: 'user', user_id: 2, email: 'ada.admin@example.test', role: 'admin' } };
    expect(actorText(e)).toBe('ada.admin@example.test');
    expect(auditDetail(e)).toBe('batch bat_1234567890abcdef of mo.member@example.test · 20 of 30 rows screened, 1 failed');
    // An analyst's own cancel names nobody else.
    expect(auditDetail({ ...e, target: null })).toBe('batch bat_1234567890abcdef · 20 of 30 rows screened, 1 failed');
  });
});
