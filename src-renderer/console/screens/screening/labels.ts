// How the screening screen words the service's codes. Risk is a signal for the analyst: the
// words approved, rejected, pass and fail never appear here.
import type { ListKind } from '../../../../src-shared/contracts/screening';
import type { ScreeningResult } from './screening-api';

type Risk = ScreeningResult['risk'];

export const KIND_LABEL: Record<ListKind, string> = {
  sanctions: 'Sanctions',
  pep: 'Politically exposed persons',
  rca: 'Relatives and close associates',
  wanted: 'Wanted',
};

export const KIND_SHORT: Record<ListKind, string> = { sanctions: 'Sanctions', pep: 'PEP', rca: 'RCA', wanted: 'Wanted' };

export function kindLabel(kind: string, short = false): string {
  const table: Record<string, string> = short ? KIND_SHORT : KIND_LABEL;
  return table[kind] ?? kind;
}

export const DECISION_LABEL: Record<Risk['decision'], string> = {
  clear: 'Clear',
  review: 'Review',
  high_risk_review: 'High-risk review',
};

export const LEVEL_LABEL: Record<Risk['level'], string> = { low: 'Low risk', medium: 'Medium risk', high: 'High risk' };

/** Short names for the shipped lists; anything else shows the title the service reports. */
const SOURCE_SHORT: Record<string, string> = {
  us_ofac_sdn: 'OFAC SDN',
  us_ofac_cons: 'OFAC non-SDN',
  us_csl: 'US Consolidated Screening List',
  un_sc: 'UN Security Council',
};

export function sourceLabel(source: string, titles: ReadonlyMap<string, string>): string {
  return SOURCE_SHORT[source] ?? titles.get(source) ?? source;
}

export type MethodTone = 'exact' | 'fuzzy' | 'unmatched';

const METHODS: Record<string, { label: string; tone: MethodTone; hint: string }> = {
  exact: { label: 'Exact', tone: 'exact', hint: 'The same token after case, accents and transliteration are folded.' },
  equivalent: { label: 'Equivalent', tone: 'exact', hint: 'A known variant spelling of the same name (e.g. W/V, transliterations).' },
  phonetic: { label: 'Sounds alike', tone: 'fuzzy', hint: 'Different spelling with the same phonetic key.' },
  jaro_winkler: { label: 'Similar spelling', tone: 'fuzzy', hint: 'Close spelling (Jaro-Winkler similarity).' },
  edit_distance: { label: 'Close spelling', tone: 'fuzzy', hint: 'A few letters differ (weighted edit distance).' },
  initial: { label: 'Initial', tone: 'fuzzy', hint: 'An initial matched a full name.' },
  joined: { label: 'Joined', tone: 'fuzzy', hint: 'Tokens written together on one side and apart on the other.' },
  unmatched: { label: 'Not matched', tone: 'unmatched', hint: 'This token has no counterpart on the other side.' },
};

export function methodInfo(method: string): { label: string; tone: MethodTone; hint: string } {
  return METHODS[method] ?? { label: method.replace(/_/g, ' '), tone: 'fuzzy', hint: '' };
}

const FACTORS: Record<string, string> = {
  dob_exact: 'Date of birth',
  dob_year: 'Year of birth',
  dob_near: 'Year of birth',
  dob_mismatch: 'Date of birth',
  country_match: 'Country',
  country_mismatch: 'Country',
  gender_match: 'Gender',
  gender_mismatch: 'Gender',
  weak_alias: 'Alias quality',
};

export function factorLabel(factor: string): string {
  return FACTORS[factor] ?? factor.replace(/_/g, ' ');
}

/** SANCTIONS_STRONG_MATCH → "Sanctions: strong match"; unknown flags read as sentence case. */
export function flagLabel(flag: string): string {
  const m = /^([A-Z]+)_(STRONG|POSSIBLE|WEAK)_MATCH$/.exec(flag);
  if (m) return `${kindLabel(m[1]!.toLowerCase(), true)}: ${m[2]!.toLowerCase()} match`;
  if (flag === 'MULTIPLE_MATCHES') return 'Several matches';
  if (flag === 'CLEARED_MATCH_RECORD_CHANGED') return 'A cleared match’s record changed';
  const text = flag.toLowerCase().replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  } catch {
    return null;
  }
})();

/** "RU" → "Russia"; undefined for codes that are not a region. */
export function countryName(code: string): string | undefined {
  if (!/^[A-Za-z]{2}$/.test(code)) return undefined;
  try {
    return regionNames?.of(code.toUpperCase()) ?? undefined;
  } catch {
    return undefined;
  }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A list's date as published: "27 Feb 2026", "May 2025" for a month-only date. Parsed by hand:
 * `new Date('2026-02-27')` is midnight UTC and would show the day before west of Greenwich.
 */
export function listDate(value: string): string {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value);
  if (!m) return value;
  const month = m[2] ? MONTHS[Number(m[2]) - 1] : undefined;
  if (!m[2] || !month) return m[1]!;
  return m[3] ? `${Number(m[3])} ${month} ${m[1]}` : `${month} ${m[1]}`;
}

/** "27 Feb 2026", or "retrieved 3 May 2024" when the list states no date of its own. */
export function versionDate(v: { list_date: string | null; retrieval_date: string | null }): string {
  if (v.list_date) return listDate(v.list_date);
  if (v.retrieval_date) return `retrieved ${listDate(v.retrieval_date)}`;
  return 'undated';
}
