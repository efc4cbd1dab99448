// Why a name matched, for the screening and the review screens alike: the listed name with its
// tokens tinted by how they matched, the token alignment table and the qualifiers that moved the
// score. `variant` picks the layout: 'panel' (screening: score parts, two columns, a legend, the
// aliases) or 'inline' (review: one compact column inside an opened row). `testIdPrefix` goes
// before each data-testid ('' → "alignment", 'review-' → "review-alignment"). Styles:
// match-explanation.css, colours from styles/tokens.css.
import type { ReactNode } from 'react';
import type { MatchExplanation as Explanation, ScreeningMatch } from '../../../src-shared/contracts/screening';
import { Badge } from './Badge';
import { DECISION_LABEL, factorLabel, LEVEL_TONE, methodInfo, type MethodTone } from './screening-labels';
import './match-explanation.css';

type ExplainedMatch = Pick<ScreeningMatch, 'name' | 'score' | 'aliases' | 'entity_id' | 'record_hash' | 'risk_level' | 'explanation'>;

/** Case, accents and punctuation folded, as far as the browser can: the service's tokens are folded. */
function fold(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** +8, −12, 0 (with a real minus sign). */
function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : '0';
}

/**
 * The level this match alone carries and why, in one line: "Review · name matches; date of birth
 * differs". An exact name whose qualifiers disagree is listed for review, never as high risk.
 */
export function MatchTier({ match, testIdPrefix: t = '' }: { match: Pick<ScreeningMatch, 'risk_level' | 'explanation'>; testIdPrefix?: string }) {
  const decision = match.risk_level === 'high' ? 'high_risk_review' : 'review';
  return (
    <span className="mx-tier" data-testid={`${t}match-tier`} data-level={match.risk_level}>
      <Badge tone={LEVEL_TONE[match.risk_level]}>{DECISION_LABEL[decision]}</Badge>
      <span data-testid={`${t}match-reason`}>{match.explanation.summary}</span>
    </span>
  );
}

/** "listed name" or "alias", and whether the alias is a low-quality one. */
function matchedNameNote(match: Pick<ScreeningMatch, 'name' | 'explanation'>): string {
  const e = match.explanation;
  return `${e.matched_name === match.name ? 'listed name' : 'alias'}${e.matched_name_quality === 'weak' ? ', low-quality alias' : ''}`;
}

/** The listed name with each word tinted by how its token was matched. */
function HighlightedName({ name, alignment, t }: { name: string; alignment: Explanation['alignment']; t: string }) {
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
    <span className="mx-hl" data-testid={`${t}matched-name`}>
      {parts.map((part, i) => {
        const tone = i % 2 === 1 ? tones.get(fold(part)) : undefined;
        return tone ? (
          <mark key={i} className={`mx-tok mx-tok-${tone}`}>
            {part}
          </mark>
        ) : (
          <span key={i}>{part}</span>
        );
      })}
    </span>
  );
}

function Token({ text, tone }: { text: string | null; tone: MethodTone }) {
  if (text === null) return <span className="mx-tok-none" aria-label="nothing">—</span>;
  return <span className={`mx-tok mx-tok-${tone}`}>{text}</span>;
}

/** Screened and listed name tokens side by side, with how and how closely they match. */
function AlignmentTable({ alignment, headings, t }: { alignment: Explanation['alignment']; headings: [string, string, string]; t: string }) {
  return (
    <table className="mx-align" data-testid={`${t}alignment`}>
      <thead>
        <tr>
          {headings.map((h) => <th key={h} scope="col">{h}</th>)}
          <th scope="col" className="numeric">Similarity</th>
        </tr>
      </thead>
      <tbody>
        {alignment.map((a, i) => {
          const info = methodInfo(a.method);
          return (
            <tr key={i} data-testid={`${t}alignment-row`} data-method={a.method} data-tone={info.tone}>
              <td><Token text={a.query} tone={info.tone} /></td>
              <td><Token text={a.candidate} tone={info.tone} /></td>
              <td title={info.hint}>
                {info.label}
                {a.romanisation !== null ? <span className="mx-romanisation" data-testid={`${t}alignment-romanisation`}>{a.romanisation}</span> : null}
              </td>
              <td className="numeric">{a.method === 'unmatched' ? '—' : `${Math.round(a.similarity * 100)}%`}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** What moved the score (date of birth, country, gender, alias quality); `empty` when nothing did. */
function QualifierList({ qualifiers, empty, t }: { qualifiers: Explanation['qualifiers']; empty: ReactNode; t: string }) {
  if (qualifiers.length === 0) return <>{empty}</>;
  return (
    <ul className="mx-qualifiers" data-testid={`${t}qualifiers`}>
      {qualifiers.map((q, i) => (
        <li key={i} data-testid={`${t}qualifier`} data-factor={q.factor} data-effect={q.effect}>
          <span className={`mx-effect ${q.effect >= 0 ? 'mx-effect-up' : 'mx-effect-down'}`}>{signed(q.effect)}</span>{' '}
          <span>
            <strong>{factorLabel(q.factor)}</strong>: {q.detail}
          </span>
        </li>
      ))}
    </ul>
  );
}

interface MatchExplanationProps {
  match: ExplainedMatch;
  variant: 'panel' | 'inline';
  testIdPrefix?: string;
  /** The explanation's own test id (the screens name it differently). */
  testId: string;
  id?: string;
}

export function MatchExplanation({ match, variant, testIdPrefix: t = '', testId, id }: MatchExplanationProps) {
  const e = match.explanation;
  const nameScore = Math.round(e.name_score * 100);
  const record = (
    <p className="muted mx-small mx-record">
      Record <code>{match.entity_id}</code> · version <code>{match.record_hash}</code>
    </p>
  );

  if (variant === 'inline') {
    return (
      <div id={id} className="mx mx-inline" data-testid={testId}>
        <MatchTier match={match} testIdPrefix={t} />
        <p className="mx-line">
          <span className="mx-label">Matched on</span>
          <HighlightedName name={e.matched_name} alignment={e.alignment} t={t} />
          <span className="muted mx-small">
            {matchedNameNote(match)} · name similarity {nameScore}
          </span>
        </p>
        <AlignmentTable alignment={e.alignment} headings={['Screened', 'Listed', 'How']} t={t} />
        <div className="mx-line">
          <span className="mx-label">Qualifiers</span>
          <QualifierList
            qualifiers={e.qualifiers}
            empty={<span className="muted mx-small">none (the file gives no date of birth, country or gender that confirms or rules it out)</span>}
            t={t}
          />
        </div>
        {record}
      </div>
    );
  }

  const adjust = e.qualifiers.reduce((sum, q) => sum + q.effect, 0);
  return (
    <div id={id} className="mx mx-panel" data-testid={testId}>
      <div className="mx-head">
        <div className="mx-name">
          <span className="mx-label">Matched on</span>
          <HighlightedName name={e.matched_name} alignment={e.alignment} t={t} />
          <span className="muted mx-small">{matchedNameNote(match)}</span>
        </div>
        <dl className="mx-score-parts" data-testid={`${t}score-parts`}>
          <div>
            <dt>Name similarity</dt>
            <dd>{nameScore}</dd>
          </div>
          <div>
            <dt>Qualifiers</dt>
            <dd>{signed(adjust)}</dd>
          </div>
          <div>
            <dt>Match score</dt>
            <dd>
              {match.score}
              {nameScore + adjust > 100 ? <span className="muted mx-small"> (max)</span> : null}
            </dd>
          </div>
        </dl>
      </div>

      <div className="mx-body">
        <div className="mx-block">
          <h4 className="mx-label">Name tokens, side by side</h4>
          <AlignmentTable alignment={e.alignment} headings={['Screened name', 'Listed name', 'How they match']} t={t} />
          <p className="mx-legend muted" aria-hidden="true">
            <span className="mx-tok mx-tok-exact">exact or equivalent</span>
            <span className="mx-tok mx-tok-fuzzy">similar or sounds alike</span>
            <span className="mx-tok mx-tok-unmatched">not matched</span>
          </p>
        </div>

        <div className="mx-block">
          <h4 className="mx-label">Qualifiers</h4>
          <QualifierList
            qualifiers={e.qualifiers}
            empty={
              <p className="muted mx-small" data-testid={`${t}qualifiers-none`}>
                None. Add a date of birth, country or gender to the subject to confirm or rule out this match.
              </p>
            }
            t={t}
          />
          {match.aliases.length > 0 ? (
            <>
              <h4 className="mx-label">Also listed as</h4>
              <ul className="mx-aliases">
                {match.aliases.map((a) => (
                  <li key={a}>{a}</li>
                ))}
              </ul>
            </>
          ) : null}
          {record}
        </div>
      </div>
    </div>
  );
}
