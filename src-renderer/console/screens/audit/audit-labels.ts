// Words for the audit log: one line of detail built from an entry's ids, codes and counts (the
// log holds nothing else), and who acted. Each action's label is in the contract
// (AUDIT_ACTION_LABEL), shared with the CSV export.
import type { AuditEntry } from '../../../../src-shared/contracts/audit';
import { PLAN_INFO, PLANS, type Plan } from '../../../../src-shared/catalog';
import { DISPOSITION_INFO, REASON_INFO } from '../../components/batch/labels';
import { CONTRADICTION_TEXT } from '../../../../src-shared/contracts/review';
import { BATCH_LIMITS } from '../../../../src-shared/contracts/batch';

function planLabel(v: string | null): string {
  return v && (PLANS as readonly string[]).includes(v) ? PLAN_INFO[v as Plan].label : v ?? '?';
}

function matches(e: AuditEntry): string {
  return e.entity_ids.length > 0 ? ` · ${e.entity_ids.map((id, i) => `${id}@${(e.record_hashes[i] ?? '').slice(0, 8)}`).join(', ')}` : '';
}

function decision(e: AuditEntry): string {
  const parts = [
    e.disposition ? DISPOSITION_INFO[e.disposition].label : null,
    e.reason_code ? `reason: ${REASON_INFO[e.reason_code].label}` : null,
    e.has_note ? 'with a note' : null,
    e.override_contradiction ? `overriding the evidence (${CONTRADICTION_TEXT[e.override_contradiction]})` : null,
  ].filter(Boolean);
  return parts.join(', ');
}

const row = (e: AuditEntry) => `batch ${e.batch_id ?? '?'} row ${e.row_number ?? '?'}`;
const person = (p: AuditEntry['target']) => p?.email ?? `user ${p?.user_id ?? '?'}`;
/** A batch's counts, and whose it was when someone else ended it (or it expired). */
const batchCounts = (e: AuditEntry) =>
  `batch ${e.batch_id ?? ''}${e.target ? ` of ${person(e.target)}` : ''} · ${e.count_done ?? 0} of ${e.count_total ?? 0} rows screened, ${e.count_failed ?? 0} failed`;
const envText = (e: AuditEntry) => (e.env === 'live' ? 'Live' : 'Test');

/** One line: what the action was about. */
export function auditDetail(e: AuditEntry): string {
  switch (e.action) {
    case 'screened':
      return `${e.env === 'live' ? 'Live' : 'Test'} screening ${e.screening_id ?? ''} · risk ${e.risk_score ?? '?'}${e.client_ref_hmac ? ' · with a client reference' : ''}`;
    case 'batch.created':
      return `${e.env === 'live' ? 'Live' : 'Test'} batch ${e.batch_id ?? ''} · ${e.count_total ?? 0} rows`;
    case 'batch.cancelled':
    case 'batch.finished':
      return `${batchCounts(e)}${e.to_value ? ` · ended ${e.to_value}` : ''}`;
    case 'batch.expired':
      return `${batchCounts(e)} · no activity for ${BATCH_LIMITS.idleMinutes} minutes`;
    case 'disposition.set':
    case 'clearance.requested':
      return `${row(e)}: ${decision(e)}${matches(e)}`;
    case 'clearance.approved':
      return `${row(e)}: ${decision(e)} · approved by ${e.approver?.email ?? `user ${e.approver?.user_id ?? '?'}`}${matches(e)}`;
    case 'clearance.withdrawn':
      return `${row(e)}: a new decision replaced the waiting clearance`;
    case 'clearance.sent_back':
      return `${row(e)}: sent back to ${person(e.target)} with a note (the note is not kept)${matches(e)}`;
    case 'disposition.removed':
      return `${row(e)}: disposition taken away`;
    case 'list.imported':
      return `${e.list_id ?? ''}${e.count_total !== null ? ` · ${e.count_total} records` : ''}`;
    case 'list.removed':
      return e.list_id ?? '';
    case 'key.created':
    case 'key.revoked':
      return `${e.key_id ?? ''} (${e.env === 'live' ? 'Live' : 'Test'})`;
    case 'plan.changed':
      return `${planLabel(e.from_value)} → ${planLabel(e.to_value)}`;
    case 'settings.changed':
      if (e.setting === 'logo') return `Logo ${e.to_value === 'removed' ? 'removed' : 'replaced'}`;
      if (e.setting === 'organization_name') return 'Organisation name changed';
      if (e.setting === 'app_schemes') return `App schemes: ${e.from_value ?? '?'} → ${e.to_value ?? '?'} registered`;
      if (e.setting === 'public_url') return `Public URL: ${e.from_value ?? '?'} → ${e.to_value ?? '?'}`;
      if (e.setting === 'hosted_attempts') return `Attempts per hosted link: ${e.from_value ?? '?'} → ${e.to_value ?? '?'}`;
      if (e.setting === 'webhook_private_hosts') return `Private hosts webhooks may reach: ${e.from_value ?? '?'} → ${e.to_value ?? '?'} allowed`;
      if (e.setting === 'require_liveness_clip') return `API keys must send the head-turn clip: ${e.to_value === 'true' ? 'required' : 'no longer required'}`;
      return `${e.setting === 'four_eyes' ? 'Four-eyes' : e.setting ?? ''}: ${e.from_value ?? '?'} → ${e.to_value ?? '?'}`;
    case 'member.added':
    case 'invite.accepted':
      return `${e.target?.email ?? `user ${e.target?.user_id ?? '?'}`} as ${e.to_value ?? '?'}`;
    case 'member.invited':
      return `invitation ${e.invitation_id ?? '?'} as ${e.to_value ?? '?'}`;
    case 'invite.cancelled':
      return `invitation ${e.invitation_id ?? '?'}`;
    case 'member.role_changed':
      return `${e.target?.email ?? `user ${e.target?.user_id ?? '?'}`}: ${e.from_value ?? '?'} → ${e.to_value ?? '?'}`;
    case 'member.removed':
      return `${e.target?.email ?? `user ${e.target?.user_id ?? '?'}`} (was ${e.from_value ?? '?'})`;
    case 'member.billing_changed':
      return `${e.target?.email ?? `user ${e.target?.user_id ?? '?'}`}: ${e.to_value === 'true' ? 'billing access given' : 'billing access taken away'}`;
    case 'webhook.added':
    case 'webhook.removed':
    case 'webhook.secret_rotated':
      return `endpoint ${e.object_id ?? '?'} (${envText(e)})`;
    case 'age_gate.created':
      return `${envText(e)} store ${e.object_id ?? '?'} · gate ${e.to_value ?? '?'}`;
    case 'age_gate.changed':
      return `${envText(e)} store ${e.object_id ?? '?'} · ${e.count_total ?? '?'} ${e.count_total === 1 ? 'setting' : 'settings'} changed · gate ${e.from_value === e.to_value ? e.to_value ?? '?' : `${e.from_value ?? '?'} → ${e.to_value ?? '?'}`}`;
    case 'hosted.created':
    case 'flow.published':
      return `${envText(e)} ${e.action === 'hosted.created' ? 'session' : 'flow'} ${e.object_id ?? '?'}${e.to_value ? ` · ${e.to_value}` : ''}`;
    case 'hosted.revoked':
      return `${envText(e)} session ${e.object_id ?? '?'}`;
    case 'flow.changed':
    case 'flow.disabled':
    case 'flow.enabled':
      return `${envText(e)} flow ${e.object_id ?? '?'}`;
    case 'onsite.started':
    case 'team_server.started':
      return `listening on ${e.to_value ?? '?'}${e.actor.kind === 'system' ? ' again after a restart' : ''}`;
    case 'onsite.stopped':
    case 'team_server.stopped':
      return `was listening on ${e.from_value ?? '?'}`;
    case 'kyc_report.generated':
      return `verification ${e.object_id ?? '?'} (${envText(e)}) · ${e.to_value === 'encrypted' ? 'password-protected PDF' : 'PDF without a password'}`;
    case 'export.created':
    case 'export.downloaded':
    case 'export.cancelled':
      return `export #${e.object_id ?? '?'} (${envText(e)}) · ${e.to_value ?? ''}`;
    case 'session.signed_in':
      return SIGN_IN_TEXT[e.to_value ?? ''] ?? e.to_value ?? '';
    case 'session.signed_out':
      return 'signed out of the console';
    case 'session.revoked':
      return `${e.target?.email ?? `user ${e.target?.user_id ?? '?'}`}: every session ended`;
    case 'session.sign_in_failed':
      return `${e.target?.email ?? `user ${e.target?.user_id ?? '?'}`}: wrong password`;
  }
}

const SIGN_IN_TEXT: Record<string, string> = {
  password: 'with e-mail and password',
  desktop_token: 'on the desktop app (its only member)',
  desktop_password: 'on the desktop app, with their password',
  first_run: 'at the first run (the new owner)',
  invitation: 'on accepting an invitation (a new account)',
};

export function actorText(e: AuditEntry): string {
  if (e.actor.kind === 'cli') return 'Admin CLI';
  if (e.actor.kind === 'system') return 'System';
  return e.actor.email ?? `user ${e.actor.user_id ?? '?'}`;
}
