// The age gate's values without zod, so the storefront widget (a small script) can import them
// from the same place the contract's schemas build on (src-shared/contracts/age-gate.ts).
/** Apply Age Gate To: the four trigger modes. */
export const AGE_GATE_TRIGGERS = ['all_pages', 'product_tag', 'collection_tag', 'page_handles'] as const;
export const AGE_GATE_USE_CASES = ['adult', 'tobacco', 'alcohol', 'cannabis', 'gambling'] as const;
export const AGE_GATE_SESSION_MODES = ['guest', 'profile'] as const;
/** Session Duration choices in hours: 1 hour to 1 week. */
export const AGE_GATE_DURATIONS = [1, 6, 12, 24, 48, 72, 168] as const;
export const AGE_GATE_MIN_AGE = { min: 18, max: 25 } as const;
/** Attempts a visitor may make per store in one hour; the next answers Too Many Attempts. */
export const AGE_GATE_ATTEMPTS_PER_HOUR = 5;
/**
 * Selfie checks a live store pays for in one UTC day, then the widget's selfie step answers 429
 * until the next day (issue 25; docs/decisions.md). Test stores are free and not capped.
 */
export const AGE_GATE_DAILY_SELFIE_CAP = { min: 1, max: 100_000, default: 200 } as const;
/** A logo is a small picture kept with the settings (a data: URL) or an https address. */
export const AGE_GATE_LOGO_MAX_CHARS = 200_000;
