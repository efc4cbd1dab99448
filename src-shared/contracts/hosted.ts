// Hosted verification sessions (spec: Hosted session; hosted completion; states not shown, see
// docs/decisions.md). A session is made by an API key (or an analyst in the console), opened on
// a person's phone through its single-use URL, and completed there. Answers to the hosted page
// carry the outcome in words and the routing signals only; proof is the webhook.
import { z } from 'zod';
import { IsoDateForm } from './dates';
import { CHALLENGE_RULES, CHALLENGES, FACE_FAILURES, POLICY_NAMES } from './faces';
import { LinkReach } from './links';

export const HOSTED_PRODUCTS = ['human', 'age', 'identity', 'compliance'] as const;
export const HOSTED_STATES = ['created', 'opened', 'completed', 'revoked', 'expired'] as const;

const Message = z.string().max(500);

/**
 * Issue 26: failures a person can fix by trying again on the same link (a picture that can be
 * taken better: light, one face, the whole document in frame, held still), while the
 * organisation's attempts last. Any other failure ends the session at once: a date of birth
 * below the minimum, a watchlist match, an unknown cause.
 */
export const HOSTED_RETRYABLE_REASONS = [
  ...FACE_FAILURES, 'document_unreadable', 'no_face_on_document', 'face_mismatch', 'document_expired', 'document_inconsistent', 'document_needs_review',
] as const;

/** The attempts a person has on one hosted link, as the organisation sets them (Settings). */
export const HOSTED_ATTEMPTS = { min: 1, max: 10, default: 3 } as const;
export const HostedAttemptsSettings = z.object({ hosted_attempts: z.number().int().min(HOSTED_ATTEMPTS.min).max(HOSTED_ATTEMPTS.max) });
export type HostedAttemptsSettings = z.infer<typeof HostedAttemptsSettings>;

/** The rules an attempt's numbers are kept for: the selfie's, the recorded challenge's, and the face match with the document. */
export const HOSTED_ATTEMPT_RULES = [...new Set([...POLICY_NAMES, ...CHALLENGE_RULES, 'face_match'] as const)] as [string, ...string[]];

/** One rule of a failed attempt: met or missed, its value and limit (the units of `PolicyCheck`/`ChallengeCheck`; face match 0-100). */
export const HostedAttemptCheck = z.object({ rule: z.enum(HOSTED_ATTEMPT_RULES), passed: z.boolean(), value: z.number(), limit: z.number() });
export type HostedAttemptCheck = z.infer<typeof HostedAttemptCheck>;

/** A failed attempt on a hosted link as the analyst sees it: codes and numbers only, never a picture or what a document says. */
export const HostedAttempt = z.object({
  attempt: z.number().int(),
  at: z.string(),
  verification_id: z.string().nullable(),
  /** The failure code (the ledger's: `no_face_detected`, `document_unreadable`, ...). */
  reason: z.string().nullable(),
  /** The recorded challenge's rule missed (liveness), else null. */
  rule: z.enum(CHALLENGE_RULES).nullable(),
  checks: z.array(HostedAttemptCheck),
});
export type HostedAttempt = z.infer<typeof HostedAttempt>;

export const HostedGenerateRequest = z.object({
  product: z.enum(HOSTED_PRODUCTS),
  /** Where a pass goes: https, a custom-scheme deep link, or http://localhost for testing. Without it the person stays on the result page. */
  redirect_url: z.string().max(2048).optional(),
  /** Where a failure or a denial goes (optional). */
  failure_redirect_url: z.string().max(2048).optional(),
  expires_in_hours: z.number().int().min(1).max(168).default(24),
  page_title: z.string().max(120).optional(),
  success_message: Message.optional(),
  failure_message: Message.optional(),
  /** Added, age only: the minimum age (default 18). */
  min_age: z.number().int().min(13).max(99).optional(),
});
export type HostedGenerateRequest = z.input<typeof HostedGenerateRequest>;

export const HostedGenerateResponse = z.object({
  hosted_url: z.string(),
  token: z.string(),
  expires_at: z.string(),
  /** Added: the session's id (lists, the redirect's `hosted_session` parameter). Not a credential. */
  session_id: z.string(),
  /**
   * Added (issue 26): how far `hosted_url` reaches: `public` (the public URL), `onsite` (the on-site
   * server, devices on this network), `this_computer` (a loopback address: a phone cannot open it).
   */
  link_reach: LinkReach,
});
export type HostedGenerateResponse = z.infer<typeof HostedGenerateResponse>;

/** What the hosted page needs to show its flow. */
export const HostedPage = z.object({
  product: z.enum(HOSTED_PRODUCTS),
  state: z.enum(HOSTED_STATES),
  page_title: z.string().nullable(),
  success_message: z.string().nullable(),
  failure_message: z.string().nullable(),
  min_age: z.number().int().nullable(),
  test_mode: z.boolean(),
  expires_at: z.string(),
  /** Age: a selfie was not conclusive, and an ID document finishes the flow. */
  needs_id: z.boolean(),
  /** Added: whose check this is. `logo_url` is same-origin (`/hosted/logo/<token>`), null without a logo. */
  organization: z.object({ name: z.string(), logo_url: z.string().nullable() }),
  /**
   * Added: the active challenge a liveness session requires, or null (another product, or a
   * service that cannot decode video: then a photo is judged as a selfie). `head_turn`: the head
   * turns to one side and back (or the eyes close for a moment); the page records `clip_seconds`
   * of video, and a photo is refused (400 `video_required`). A clip that misses it may be recorded
   * again while `attempts_left` is above zero.
   */
  challenge: z.object({ kind: z.enum(CHALLENGES), clip_seconds: z.number(), attempts_left: z.number().int() }).nullable().optional(),
  /** Added (issue 26): the attempts this link still allows, every product (the organisation's number less the failed ones). */
  attempts_left: z.number().int(),
});
export type HostedPage = z.infer<typeof HostedPage>;

const Image = z.string().min(1).max(14_000_000);

/**
 * What the person sends, by product: liveness a selfie (the recorded clip where the page was told a
 * challenge); age a date of birth and a selfie (then an ID if asked); identity and compliance a
 * selfie and an ID document.
 */
export const HostedCompleteRequest = z.object({
  selfie_b64: Image.optional(),
  id_front_b64: Image.optional(),
  id_back_b64: Image.optional(),
  /** Age: YYYY-MM-DD. */
  date_of_birth: IsoDateForm.optional(),
});
export type HostedCompleteRequest = z.input<typeof HostedCompleteRequest>;

export const HostedCompleteResponse = z.object({
  /**
   * `passed`, `failed`, or (age) `id_required`: the session stays open for an ID document; added
   * `retry` (liveness): the recorded challenge was not met, and the session stays open for another
   * recording (`challenge.attempts_left`).
   */
  status: z.enum(['passed', 'failed', 'id_required', 'retry']),
  verification_id: z.string().nullable(),
  product: z.enum(HOSTED_PRODUCTS),
  environment: z.enum(['test', 'live']),
  /** What to tell the person. */
  message: z.string(),
  /** Why it failed, as a code (no subject data). */
  reason: z.string().nullable(),
  /** Where to send the person now; null to stay on the result page. Query parameters are routing signals, not proof. */
  redirect_url: z.string().nullable(),
  test_mode: z.boolean(),
  /** Added, when a recorded challenge was judged: the rule missed (null when met) and the recordings still allowed. */
  challenge: z.object({ failed: z.enum(CHALLENGE_RULES).nullable(), attempts_left: z.number().int() }).optional(),
  /**
   * Added (issue 26): the attempts the link still allows. `retry` (any product): the failure, named
   * by `reason` (and `challenge.failed`), is one the person can fix, and the session stays open.
   */
  attempts_left: z.number().int(),
});
export type HostedCompleteResponse = z.infer<typeof HostedCompleteResponse>;

/** A session as an analyst sees it in the console: settings and state, never subject data. */
export const HostedSessionView = z.object({
  session_id: z.string(),
  product: z.enum(HOSTED_PRODUCTS),
  environment: z.enum(['test', 'live']),
  state: z.enum(HOSTED_STATES),
  outcome: z.enum(['passed', 'failed']).nullable(),
  verification_id: z.string().nullable(),
  page_title: z.string().nullable(),
  redirect_url: z.string().nullable(),
  failure_redirect_url: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  opened_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  api_key_id: z.string().nullable(),
  /** The published flow the session was started from (null: made by an API key or in the console). */
  flow_id: z.string().nullable(),
  /** Added (issue 26): the attempts the organisation allows on one link, now. */
  attempts_allowed: z.number().int(),
  /** Added (issue 26): each failed attempt, oldest first, with its failure code and the rules' numbers. */
  failed_attempts: z.array(HostedAttempt),
});
export type HostedSessionView = z.infer<typeof HostedSessionView>;

export const HostedSessionList = z.object({ sessions: z.array(HostedSessionView) });
export type HostedSessionList = z.infer<typeof HostedSessionList>;

/** An analyst makes a session in the console: the API's settings plus the environment (live sessions are paid by the organisation). */
export const HostedConsoleCreateRequest = HostedGenerateRequest.extend({ env: z.enum(['test', 'live']) });
export type HostedConsoleCreateRequest = z.input<typeof HostedConsoleCreateRequest>;

export const HostedSessionQuery = z.object({ env: z.enum(['test', 'live']).default('test') });

// Published flows (spec, Endpoints rule 9: a stable published-flow URL is reusable for many users
// and does not change when flow settings are edited). A flow keeps a hosted session's settings
// under a public URL; each person who opens it gets a fresh session made from the current settings.

/** A flow's settings: the hosted session's, except the expiry (each started session lasts one hour). */
export const PublishedFlowSettings = HostedGenerateRequest.pick({
  redirect_url: true, failure_redirect_url: true, page_title: true, success_message: true, failure_message: true, min_age: true,
});
export type PublishedFlowSettings = z.infer<typeof PublishedFlowSettings>;

/** Edits a flow (PUT: the whole settings); its URL, environment and counts stay. */
export const PublishedFlowRequest = PublishedFlowSettings.extend({
  /** The flow's name in the console (never shown to the person). */
  name: z.string().trim().min(1).max(80),
  product: HostedGenerateRequest.shape.product,
});
export type PublishedFlowRequest = z.input<typeof PublishedFlowRequest>;

/** Publishes a flow in one environment (the console's switch). */
export const PublishedFlowCreateRequest = PublishedFlowRequest.extend({ env: HostedConsoleCreateRequest.shape.env });
export type PublishedFlowCreateRequest = z.input<typeof PublishedFlowCreateRequest>;

export const PublishedFlowView = z.object({
  id: z.string(),
  name: z.string(),
  product: z.enum(HOSTED_PRODUCTS),
  environment: z.enum(['test', 'live']),
  enabled: z.boolean(),
  /** The stable URL, `{origin}/hosted/f/<slug>`: the on-site server's origin while it runs. */
  url: z.string(),
  /** How far `url` reaches now (issue 26; it follows the on-site server and the public URL). */
  link_reach: LinkReach,
  settings: PublishedFlowSettings,
  created_at: z.string(),
  updated_at: z.string(),
  /** Sessions started from the flow, and how many of them were completed. */
  sessions_started: z.number().int(),
  sessions_completed: z.number().int(),
});
export type PublishedFlowView = z.infer<typeof PublishedFlowView>;

export const PublishedFlowList = z.object({ flows: z.array(PublishedFlowView) });
export type PublishedFlowList = z.infer<typeof PublishedFlowList>;

/** A fresh session from the flow's current settings, for the hosted page to continue with. */
export const PublishedFlowStartResponse = HostedGenerateResponse.pick({ hosted_url: true, token: true, expires_at: true, link_reach: true });
export type PublishedFlowStartResponse = z.infer<typeof PublishedFlowStartResponse>;
