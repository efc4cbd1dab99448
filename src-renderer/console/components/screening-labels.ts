// How the console words the screening service's codes (list kinds, risk levels and decisions,
// risk changes, match strengths, flags, token alignment methods, qualifiers), shared by the
// screening, batch and review screens. Risk is a signal for the analyst: the words approved,
// rejected, pass and fail never appear here.
import type { ListKind, RiskChange, ScreeningMatch, ScreeningResponse } from '../../../src-shared/contracts/screening';
import type { BadgeTone } from './Badge';

type Risk = ScreeningResponse['risk'];
type Level = Risk['level'];

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

/** "Low", "Medium", "High": the level on its own, for badges and table cells. */
export const LEVEL_LABEL: Record<Level, string> = { low: 'Low', medium: 'Medium', high: 'High' };
export const LEVEL_TONE: Record<Level, BadgeTone> = { low: 'positive', medium: 'warning', high: 'negative' };

/** "Low risk", "High risk": the level standing alone as the result's headline. */
export function riskLevelLabel(level: Level): string {
  return `${LEVEL_LABEL[level]} risk`;
}

export const CHANGE_INFO: Record<RiskChange, { label: string; tone: BadgeTone; arrow: string }> = {
  risk_increased: { label: 'Increased', tone: 'negative', arrow: '↑' },
  risk_decreased: { label: 'Decreased', tone: 'positive', arrow: '↓' },
  risk_unchanged: { label: 'Unchanged', tone: 'neutral', arrow: '=' },
  unknown_without_prior_result: { label: 'No prior result', tone: 'info', arrow: '' },
};

/** "Strong" and so on; shown as "Strong match". */
export const STRENGTH_INFO: Record<ScreeningMatch['strength'], { label: string; tone: BadgeTone }> = {
  strong: { label: 'Strong', tone: 'negative' },
  possible: { label: 'Possible', tone: 'warning' },
  weak: { label: 'Weak', tone: 'neutral' },
};

/**
 * SANCTIONS_STRONG_MATCH → "Sanctions: strong match" (`short`: "Sanctions: strong", for a chip in a
 * table cell); unknown flags read as sentence case.
 */
export function flagLabel(flag: string, short = false): string {
  const m = /^([A-Z]+)_(STRONG|POSSIBLE|WEAK)_MATCH$/.exec(flag);
  if (m) return `${kindLabel(m[1]!.toLowerCase(), true)}: ${m[2]!.toLowerCase()}${short ? '' : ' match'}`;
  if (flag === 'MULTIPLE_MATCHES') return 'Several matches';
  if (flag === 'CLEARED_MATCH_RECORD_CHANGED') return 'A cleared match’s record changed';
  const text = flag.toLowerCase().replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export type MethodTone = 'exact' | 'fuzzy' | 'unmatched';

export interface MethodInfo {
  label: string;
  tone: MethodTone;
  hint: string;
}

const METHODS: Record<string, MethodInfo> = {
  exact: { label: 'Exact', tone: 'exact', hint: 'The same token after case, accents and transliteration are folded.' },
  equivalent: { label: 'Equivalent', tone: 'exact', hint: 'A known variant spelling of the same name (e.g. W/V, transliterations).' },
  phonetic: { label: 'Sounds alike', tone: 'fuzzy', hint: 'Different spelling with the same phonetic key.' },
  jaro_winkler: { label: 'Similar spelling', tone: 'fuzzy', hint: 'Close spelling (Jaro-Winkler similarity).' },
  edit_distance: { label: 'Close spelling', tone: 'fuzzy', hint: 'A few letters differ (weighted edit distance).' },
  initial: { label: 'Initial', tone: 'fuzzy', hint: 'An initial matched a full name.' },
  joined: { label: 'Joined', tone: 'fuzzy', hint: 'Tokens written together on one side and apart on the other.' },
  nickname: { label: 'Short form', tone: 'fuzzy', hint: 'A short or familiar form of the other name (e.g. Ted for Theodore).' },
  slip: { label: 'Typo or other name', tone: 'fuzzy', hint: 'Spelled close but with other consonants (e.g. Nabil / Habil): a typing slip or a different name.' },
  repeated: { label: 'Repeated', tone: 'exact', hint: 'The same name part given twice (e.g. a one-word name typed as first and last name).' },
  unmatched: { label: 'Not matched', tone: 'unmatched', hint: 'This token has no counterpart on the other side.' },
};

export function methodInfo(method: string): MethodInfo {
  return METHODS[method] ?? { label: method.replace(/_/g, ' '), tone: 'fuzzy', hint: '' };
}

const FACTORS: Record<string, string> = {
  dob_exact: 'Date of birth',
  dob_year: 'Year of birth',
  dob_near: 'Year of birth',
  dob_same_year: 'Date of birth',
  dob_flipped: 'Date of birth',
  dob_mismatch: 'Date of birth',
  country_match: 'Country',
  country_mismatch: 'Country',
  gender_match: 'Gender',
  gender_mismatch: 'Gender',
  weak_alias: 'Alias quality',
  record_type_unknown: 'Record type',
  subject_name_part_unlisted: 'Name part not listed',
  listed_surname_unmatched: 'Listed family name',
  listed_name_part_unmatched: 'Listed name part',
};

export function factorLabel(factor: string): string {
  return FACTORS[factor] ?? factor.replace(/_/g, ' ');
}
