// The storefront age gate (spec: Age-gate storefront settings, age-gate request and response,
// age-gate behaviour). A merchant's store has one public id, issued in the console; the widget
// script (`/widget/age-gate.js`) carries it, reads the store's public settings, and posts the
// visitor's answer to `POST /api/verify-age`. Attestation needs no API key; selfie mode is paid
// by the store's organisation in the store's environment (test stores are free and say so).
import { z } from 'zod';
import { IsoDate } from './dates';
import { LinkReach } from './links';
import {
  AGE_GATE_DAILY_SELFIE_CAP, AGE_GATE_DURATIONS, AGE_GATE_LOGO_MAX_CHARS, AGE_GATE_MIN_AGE, AGE_GATE_SESSION_MODES, AGE_GATE_TRIGGERS, AGE_GATE_USE_CASES,
} from './age-gate-values';

export * from './age-gate-values';

const Tag = z.string().trim().min(1).max(100);
const Logo = z
  .string()
  .max(AGE_GATE_LOGO_MAX_CHARS)
  .refine((v) => v === '' || /^https:\/\/[^\s]+$/.test(v) || /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+=*$/.test(v), {
    message: 'an https URL or a PNG, JPEG, WebP or GIF picture',
  });

/** What the merchant edits: the storefront settings and the advanced dashboard settings in one record. */
export const AgeGateSettings = z.object({
  /** Enable Age Verification / Age Gate Enabled: one master toggle (docs/decisions.md). */
  enabled: z.boolean().default(false),
  /** Apply Age Gate To (storefront) / Scope (advanced): store = all pages, specific collections = collection tag, specific products = product tag. */
  apply_to: z.enum(AGE_GATE_TRIGGERS).default('all_pages'),
  product_tag: Tag.default('age-restricted'),
  collection_tag: Tag.default('age-restricted'),
  /** Page handles, comma-separated in the form; a list here. */
  page_handles: z.array(z.string().trim().min(1).max(200)).max(100).default([]),
  min_age: z.number().int().min(AGE_GATE_MIN_AGE.min).max(AGE_GATE_MIN_AGE.max).default(18),
  use_case: z.enum(AGE_GATE_USE_CASES).default('adult'),
  /** false: attestation only (a date of birth, no selfie). */
  require_selfie: z.boolean().default(true),
  session_mode: z.enum(AGE_GATE_SESSION_MODES).default('guest'),
  /**
   * Where an underage visitor is sent: https (or http on this machine for testing). Empty by
   * default: no site is chosen for the merchant; the visitor sees the gate's under-age message.
   */
  underage_redirect_url: z.string().max(2048).default(''),
  session_duration_hours: z.number().int().refine((h) => (AGE_GATE_DURATIONS as readonly number[]).includes(h), { message: 'one of 1, 6, 12, 24, 48, 72, 168' }).default(24),
  custom_message: z.string().max(500).default(''),
  logo: Logo.default(''),
  /** Added (issue 25): a live store's paid selfie checks per UTC day; then visitors are asked to try again tomorrow. Not for the widget. */
  daily_selfie_cap: z.number().int().min(AGE_GATE_DAILY_SELFIE_CAP.min).max(AGE_GATE_DAILY_SELFIE_CAP.max).default(AGE_GATE_DAILY_SELFIE_CAP.default),
});
export type AgeGateSettings = z.output<typeof AgeGateSettings>;
export type AgeGateSettingsInput = z.input<typeof AgeGateSettings>;

export const AgeGateEnvQuery = z.object({ env: z.enum(['test', 'live']).default('test') });

/** The console's view of a store: its public id (null until first saved), settings and the script tag to paste. */
export const AgeGateStore = z.object({
  store_id: z.string().nullable(),
  environment: z.enum(['test', 'live']),
  settings: AgeGateSettings,
  /** The script tag for the storefront (null until the store has an id). */
  embed: z.string().nullable(),
  /** Added (issue 26): how far the script tag's address reaches; `this_computer` means no storefront elsewhere can load it. */
  link_reach: LinkReach,
  updated_at: z.string().nullable(),
  /** A live store's selfie checks charged today (UTC day), against `settings.daily_selfie_cap`; null for a test store (free, not capped). */
  selfie_checks_today: z.number().int().nullable(),
});
export type AgeGateStore = z.infer<typeof AgeGateStore>;

export const AgeGateSaveRequest = z.object({ env: z.enum(['test', 'live']), settings: AgeGateSettings });
export type AgeGateSaveRequest = z.input<typeof AgeGateSaveRequest>;

/** What the widget reads, without auth: the settings it needs to show, and whether the store is a test store. The minimum age is the effective one (the use case may raise it). */
export const AgeGatePublicConfig = AgeGateSettings.omit({ daily_selfie_cap: true }).extend({ store_id: z.string(), test_mode: z.boolean() });
export type AgeGatePublicConfig = z.infer<typeof AgeGatePublicConfig>;

/** Spec: age-gate request fields, plus the store it is for. */
export const AgeGateRequest = z.object({
  /** Added: the store's public id (from the widget's script tag). */
  store_id: z.string().min(8).max(64),
  date_of_birth: IsoDate,
  selfie_b64: z.string().min(1).max(14_000_000).optional(),
  /** The widget sends the store's; the store's effective minimum wins when higher. */
  min_age: z.number().int().min(13).max(99).optional(),
  use_case: z.string().max(40).optional(),
  mode: z.enum(AGE_GATE_SESSION_MODES).optional(),
  /** Profile mode: the storefront's customer id. Used for nothing but the widget's own memory; never stored. */
  customer_id: z.string().max(200).optional(),
  attestation_only: z.boolean().optional(),
});
export type AgeGateRequest = z.input<typeof AgeGateRequest>;

/** Spec: age-gate response; the added fields say what the widget does next. */
export const AgeGateResponse = z.object({
  success: z.boolean(),
  verified: z.boolean(),
  estimated_age: z.number().nullable(),
  /**
   * A string (`age_…`) at a selfie store, an integer at an attestation store (its answers are
   * attestation results, with `mode`), under age or not; null when nothing was recorded yet (selfie needed).
   */
  verification_id: z.union([z.string(), z.number().int()]).nullable(),
  /** Attestation results: `attestation`. */
  mode: z.literal('attestation').optional(),
  message: z.string().optional(),
  /** Added: `underage` (go to the redirect), `selfie_required` (the next step), `selfie_not_conclusive`, or a selfie failure code. */
  reason: z.string().nullable(),
  /** Added: where to send an underage visitor. */
  redirect_url: z.string().nullable(),
  /** Added: attempts left this hour for this visitor. */
  attempts_remaining: z.number().int(),
  /** Added: how long a success keeps the overlay away. */
  session_duration_hours: z.number().int(),
  _test_mode: z.literal(true).optional(),
});
export type AgeGateResponse = z.infer<typeof AgeGateResponse>;
