// Why a name matched, in parts that the screening and review screens lay out each their own way:
// the listed name with its tokens tinted by how they matched, the token alignment table, and the
// qualifiers that moved the score. Each screen keeps its look and its test ids: `classPrefix`
// names the screen's classes (scr → scr-tok, scr-align, scr-qualifiers…) and `testIdPrefix` goes
// before each data-testid ('' → "alignment", 'review-' → "review-alignment").
import type { ReactNode } from 'react';
import type { MatchExplanation as Explanation, ScreeningMatch } from '../../../src-shared/contracts/screening';
import { Badge } from './Badge';
import { DECISION_LABEL, factorLabel, LEVEL_TONE, methodInfo, type MethodTone } from './screening-labels';

interface LookProps {
  classPrefix: string;
  testIdPrefix?: string;
}

/** Case, accents and punctuation folded, as far as the browser can: the service's tokens are folded. */
function fold(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * The level this match alone carries and why, in one line: "Review · name matches; date of birth
 * differs". An exact name whose qualifiers disagree is listed for review, never as high risk.
 */
export function MatchTier({ match, classPrefix: c, testIdPrefix: t = '' }: LookProps & { match: Pick<ScreeningMatch, 'risk_level' | 'explanation'> }) {
  const decision = match.risk_level === 'high' ? 'high_risk_review' : 'review';
  return (
    <span className={`${c}-tier`} data-testid={`${t}match-tier`} data-level={match.risk_level}>
      <Badge tone={LEVEL_TONE[match.risk_level]}>{DECISION_LABEL[decision]}</Badge>
      <span data-testid={`${t}match-reason`}>{match.explanation.summary}</span>
    </span>
  );
}

/** +8, −12, 0 (with a real minus sign). */
export function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : '0';
}

/** "listed name" or "alias", and whether the alias is a low-quality one. */
export function matchedNameNote(match: Pick<ScreeningMatch, 'name' | 'explanation'>): string {
  const e = match.explanation;
  return `${e.matched_name === match.name ? 'listed name' : 'alias'}${e.matched_name_quality === 'weak' ? ', low-quality alias' : ''}`;
}

/** The listed name with each word tinted by how its token was matched. */
export function HighlightedName({
  name, alignment, classPrefix: c, testIdPrefix: t = '',
}: LookProps & { name: string; alignment: Explanation['alignment'] }) {
  const tones = new Map<string, MethodTone>();
  for (const a of alignment) {
    if (a.candidate === null) continue;
    for (const part of a.candidate.split(/\s+/)) {
      const key = fold(part);
      // A token both matched and unmatched (repeated names) shows as matched.
      if (!tones.has(key) || tones.get(key) === 'unmatched') tones.set(key, methodInfo(a.method).tone);
    }
  }
  const parts = name.split(/([\p{L}\p{N}]+)/u);
  return (
    <span className={`${c}-hl`} data-testid={`${t}matched-name`}>
      {parts.map((part, i) => {
        const tone = i % 2 === 1 ? tones.get(fold(part)) : undefined;
        return tone ? (
          <mark key={i} className={`${c}-tok ${c}-tok-${tone}`}>
            {part}
          </mark>
        ) : (
          <span key={i}>{part}</span>
        );
      })}
    </span>
  );
}

function Token({ text, tone, classPrefix: c }: { text: string | null; tone: MethodTone; classPrefix: string }) {
  if (text === null) return <span className={`${c}-tok-none`} aria-label="nothing">—</span>;
  return <span className={`${c}-tok ${c}-tok-${tone}`}>{text}</span>;
}

/** Column headings of the alignment table: the screened token, the listed token, how they match. */
export interface AlignmentHeadings {
  query: string;
  candidate: string;
  method: string;
}

/** Screened and listed name tokens side by side, with how and how closely they match. */
export function AlignmentTable({
  alignment, headings, classPrefix: c, testIdPrefix: t = '',
}: LookProps & { alignment: Explanation['alignment']; headings: AlignmentHeadings }) {
  return (
    <table className={`${c}-align`} data-testid={`${t}alignment`}>
      <thead>
        <tr>
          <th scope="col">{headings.query}</th>
          <th scope="col">{headings.candidate}</th>
          <th scope="col">{headings.method}</th>
          <th scope="col" className="numeric">Similarity</th>
        </tr>
      </thead>
      <tbody>
        {alignment.map((a, i) => {
          const info = methodInfo(a.method);
          return (
            <tr key={i} data-testid={`${t}alignment-row`} data-method={a.method} data-tone={info.tone}>
              <td><Token text={a.query} tone={info.tone} classPrefix={c} /></td>
              <td><Token text={a.candidate} tone={info.tone} classPrefix={c} /></td>
              <td title={info.hint}>{info.label}</td>
              <td className="numeric">{a.method === 'unmatched' ? '—' : `${Math.round(a.similarity * 100)}%`}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** What moved the score (date of birth, country, gender, alias quality); `empty` when nothing did. */
export function QualifierList({
  qualifiers, empty, classPrefix: c, testIdPrefix: t = '',
}: LookProps & { qualifiers: Explanation['qualifiers']; empty: ReactNode }) {
  if (qualifiers.length === 0) return <>{empty}</>;
  return (
    <ul className={`${c}-qualifiers`} data-testid={`${t}qualifiers`}>
      {qualifiers.map((q, i) => (
        <li key={i} data-testid={`${t}qualifier`} data-factor={q.factor} data-effect={q.effect}>
          <span className={`${c}-effect ${q.effect >= 0 ? `${c}-effect-up` : `${c}-effect-down`}`}>{signed(q.effect)}</span>{' '}
          <span>
            <strong>{factorLabel(q.factor)}</strong>: {q.detail}
          </span>
        </li>
      ))}
    </ul>
  );
}
