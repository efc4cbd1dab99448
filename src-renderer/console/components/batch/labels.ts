// Batch and review helpers: disposition words, names, and which matches are open or new. The
// words for the service's codes (risk, flags, kinds, methods) are in components/screening-labels.ts.
import type { BatchRowResult } from '../../../../src-shared/contracts/batch';
import type { ScreeningMatch } from '../../../../src-shared/contracts/screening';
import type { ReasonCode } from '../../../../src-shared/contracts/review';
import type { BadgeTone } from '../Badge';
import type { Disposition, EarlierDisposition } from '../../stores/batch';

export const DISPOSITION_INFO: Record<Disposition, { label: string; key: string; tone: BadgeTone }> = {
  cleared_false_positive: { label: 'Cleared: false positive', key: 'C', tone: 'positive' },
  escalated: { label: 'Escalated', key: 'E', tone: 'negative' },
  needs_info: { label: 'Needs info', key: 'N', tone: 'warning' },
};

/** A saved result's disposition, including a clearance that was still waiting for approval. */
export const EARLIER_LABEL: Record<EarlierDisposition, string> = {
  cleared_false_positive: DISPOSITION_INFO.cleared_false_positive.label,
  escalated: DISPOSITION_INFO.escalated.label,
  needs_info: DISPOSITION_INFO.needs_info.label,
  awaiting_approval: 'Clearance awaiting approval',
};

/** Why a strong sanctions match is not the customer. */
export const REASON_INFO: Record<ReasonCode, { label: string; hint: string }> = {
  different_dob: { label: 'Different date of birth', hint: 'The customer’s date of birth rules out the listed person.' },
  different_nationality: { label: 'Different nationality or country', hint: 'The customer’s nationality or country rules out the listed person.' },
  different_person_other_identifiers: {
    label: 'Other identifiers differ', hint: 'A document number, address, photo or other identifier shows a different person.',
  },
  name_only_common_name: { label: 'Name-only match on a common name', hint: 'Only the name matches, and it is a common one; nothing else links them.' },
  list_record_outdated: { label: 'List record outdated', hint: 'The listing was lifted or corrected after this version of the list.' },
  other: { label: 'Other', hint: 'Explain in the note.' },
};

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
