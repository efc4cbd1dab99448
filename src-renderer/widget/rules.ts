// The widget's decisions, apart from the DOM so they are tested in plain Node: reading the
// service's answers (checked by hand against the contract's types and values: zod would triple the script),
// whether the gate applies to this page, and what a remembered success looks like.
import type { AgeGatePublicConfig, AgeGateResponse } from '../../src-shared/contracts/age-gate';
import { AGE_GATE_SESSION_MODES, AGE_GATE_TRIGGERS, AGE_GATE_USE_CASES } from '../../src-shared/contracts/age-gate-values';

/** The public settings the widget reads. */
export type WidgetConfig = Pick<
  AgeGatePublicConfig,
  'store_id' | 'test_mode' | 'apply_to' | 'product_tag' | 'collection_tag' | 'page_handles' | 'min_age' | 'use_case' | 'require_selfie' |
  'session_mode' | 'session_duration_hours' | 'custom_message' | 'logo'
>;

/** The parts of an answer the widget acts on. */
export type WidgetAnswer = Pick<AgeGateResponse, 'verified' | 'reason' | 'redirect_url' | 'attempts_remaining' | 'session_duration_hours'>;


type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
/** One of the contract's own values (the zod-free module its enums are built from). */
const isOneOf = (values: readonly string[], v: unknown): boolean => isStr(v) && values.includes(v);

/** The config endpoint's answer, or null when it is not one (the widget then does nothing). */
export function parseConfig(v: unknown): WidgetConfig | null {
  if (!isObj(v)) return null;
  const ok =
    isStr(v.store_id) && typeof v.test_mode === 'boolean' && v.enabled === true && isOneOf(AGE_GATE_TRIGGERS, v.apply_to) && isStr(v.product_tag) &&
    isStr(v.collection_tag) && Array.isArray(v.page_handles) && v.page_handles.every(isStr) && isInt(v.min_age) && isOneOf(AGE_GATE_USE_CASES, v.use_case) &&
    typeof v.require_selfie === 'boolean' && isOneOf(AGE_GATE_SESSION_MODES, v.session_mode) && isInt(v.session_duration_hours) && v.session_duration_hours > 0 &&
    isStr(v.custom_message) && isStr(v.logo);
  return ok ? (v as unknown as WidgetConfig) : null;
}

/** A `POST /api/verify-age` answer (HTTP 200), or null when it is not one. */
export function parseAnswer(v: unknown): WidgetAnswer | null {
  if (!isObj(v)) return null;
  const ok =
    typeof v.verified === 'boolean' && (v.reason === null || isStr(v.reason)) && (v.redirect_url === null || isStr(v.redirect_url)) &&
    isInt(v.attempts_remaining) && isInt(v.session_duration_hours);
  return ok ? (v as unknown as WidgetAnswer) : null;
}

/** What the page says about itself (the script tag's data attributes). */
export interface PageFacts {
  productTags: string[];
  collectionTags: string[];
  handle: string;
}

/** A comma-separated attribute as trimmed, lower-case, non-empty items. */
export function list(attr: string | null | undefined): string[] {
  return (attr ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
}

/** The last segment of a path (`/pages/wine-club/` → `wine-club`), the page's handle by default. */
export function handleOf(pathname: string): string {
  const parts = pathname.split('/').filter(Boolean);
  const last = parts[parts.length - 1] ?? '';
  try {
    return decodeURIComponent(last).toLowerCase();
  } catch {
    return last.toLowerCase();
  }
}

/** Apply Age Gate To: whether this page is gated. */
export function applies(c: Pick<WidgetConfig, 'apply_to' | 'product_tag' | 'collection_tag' | 'page_handles'>, page: PageFacts): boolean {
  switch (c.apply_to) {
    case 'all_pages':
      return true;
    case 'product_tag':
      return page.productTags.includes(c.product_tag.trim().toLowerCase());
    case 'collection_tag':
      return page.collectionTags.includes(c.collection_tag.trim().toLowerCase());
    case 'page_handles':
      return page.handle !== '' && c.page_handles.some((h) => h.trim().toLowerCase() === page.handle);
  }
}

/** Where a success is remembered: per store, and per customer in profile mode (a guest has no customer id). */
export function memoryKey(storeId: string, mode: WidgetConfig['session_mode'], customerId: string | null): string {
  return mode === 'profile' && customerId ? `cc-age-gate:${storeId}:${customerId}` : `cc-age-gate:${storeId}`;
}

/** The remembered value: when the success runs out, nothing else (no date of birth, nothing personal). */
export function memoryValue(hours: number, now: number): string {
  return JSON.stringify({ until: now + hours * 3_600_000 });
}

/** Whether a stored value is a success that has not run out. */
export function remembered(stored: string | null, now: number): boolean {
  if (!stored) return false;
  try {
    const v: unknown = JSON.parse(stored);
    return isObj(v) && typeof v.until === 'number' && v.until > now;
  } catch {
    return false;
  }
}
