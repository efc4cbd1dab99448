// One table: error code -> HTTP status -> the spec's exact body.
// Services throw `new AppError(code, details)`; the HTTP error mapper calls `errorResponse`.
// Bodies never carry submitted values: validation errors name fields only.
import { z } from 'zod';

export interface FieldIssue {
  field: string;
  issue: string;
}

export interface ErrorDetails {
  /** Overrides the table's default human-readable text where the spec leaves it open. */
  message?: string;
  hint?: string;
  credits_remaining?: number;
  credits_required?: number;
  upgrade_url?: string;
  limit?: number;
  remaining?: number;
  retry_after?: number;
  fields?: FieldIssue[];
  /** Account APIs: the single field a validation error is about. */
  field?: string;
  schema_version?: string;
  current?: number;
  team_limit?: number;
}

type Shape =
  | 'general' // { error, status: 'ERROR', code? }
  | 'key' // { error, status, hint }
  | 'insufficient' // { error, status, message, credits_remaining, credits_required }
  | 'exhausted' // { success: false, error, error_code, message, upgrade_url }
  | 'trial' // { error, status, message, upgrade_url }
  | 'plan' // { error, status, upgrade_url }
  | 'rate' // { success: false, error, error_code, message, details }
  | 'screening' // { error: { type, code, message } }
  | 'account'; // { error, field?, schema_version?, current?, limit? }

interface Entry {
  http: number;
  shape: Shape;
  error: string;
  code?: string;
  /** Screening error type (spec: invalid_request / provider_unavailable). */
  type?: string;
  message?: string;
}

export const ERRORS = {
  // General (service API)
  invalid_parameters: { http: 400, shape: 'general', error: 'Invalid or missing parameters', code: 'INVALID_PARAMETERS' },
  unsupported_media_type: { http: 415, shape: 'general', error: 'Content-Type not accepted here', code: 'UNSUPPORTED_MEDIA_TYPE' },
  payload_too_large: { http: 413, shape: 'general', error: 'Request body too large', code: 'PAYLOAD_TOO_LARGE' },
  not_found: { http: 404, shape: 'general', error: 'Not found', code: 'NOT_FOUND' },
  verification_not_found: { http: 404, shape: 'general', error: 'Verification not found', code: 'NOT_FOUND' },
  /** A KYC-plus verification whose screening result is no longer held in memory (docs/decisions.md). */
  report_unavailable: {
    http: 404, shape: 'general', code: 'REPORT_UNAVAILABLE',
    error: 'The report for this verification is no longer available: screening results are held in memory for 30 minutes after the verification and never stored. Run the verification again to produce a report.',
  },
  /** Age step 3 naming a step-2 verification that is not waiting for an ID (already completed by step 3, or verified by selfie). */
  flow_completed: {
    http: 409, shape: 'general', code: 'FLOW_COMPLETED',
    error: 'This age verification is not waiting for an ID: it was completed already. Start a new flow.',
  },
  /** A hosted-session token that names no session. */
  hosted_session_not_found: { http: 404, shape: 'general', error: 'This verification link is not valid.', code: 'HOSTED_SESSION_NOT_FOUND' },
  /** A hosted session already used, expired or revoked (the message says which). */
  hosted_session_closed: { http: 410, shape: 'general', error: 'This verification link can no longer be used.', code: 'HOSTED_SESSION_CLOSED' },
  /** A hosted page's logo: the link names no session, or its organisation has no logo. */
  hosted_logo_not_found: { http: 404, shape: 'general', error: 'No logo.', code: 'LOGO_NOT_FOUND' },
  /** A published-flow URL that names no flow. */
  published_flow_not_found: { http: 404, shape: 'general', error: 'This verification link is not valid.', code: 'PUBLISHED_FLOW_NOT_FOUND' },
  /** A published flow its organisation has switched off (or whose product the plan no longer includes). */
  published_flow_closed: { http: 410, shape: 'general', error: 'This verification is not available right now.', code: 'PUBLISHED_FLOW_CLOSED' },
  /** The storefront age gate: an unknown store id, or a store whose gate is off. */
  age_gate_not_found: { http: 404, shape: 'general', error: 'Age gate not found or not enabled for this store', code: 'AGE_GATE_NOT_FOUND' },
  /** Spec: after 5 attempts within an hour the visitor is blocked with a Too Many Attempts message. */
  age_gate_too_many_attempts: { http: 429, shape: 'general', error: 'Too Many Attempts', code: 'TOO_MANY_ATTEMPTS' },
  /** A live store's selfie checks for the UTC day reached its daily cap (issue 25): the answer carries Retry-After, the seconds to the next day. */
  age_gate_daily_cap: {
    http: 429, shape: 'general', code: 'DAILY_CAP_REACHED',
    error: 'This store cannot check more selfies today. Please try again later.',
  },
  /** The same hosted session is being completed by another request right now. */
  hosted_session_busy: { http: 409, shape: 'general', error: 'This verification is already being completed.', code: 'HOSTED_SESSION_BUSY' },
  idempotency_conflict: {
    http: 400, shape: 'general', code: 'IDEMPOTENCY_KEY_REUSED',
    error: 'Idempotency-Key was already used with a different request',
  },
  idempotency_in_progress: {
    http: 400, shape: 'general', code: 'IDEMPOTENCY_KEY_IN_PROGRESS',
    error: 'A request with this Idempotency-Key is still being processed',
  },
  /** Too much upload in flight at once; the answer carries Retry-After. */
  server_busy: { http: 503, shape: 'general', error: 'The service is busy receiving other uploads. Retry shortly.', code: 'SERVER_BUSY' },
  /** A body that stopped arriving, or arrived slower than the listener's minimum rate (docs/decisions.md). */
  body_timeout: { http: 408, shape: 'general', error: 'The request body arrived too slowly. Send it again.', code: 'REQUEST_TIMEOUT' },
  internal: { http: 500, shape: 'general', error: 'Internal server error', code: 'INTERNAL' },
  /**
   * The ledger's PostgreSQL cannot be reached (issue 40): the request's transaction did not
   * commit, so nothing of it was stored or charged. The answer carries Retry-After.
   */
  database_unavailable: {
    http: 503, shape: 'general', code: 'DATABASE_UNAVAILABLE',
    error: 'The service cannot reach its database: nothing was stored or charged. Retry shortly.',
  },
  /**
   * The data directory's disk is (nearly) full (issue 25): refused before the work, or a write
   * that failed for lack of space. Nothing was stored or charged; retry once space is freed.
   */
  insufficient_storage: {
    http: 507, shape: 'general', code: 'INSUFFICIENT_STORAGE',
    error: 'The service is out of disk space: nothing was stored or charged. Free space on the disk that holds its data, then retry.',
  },
  /** An image or video that cannot be analysed; `fields` names the field and the reason, never its bytes. */
  invalid_image: { http: 400, shape: 'general', error: 'Invalid image', code: 'INVALID_IMAGE' },
  /** The face models are all busy and their queue is full; the answer carries Retry-After. */
  analysis_busy: { http: 503, shape: 'general', error: 'The face analysis queue is full. Retry shortly.', code: 'ANALYSIS_BUSY' },
  /** The face or document engine failed on this request (a crashed or hung worker); not billed. */
  analysis_failed: { http: 503, shape: 'general', error: 'The analysis engine failed on this request. Retry shortly; it was not billed.', code: 'ANALYSIS_FAILED' },
  /** The document reader (a child process) crashed or hung on this request; a fresh reader takes the next one. Not billed. */
  document_reader_failed: { http: 503, shape: 'general', error: 'The document reader failed on this request. Retry shortly; it was not billed.', code: 'DOCUMENT_READER_FAILED' },
  /** The document reader's queue is full. */
  document_reader_busy: { http: 503, shape: 'general', error: 'The document reader is busy. Retry shortly.', code: 'DOCUMENT_READER_BUSY' },
  /** A documented part of the API this build does not do yet; not billed. */
  not_implemented: { http: 501, shape: 'general', error: 'Not implemented in this version', code: 'NOT_IMPLEMENTED' },

  // Keys and scopes
  missing_api_key: { http: 401, shape: 'key', error: 'API key required' },
  invalid_api_key: { http: 401, shape: 'key', error: 'Invalid API key' },
  revoked_api_key: { http: 401, shape: 'key', error: 'API key revoked' },
  wrong_scope: { http: 401, shape: 'key', error: 'API key does not have the required scope' },
  wrong_environment: { http: 401, shape: 'key', error: 'API key environment not allowed for this resource' },
  invalid_secret: { http: 401, shape: 'key', error: 'Invalid secret key' },

  // Money and plan
  insufficient_credits: {
    http: 402, shape: 'insufficient', error: 'Insufficient credits',
    message: 'Your credit balance does not cover this request.',
  },
  credits_exhausted: {
    http: 402, shape: 'exhausted', error: 'Credits exhausted', code: 'CREDITS_EXHAUSTED',
    message: 'Your credits are used up. Add credits or upgrade your plan to continue.',
  },
  trial_expired: {
    http: 403, shape: 'trial', error: 'Trial expired',
    message: 'The free trial for age verification has ended (30 days or 50 verifications). A Growth plan or higher is required.',
  },
  plan_restriction: { http: 403, shape: 'plan', error: 'This product is not available in your plan' },

  // Limits
  rate_limited: {
    http: 429, shape: 'rate', error: 'Rate limit exceeded', code: 'RATE_LIMITED',
    message: 'Too many requests. Retry after the number of seconds in Retry-After.',
  },

  // Screening (spec: { error: { type, code, message } })
  invalid_subject: {
    http: 400, shape: 'screening', type: 'invalid_request', error: 'invalid_subject',
    message: 'The screening request is invalid.',
  },
  provider_unavailable: {
    http: 503, shape: 'screening', type: 'provider_unavailable', error: 'compliance_provider_unavailable',
    message: 'The screening provider is unavailable. The attempt was not billed.',
  },

  // Account APIs (session-authenticated): { error, field? }
  session_required: { http: 401, shape: 'account', error: 'Authentication required' },
  invalid_login: { http: 401, shape: 'account', error: 'Invalid email or password' },
  invalid_login_token: { http: 401, shape: 'account', error: 'Invalid or used login token' },
  desktop_choice_expired: { http: 401, shape: 'account', error: 'This sign-in has expired. Sign in with your e-mail and password.' },
  invalid_password: { http: 401, shape: 'account', error: 'Incorrect password' },
  permission_denied: { http: 403, shape: 'account', error: 'Permission denied' },
  cross_origin: { http: 403, shape: 'account', error: 'Cross-origin request refused' },
  already_set_up: { http: 409, shape: 'account', error: 'Organization already set up' },
  cannot_end_own_sessions: { http: 400, shape: 'account', error: 'To end your own session, sign out' },
  // The first run and the desktop shell's sign-in are made on the computer that runs the service, never through the team server (issue 39).
  this_computer_only: { http: 403, shape: 'account', error: 'Only on the computer that runs the service' },
  // A setting changed by someone else after the writer read it (If-Match no longer holds; issue 39).
  setting_changed: { http: 412, shape: 'account', error: 'Someone else changed this setting after you opened it, and their change was kept. Look at it as it is now and make your change again if you still want it.' },
  account_validation: { http: 400, shape: 'account', error: 'Invalid request' },
  invalid_email: { http: 400, shape: 'account', error: 'Invalid email format' },
  compliance_scope_plan: {
    http: 403, shape: 'account', error: 'The compliance scope requires the Pro or Enterprise plan',
  },
  key_not_found: { http: 404, shape: 'account', error: 'API key not found' },
  account_not_found: { http: 404, shape: 'account', error: 'Not found' },
  batch_not_found: { http: 404, shape: 'account', error: 'Batch not found' },
  list_not_found: { http: 404, shape: 'account', error: 'List not found' },
  clearance_not_found: { http: 404, shape: 'account', error: 'Clearance not found' },
  webhook_not_found: { http: 404, shape: 'account', error: 'Webhook endpoint not found' },
  conflict: { http: 409, shape: 'account', error: 'Conflict' },
  team_full: { http: 403, shape: 'account', error: 'Team limit reached. Upgrade your plan for more members.' },
  // Team management (account spec; statuses the spec leaves open are in docs/decisions.md).
  member_not_found: { http: 404, shape: 'account', error: 'Team member not found' },
  invitation_not_found: { http: 404, shape: 'account', error: 'Invitation not found' },
  already_on_team: { http: 409, shape: 'account', error: 'Email already on team' },
  invitation_pending: { http: 409, shape: 'account', error: 'An invitation for this email is already pending' },
  invalid_invitation: { http: 400, shape: 'account', error: 'Invalid invitation token' },
  owners_change_roles: { http: 403, shape: 'account', error: 'Only owners can change member roles' },
  cannot_remove_owner: { http: 403, shape: 'account', error: 'Cannot remove owner' },
  logo_not_found: { http: 404, shape: 'account', error: 'No logo set' },
  owner_billing_fixed: { http: 403, shape: 'account', error: 'Owners always have billing access' },
  admin_billing_fixed: { http: 403, shape: 'account', error: 'Admins always have billing access' },
  owner_role_fixed: { http: 403, shape: 'account', error: "Cannot change the owner's role; ownership must be transferred first" },
  invitation_other_account: {
    http: 403, shape: 'account', error: 'This invitation is for another e-mail address. Log out and log in with the invited e-mail.',
  },
  invitation_login_required: { http: 401, shape: 'account', error: 'Log in with the invited e-mail to accept this invitation' },
  invitation_other_owner: {
    http: 409, shape: 'account', error: 'The owner of another organization cannot join a team; ownership must be transferred first',
  },
  // Report exports (account spec, Errors; issue 13).
  invalid_report_type: {
    http: 400, shape: 'account',
    error: 'Invalid report_type. Must be one of: overview, volume, usage, risk-summary, widget-performance, full, verification-v21, full-v21',
  },
  invalid_export_format: { http: 400, shape: 'account', error: 'Invalid format' },
  exports_plan: { http: 403, shape: 'account', error: 'Export functionality requires Growth plan or higher' },
  export_not_found: { http: 404, shape: 'account', error: 'Export job not found' },
  export_file_not_found: { http: 404, shape: 'account', error: 'Export file not found or expired' },
  /** The message names the status: `Cannot cancel export with status: running`. */
  export_not_cancellable: { http: 400, shape: 'account', error: 'Cannot cancel export with status' },
  /** `insufficient_storage` on a session route, in the account APIs' shape (the error mapper picks it). */
  insufficient_storage_account: {
    http: 507, shape: 'account',
    error: 'The service is out of disk space: nothing was stored. Free space on the disk that holds its data, then retry.',
  },
  /** Too many unfinished exports for one organisation (docs/decisions.md, "Report exports"). */
  export_queue_full: { http: 429, shape: 'account', error: 'Too many exports in progress. Wait for one to finish.' },
  invalid_approver: { http: 403, shape: 'account', error: 'Invalid approver e-mail or password' },
  /** A clearing reason the match evidence contradicts, without an override note (issue 23). */
  reason_contradicts_evidence: { http: 422, shape: 'account', error: 'The clearing reason contradicts the match evidence' },
  approver_not_allowed: { http: 403, shape: 'account', error: 'An owner or admin other than the analyst must approve' },
  too_many_attempts: { http: 429, shape: 'account', error: 'Too many failed attempts. Try again later.' },
  /** A per-organisation cap on stored things (webhook endpoints, own lists); `team_limit` gives the cap. */
  resource_limit: { http: 409, shape: 'account', error: 'Limit reached for this organization' },
  // Reporting (account spec; every reporting error adds `schema_version`). The query's own texts
  // ("'env' must be 'test' or 'live'", "'from' date is required", ...) come with the error.
  report_invalid: { http: 400, shape: 'account', error: 'Invalid report query' },
  advanced_reports: { http: 403, shape: 'account', error: 'Advanced reports require Growth plan or higher' },
  /** Feature flag REPORTING_ENABLED off (docs/decisions.md, "Reports (issue 13)"). */
  reporting_disabled: { http: 404, shape: 'account', error: 'Reporting is not enabled on this installation' },
  /** Feature flag REPORT_EXPORTS_ENABLED (or REPORTING_ENABLED) off. */
  report_exports_disabled: { http: 404, shape: 'account', error: 'Report exports are not enabled on this installation' },
} as const satisfies Record<string, Entry>;

export type ErrorCode = keyof typeof ERRORS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  constructor(code: ErrorCode, details: ErrorDetails = {}) {
    super(details.message ?? ERRORS[code].error);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

export interface ErrorResponse {
  status: number;
  body: Record<string, unknown>;
}

export function errorResponse(code: ErrorCode, d: ErrorDetails = {}): ErrorResponse {
  const e: Entry = ERRORS[code];
  const text = d.message ?? e.message ?? e.error;
  let body: Record<string, unknown>;
  switch (e.shape) {
    case 'general':
      body = { error: d.message ?? e.error, status: 'ERROR' };
      if (e.code) body.code = e.code;
      if (d.fields) body.fields = d.fields;
      break;
    case 'key':
      body = { error: e.error, status: 'ERROR', hint: d.hint ?? defaultHint(code) };
      break;
    case 'insufficient':
      body = {
        error: e.error, status: 'ERROR', message: text,
        credits_remaining: d.credits_remaining ?? 0, credits_required: d.credits_required ?? 0,
      };
      break;
    case 'exhausted':
      body = { success: false, error: e.error, error_code: e.code, message: text, upgrade_url: d.upgrade_url ?? '' };
      break;
    case 'trial':
      body = { error: e.error, status: 'ERROR', message: text, upgrade_url: d.upgrade_url ?? '' };
      break;
    case 'plan':
      body = { error: d.message ?? e.error, status: 'ERROR', upgrade_url: d.upgrade_url ?? '' };
      break;
    case 'rate':
      body = {
        success: false, error: e.error, error_code: e.code, message: text,
        details: { limit: d.limit ?? 0, remaining: d.remaining ?? 0, retry_after: d.retry_after ?? 1 },
      };
      break;
    case 'screening':
      body = { error: { type: e.type, code: e.error, message: text } };
      break;
    case 'account':
      body = { error: d.message ?? e.error };
      if (d.field) body.field = d.field;
      if (d.fields) body.fields = d.fields;
      if (d.schema_version) body.schema_version = d.schema_version;
      if (d.current !== undefined) body.current = d.current;
      if (d.team_limit !== undefined) body.limit = d.team_limit;
      break;
  }
  return { status: e.http, body };
}

function defaultHint(code: ErrorCode): string {
  switch (code) {
    case 'missing_api_key':
      return 'Send your API key in the X-API-Key header.';
    case 'invalid_api_key':
      return 'Check the key: it starts with svk- followed by 32 characters.';
    case 'revoked_api_key':
      return 'This key was revoked. Create a new key in the console under API keys.';
    case 'wrong_scope':
      return 'Create a key with the scope this product needs, or add the scope to a new key.';
    case 'wrong_environment':
      return 'Use a key of the environment the resource was created in.';
    case 'invalid_secret':
      return 'Send the secret (svsk-…) shown when the key was created as Authorization: Bearer <secret>.';
    default:
      return '';
  }
}

// The error bodies as schemas: what the OpenAPI document gives as every operation's error
// answer, and what the test-only response check holds error answers to.
const FieldIssueSchema = z.strictObject({ field: z.string(), issue: z.string() });

/** General service error: `{ error, status: 'ERROR', code? }` (validation errors add `fields`). */
export const GeneralErrorBody = z.strictObject({
  error: z.string(), status: z.literal('ERROR'), code: z.string().optional(), fields: z.array(FieldIssueSchema).optional(),
});
/** Invalid key or wrong scope. */
export const KeyErrorBody = z.strictObject({ error: z.string(), status: z.literal('ERROR'), hint: z.string() });
export const InsufficientCreditsBody = z.strictObject({
  error: z.string(), status: z.literal('ERROR'), message: z.string(), credits_remaining: z.number().int(), credits_required: z.number().int(),
});
export const CreditsExhaustedBody = z.strictObject({
  success: z.literal(false), error: z.string(), error_code: z.literal('CREDITS_EXHAUSTED'), message: z.string(), upgrade_url: z.string(),
});
export const TrialExpiredBody = z.strictObject({ error: z.string(), status: z.literal('ERROR'), message: z.string(), upgrade_url: z.string() });
export const PlanRestrictionBody = z.strictObject({ error: z.string(), status: z.literal('ERROR'), upgrade_url: z.string() });
export const RateLimitedBody = z.strictObject({
  success: z.literal(false), error: z.string(), error_code: z.literal('RATE_LIMITED'), message: z.string(),
  details: z.strictObject({ limit: z.number(), remaining: z.number(), retry_after: z.number() }),
});
export const ScreeningErrorBody = z.strictObject({
  error: z.strictObject({ type: z.string(), code: z.string(), message: z.string() }),
});
/** Account APIs (session-authenticated): `{ error, field? }`, plus what a case adds. */
export const AccountErrorBody = z.strictObject({
  error: z.string(),
  field: z.string().optional(),
  fields: z.array(FieldIssueSchema).optional(),
  schema_version: z.string().optional(),
  current: z.number().int().optional(),
  limit: z.number().int().optional(),
});

/** Any error answer of the service. */
export const ErrorBody = z.union([
  GeneralErrorBody, KeyErrorBody, InsufficientCreditsBody, CreditsExhaustedBody, TrialExpiredBody, PlanRestrictionBody,
  RateLimitedBody, ScreeningErrorBody, AccountErrorBody,
]);
export type ErrorBody = z.infer<typeof ErrorBody>;
