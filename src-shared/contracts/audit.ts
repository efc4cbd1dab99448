// The analysts' audit log (session-authenticated, owners and admins; not in the spec, see
// docs/decisions.md): who did what and when, with ids, codes, counts and hashes only. The CSV
// export holds exactly what the table holds.
import { z } from 'zod';
import { ENVIRONMENTS, ROLES } from '../catalog';
import { guardCell } from '../csv-guard';
import { CONTRADICTIONS, DISPOSITIONS, REASON_CODES } from './review';

export const AUDIT_ACTIONS = [
  'screened', 'batch.created', 'batch.cancelled', 'batch.finished', 'batch.expired',
  'disposition.set', 'disposition.removed', 'clearance.requested', 'clearance.approved', 'clearance.withdrawn',
  'list.imported', 'list.removed', 'key.created', 'key.revoked', 'plan.changed', 'settings.changed', 'member.added',
  'member.invited', 'invite.cancelled', 'invite.accepted', 'member.role_changed', 'member.removed',
  'member.billing_changed',
  // Acts that change what the service exposes (issue 26).
  'webhook.added', 'webhook.removed', 'webhook.secret_rotated',
  'age_gate.created', 'age_gate.changed',
  'hosted.created', 'hosted.revoked', 'flow.published', 'flow.changed', 'flow.disabled', 'flow.enabled',
  'onsite.started', 'onsite.stopped',
  'kyc_report.generated', 'export.created', 'export.downloaded', 'export.cancelled',
  'session.signed_in', 'session.signed_out', 'session.sign_in_failed',
  // The approval queue (issue 26): an owner or admin sends a clearance back to its analyst.
  'clearance.sent_back',
  // A team on many desks (issue 39): the team server, and an owner ending another person's sessions.
  'team_server.started', 'team_server.stopped', 'session.revoked',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The settings whose changes are audited (`settings.changed`): audit_log accepts these and no other. */
export const AUDIT_SETTINGS = [
  'four_eyes', 'organization_name', 'logo', 'sanctions_stale_days', 'pep_stale_days', 'app_schemes', 'public_url', 'hosted_attempts', 'require_liveness_clip',
  'webhook_private_hosts',
] as const;
export type AuditSetting = (typeof AUDIT_SETTINGS)[number];

/** Each action in words: the console's table and filter, and the CSV export's `action_label`. */
export const AUDIT_ACTION_LABEL: Record<AuditAction, string> = {
  screened: 'Screened',
  'batch.created': 'Batch started',
  'batch.cancelled': 'Batch cancelled',
  'batch.finished': 'Batch finished',
  'batch.expired': 'Batch expired',
  'disposition.set': 'Disposition set',
  'disposition.removed': 'Disposition removed',
  'clearance.requested': 'Clearance requested',
  'clearance.approved': 'Clearance approved',
  'clearance.withdrawn': 'Clearance withdrawn',
  'list.imported': 'List imported',
  'list.removed': 'List removed',
  'key.created': 'API key created',
  'key.revoked': 'API key revoked',
  'plan.changed': 'Plan changed',
  'settings.changed': 'Setting changed',
  'member.added': 'Member added',
  'member.invited': 'Member invited',
  'invite.cancelled': 'Invitation cancelled',
  'invite.accepted': 'Invitation accepted',
  'member.role_changed': 'Role changed',
  'member.removed': 'Member removed',
  'member.billing_changed': 'Billing access changed',
  'webhook.added': 'Webhook added',
  'webhook.removed': 'Webhook removed',
  'webhook.secret_rotated': 'Webhook secret rotated',
  'age_gate.created': 'Age gate created',
  'age_gate.changed': 'Age gate changed',
  'hosted.created': 'Hosted session created',
  'hosted.revoked': 'Hosted session revoked',
  'flow.published': 'Flow published',
  'flow.changed': 'Flow changed',
  'flow.disabled': 'Flow switched off',
  'flow.enabled': 'Flow switched on',
  'onsite.started': 'On-site server started',
  'onsite.stopped': 'On-site server stopped',
  'kyc_report.generated': 'KYC report generated',
  'export.created': 'Export created',
  'export.downloaded': 'Export downloaded',
  'export.cancelled': 'Export cancelled',
  'session.signed_in': 'Signed in',
  'session.signed_out': 'Signed out',
  'session.sign_in_failed': 'Sign-in failed',
  'clearance.sent_back': 'Clearance sent back',
  'team_server.started': 'Team server started',
  'team_server.stopped': 'Team server stopped',
  'session.revoked': 'Sessions ended',
};

/** Who acted: a person, the admin CLI on this computer, or the service itself (an abandoned batch expiring, a restart). */
export const AUDIT_ACTOR_KINDS = ['user', 'cli', 'system'] as const;

export const AuditActor = z.object({
  kind: z.enum(AUDIT_ACTOR_KINDS),
  user_id: z.number().int().nullable(),
  /** The user's e-mail when the entry is shown; the log itself keeps the id. */
  email: z.string().nullable(),
  role: z.enum(ROLES).nullable(),
});
export type AuditActor = z.infer<typeof AuditActor>;

export const AuditEntry = z.object({
  seq: z.number().int(),
  at: z.string(),
  actor: AuditActor,
  action: z.enum(AUDIT_ACTIONS),
  env: z.enum(ENVIRONMENTS).nullable(),
  screening_id: z.string().nullable(),
  batch_id: z.string().nullable(),
  row_number: z.number().int().nullable(),
  entity_ids: z.array(z.string()),
  record_hashes: z.array(z.string()),
  disposition: z.enum(DISPOSITIONS).nullable(),
  reason_code: z.enum(REASON_CODES).nullable(),
  has_note: z.boolean().nullable(),
  clearance_id: z.string().nullable(),
  approver: z.object({ user_id: z.number().int(), email: z.string().nullable() }).nullable(),
  key_id: z.string().nullable(),
  list_id: z.string().nullable(),
  setting: z.string().nullable(),
  from_value: z.string().nullable(),
  to_value: z.string().nullable(),
  count_total: z.number().int().nullable(),
  count_done: z.number().int().nullable(),
  count_failed: z.number().int().nullable(),
  risk_score: z.number().int().nullable(),
  target: z.object({ user_id: z.number().int(), email: z.string().nullable() }).nullable(),
  client_ref_hmac: z.string().nullable(),
  /** The team invitation an invite, cancel or accept was about. */
  invitation_id: z.number().int().nullable(),
  /** A clearing whose reason contradicts the match evidence, overridden with a note (issue 23). */
  override_contradiction: z.enum(CONTRADICTIONS).nullable().default(null),
  /**
   * The object an act was about (issue 26): a webhook endpoint, hosted session, published flow,
   * age-gate store or report export id, or the verification id of a KYC report. An id, never a URL.
   */
  object_id: z.string().nullable().default(null),
  /** The address a person acted from (their computer: issue 39, a team on many desks); null for the CLI, the service, and rows written before. */
  source_address: z.string().nullable().default(null),
  prev_hash: z.string(),
  hash: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditQuery = z.object({
  action: z.enum(AUDIT_ACTIONS).optional(),
  /** `cli`, `system`, or a user id. */
  actor: z.string().regex(/^(cli|system|\d{1,12})$/).optional(),
  /** ISO 8601 instants: from inclusive, to exclusive. */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  /** Matched through its HMAC; the reference itself is never stored. */
  client_reference: z.string().min(1).max(200).optional(),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(500).default(50),
});
export type AuditQuery = z.input<typeof AuditQuery>;

export const AuditPage = z.object({
  entries: z.array(AuditEntry),
  total: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
  /** Everyone who may appear as an actor, for the filter. */
  actors: z.array(z.object({ user_id: z.number().int(), email: z.string(), role: z.enum(ROLES) })),
});
export type AuditPage = z.infer<typeof AuditPage>;

export const AuditVerification = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), rows: z.number().int(), head_seq: z.number().int(), head_hash: z.string() }),
  z.object({ ok: z.literal(false), rows: z.number().int(), first_bad_seq: z.number().int(), reason: z.string() }),
]);
export type AuditVerification = z.infer<typeof AuditVerification>;

/** The CSV export's columns, in order; `auditCsvRow` gives one entry's cells. */
export const AUDIT_CSV_COLUMNS = [
  'seq', 'at', 'actor', 'actor_role', 'source_address', 'action', 'action_label', 'env', 'screening_id', 'batch_id', 'row_number', 'entity_ids', 'record_hashes',
  'disposition', 'reason_code', 'has_note', 'override_contradiction', 'clearance_id', 'approver', 'key_id', 'list_id', 'object_id', 'setting', 'from_value', 'to_value',
  'count_total', 'count_done', 'count_failed', 'risk_score', 'target_user', 'client_ref_hmac', 'prev_hash', 'hash',
] as const;

const text = (v: string | number | boolean | null) => (v === null ? '' : String(v));
const who = (p: { user_id: number; email: string | null } | null) => (p ? p.email ?? `user ${p.user_id}` : '');

export function auditCsvRow(e: AuditEntry): string[] {
  const actor = e.actor.kind === 'user' ? e.actor.email ?? `user ${e.actor.user_id}` : e.actor.kind;
  return [
    text(e.seq), e.at, actor, text(e.actor.role), text(e.source_address), e.action, AUDIT_ACTION_LABEL[e.action], text(e.env), text(e.screening_id), text(e.batch_id), text(e.row_number),
    e.entity_ids.join(';'), e.record_hashes.join(';'), text(e.disposition), text(e.reason_code), text(e.has_note), text(e.override_contradiction), text(e.clearance_id),
    who(e.approver), text(e.key_id), text(e.list_id), text(e.object_id), text(e.setting), text(e.from_value), text(e.to_value), text(e.count_total),
    text(e.count_done), text(e.count_failed), text(e.risk_score), who(e.target), text(e.client_ref_hmac), e.prev_hash, e.hash,
  ];
}

/** RFC 4180 text with the formula guard (src-shared/csv-guard.ts), so no cell is ever run by a spreadsheet. */
export function auditCsv(entries: readonly AuditEntry[]): string {
  const cell = (v: string) => {
    const guarded = guardCell(v);
    return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
  };
  const lines = [AUDIT_CSV_COLUMNS.join(','), ...entries.map((e) => auditCsvRow(e).map(cell).join(','))];
  return '\uFEFF' + lines.join('\r\n') + '\r\n';
}
