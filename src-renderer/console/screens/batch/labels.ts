// How the batch and review screens word the service's codes. Risk is a signal for the analyst:
// the words approved, rejected, pass and fail never appear here.
import type { BatchRowResult } from '../../../../src-shared/contracts/batch';
import type { RiskChange, ScreeningMatch } from '../../../../src-shared/contracts/screening';
import type { BadgeTone } from '../../components/Badge';
import type { Disposition } from '../../stores/batch';

type Level = BatchRowResult['risk']['level'];

export const LEVEL_LABEL: Record<Level, string> = { low: 'Low', medium: 'Medium', high: 'High' };
export const LEVEL_TONE: Record<Level, BadgeTone> = { low: 'positive', medium: 'warning', high: 'negative' };

export const CHANGE_INFO: Record<RiskChange, { label: string; tone: BadgeTone; arrow: string }> = {
  risk_increased: { label: 'Increased', tone: 'negative', arrow: '↑' },
  risk_decreased: { label: 'Decreased', tone: 'positive', arrow: '↓' },
  risk_unchanged: { label: 'Unchanged', tone: 'neutral', arrow: '=' },
  unknown_without_prior_result: { label: 'No prior result', tone: 'info', arrow: '' },
};

export const DISPOSITION_INFO: Record<Disposition, { label: string; key: string; tone: BadgeTone }> = {
  cleared_false_positive: { label: 'Cleared: false positive', key: 'C', tone: 'positive' },
  escalated: { label: 'Escalated', key: 'E', tone: 'negative' },
  needs_info: { label: 'Needs info', key: 'N', tone: 'warning' },
};

export const KIND_LABEL: Record<ScreeningMatch['list'], string> = {
  sanctions: 'Sanctions', pep: 'PEP', rca: 'RCA', wanted: 'Wanted',
};

export const STRENGTH_LABEL: Record<ScreeningMatch['strength'], string> = {
  strong: 'Strong', possible: 'Possible', weak: 'Weak',
};

/** SANCTIONS_STRONG_MATCH → "Sanctions: strong match". */
export function flagLabel(flag: string): string {
  const m = /^([A-Z]+)_(STRONG|POSSIBLE|WEAK)_MATCH$/.exec(flag);
  if (m) return `${KIND_LABEL[m[1]!.toLowerCase() as ScreeningMatch['list']] ?? m[1]}: ${m[2]!.toLowerCase()} match`;
  if (flag === 'MULTIPLE_MATCHES') return 'Several matches';
  if (flag === 'CLEARED_MATCH_RECORD_CHANGED') return 'A cleared match’s record changed';
  const text = flag.toLowerCase().replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export type MethodTone = 'exact' | 'fuzzy' | 'unmatched';

const METHODS: Record<string, { label: string; tone: MethodTone }> = {
  exact: { label: 'Exact', tone: 'exact' },
  equivalent: { label: 'Equivalent spelling', tone: 'exact' },
  phonetic: { label: 'Sounds alike', tone: 'fuzzy' },
  jaro_winkler: { label: 'Similar spelling', tone: 'fuzzy' },
  edit_distance: { label: 'Close spelling', tone: 'fuzzy' },
  initial: { label: 'Initial', tone: 'fuzzy' },
  joined: { label: 'Joined', tone: 'fuzzy' },
  unmatched: { label: 'Not matched', tone: 'unmatched' },
};

export function methodInfo(method: string): { label: string; tone: MethodTone } {
  return METHODS[method] ?? { label: method.replace(/_/g, ' '), tone: 'fuzzy' };
}

const FACTORS: Record<string, string> = {
  dob_exact: 'Date of birth', dob_year: 'Year of birth', dob_near: 'Year of birth', dob_mismatch: 'Date of birth',
  country_match: 'Country', country_mismatch: 'Country', gender_match: 'Gender', gender_mismatch: 'Gender',
  weak_alias: 'Alias quality',
};

export function factorLabel(factor: string): string {
  return FACTORS[factor] ?? factor.replace(/_/g, ' ');
}

export function fullName(r: { first_name: string; middle_name: string; last_name: string }): string {
  return [r.first_name, r.middle_name, r.last_name].filter(Boolean).join(' ');
}

/** Matches that still count: not cleared earlier. */
export function openMatches(result: BatchRowResult | null): ScreeningMatch[] {
  return result ? result.matches.filter((m) => !m.cleared) : [];
}

export function matchFlag(m: ScreeningMatch): string | null {
  return m.strength === 'weak' ? null : `${m.list.toUpperCase()}_${m.strength.toUpperCase()}_MATCH`;
}

/** Uncleared strong or possible matches whose kind of flag the previous result did not have. */
export function newMatches(result: BatchRowResult | null, previousFlags: readonly string[] | undefined): ScreeningMatch[] {
  const before = new Set(previousFlags ?? []);
  return openMatches(result).filter((m) => {
    const flag = matchFlag(m);
    return flag !== null && !before.has(flag);
  });
}

/** Short text for the saved CSV: which alias matched, how tokens lined up, what moved the score. */
export function explanationText(m: ScreeningMatch): string {
  const e = m.explanation;
  const tokens = e.alignment
    .map((a) => `${a.query ?? '-'}/${a.candidate ?? '-'} ${a.method}${a.method === 'unmatched' ? '' : ` ${Math.round(a.similarity * 100)}%`}`)
    .join(', ');
  const qualifiers = e.qualifiers.map((q) => `${q.factor} ${q.effect > 0 ? '+' : ''}${q.effect}`).join(', ');
  const alias = e.matched_name === m.name ? 'listed name' : 'alias';
  return `matched ${alias} "${e.matched_name}" (name ${Math.round(e.name_score * 100)}); tokens: ${tokens}${qualifiers ? `; qualifiers: ${qualifiers}` : ''}`;
}
