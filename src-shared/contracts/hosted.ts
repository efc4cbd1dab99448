// Hosted verification sessions (spec: Hosted session; hosted completion; states not shown, see
// docs/decisions.md). A session is made by an API key (or an analyst in the console), opened on
// a person's phone through its single-use URL, and completed there. Answers to the hosted page
// carry the outcome in words and the routing signals only; proof is the webhook.
import { z } from 'zod';
import { IsoDateForm } from './dates';
import { CHALLENGE_RULES, CHALLENGES } from './faces';

export const HOSTED_PRODUCTS = ['human', 'age', 'identity', 'compliance'] as const;
export const HOSTED_STATES = ['created', 'opened', 'completed', 'revoked', 'expired'] as const;

const Message = z.string().max(500);

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
export const PublishedFlowStartResponse = HostedGenerateResponse.pick({ hosted_url: true, token: true, expires_at: true });
export type PublishedFlowStartResponse = z.infer<typeof PublishedFlowStartResponse>;
