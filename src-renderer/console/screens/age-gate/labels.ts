// What the age-gate screen calls the contract's values. The records are typed by the contract,
// so a value added there fails the type check here until it has a label. Form-side helpers that
// turn zod's issues into sentences read the limits from the issue itself, never restate them.
import type { z } from 'zod';
import { USE_CASE_MIN_AGE } from '../../../../src-shared/catalog';
import type { AgeGateSettings } from '../../../../src-shared/contracts/age-gate';

export type Field = keyof AgeGateSettings;

export const TRIGGER_LABEL: Record<AgeGateSettings['apply_to'], string> = {
  all_pages: 'All pages',
  product_tag: 'Products with a tag',
  collection_tag: 'Collections with a tag',
  page_handles: 'Specific pages (by handle)',
};

/** The advanced dashboard's name for the same field (Scope). */
export const SCOPE_LABEL: Record<AgeGateSettings['apply_to'], string> = {
  all_pages: 'Store',
  product_tag: 'Specific products',
  collection_tag: 'Specific collections',
  page_handles: 'Specific pages',
};

export const USE_CASE_LABEL: Record<AgeGateSettings['use_case'], string> = {
  adult: 'Adult content',
  tobacco: 'Tobacco and vaping',
  alcohol: 'Alcohol',
  cannabis: 'Cannabis',
  gambling: 'Gambling',
};

export const SESSION_MODE_LABEL: Record<AgeGateSettings['session_mode'], { label: string; hint: string }> = {
  guest: { label: 'Guest (session-based)', hint: 'A success is remembered in the visitor’s browser.' },
  profile: { label: 'Profile (customer account)', hint: 'A success is remembered per signed-in customer (the script tag’s data-customer-id).' },
};

export const FIELD_LABEL: Record<Field, string> = {
  enabled: 'Enable age verification',
  apply_to: 'Apply age gate to',
  product_tag: 'Product tag',
  collection_tag: 'Collection tag',
  page_handles: 'Page handles',
  min_age: 'Minimum age',
  use_case: 'Use case',
  require_selfie: 'Require selfie verification',
  session_mode: 'Session mode',
  underage_redirect_url: 'Redirect URL for underage visitors',
  session_duration_hours: 'Session duration',
  custom_message: 'Custom message',
  logo: 'Logo',
  daily_selfie_cap: 'Selfie checks per day (live)',
};

/** The form control's id for a field (server errors focus it). */
export const fieldId = (field: Field) => `ag-${field}`;

export function durationLabel(hours: number): string {
  if (hours === 168) return '1 week';
  if (hours % 24 === 0) return hours === 24 ? '24 hours (1 day)' : `${hours} hours (${hours / 24} days)`;
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

/** The minimum the service applies: the store's setting, raised by its use case, never lowered. */
export function effectiveMinAge(s: Pick<AgeGateSettings, 'min_age' | 'use_case'>): number {
  return Math.max(s.min_age, USE_CASE_MIN_AGE[s.use_case]);
}

/** One sentence for a zod issue on a settings field, with the limit the schema itself reports. */
export function issueText(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_big':
      if (issue.origin === 'string') return `At most ${String(issue.maximum)} characters.`;
      if (issue.origin === 'array') return `At most ${String(issue.maximum)} entries.`;
      return `At most ${String(issue.maximum)}.`;
    case 'too_small':
      if (issue.origin === 'string') return 'Required.';
      return `At least ${String(issue.minimum)}.`;
    case 'custom':
      return `Must be ${issue.message}.`;
    case 'invalid_value':
      return 'Choose one of the options.';
    case 'invalid_type':
      // An empty or fractional number field (the daily selfie limit).
      return issue.expected === 'number' || issue.expected === 'int' ? 'Enter a whole number.' : issue.message;
    default:
      return issue.message;
  }
}

/** The service's redirect issues (a 400 naming underage_redirect_url) in words. */
export const REDIRECT_ISSUE: Record<string, string> = {
  not_a_url: 'Enter an absolute URL, such as https://example.com/.',
  refused_scheme: 'This kind of address is not allowed. Use an https address.',
  scheme_not_registered: 'This app scheme is not registered. Add it in Settings → App schemes, or use an https address.',
  http_not_allowed: 'Use https (plain http only for localhost, for testing).',
  credentials_in_url: 'Remove the user name or password from the address.',
  too_long: 'The address is too long.',
};
