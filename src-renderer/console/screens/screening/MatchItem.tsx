// One ranked match: the summary line, and on demand (click, Enter or Space; Esc closes) the
// explanation: which list name matched, how each token lined up, and what moved the score.
import { useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { Badge, type BadgeTone } from '../../components/Badge';
import { countryName, factorLabel, kindLabel, methodInfo, sourceLabel, type MethodTone } from './labels';
import type { Match } from './screening-api';

const STRENGTH: Record<Match['strength'], { text: string; tone: BadgeTone }> = {
  strong: { text: 'Strong match', tone: 'negative' },
  possible: { text: 'Possible match', tone: 'warning' },
  weak: { text: 'Weak match', tone: 'neutral' },
};

/** Case, accents and punctuation folded, as far as the browser can: the service's tokens are folded. */
function fold(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** The listed name with each word tinted by how its token was matched. */
function HighlightedName({ name, alignment }: { name: string; alignment: Match['explanation']['alignment'] }) {
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
    <span className="scr-hl" data-testid="matched-name">
      {parts.map((part, i) => {
        const tone = i % 2 === 1 ? tones.get(fold(part)) : undefined;
        return tone ? (
          <mark key={i} className={`scr-tok scr-tok-${tone}`}>
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
  if (text === null) return <span className="scr-tok-none" aria-label="nothing">—</span>;
  return <span className={`scr-tok scr-tok-${tone}`}>{text}</span>;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : '0';
}

function Explanation({ match, id }: { match: Match; id: string }) {
  const e = match.explanation;
  const nameScore = Math.round(e.name_score * 100);
  const adjust = e.qualifiers.reduce((sum, q) => sum + q.effect, 0);
  const isPrimary = e.matched_name === match.name;
  return (
    <div id={id} className="scr-explain" data-testid="match-explanation">
      <div className="scr-explain-head">
        <div className="scr-explain-name">
          <span className="scr-label">Matched on</span>
          <HighlightedName name={e.matched_name} alignment={e.alignment} />
          <span className="muted scr-small">
            {isPrimary ? 'listed name' : 'alias'}
            {e.matched_name_quality === 'weak' ? ', low-quality alias' : ''}
          </span>
        </div>
        <dl className="scr-score-parts" data-testid="score-parts">
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
              {nameScore + adjust > 100 ? <span className="muted scr-small"> (max)</span> : null}
            </dd>
          </div>
        </dl>
      </div>

      <div className="scr-explain-body">
        <div className="scr-explain-block">
          <h4 className="scr-label">Name tokens, side by side</h4>
          <table className="scr-align" data-testid="alignment">
            <thead>
              <tr>
                <th scope="col">Screened name</th>
                <th scope="col">Listed name</th>
                <th scope="col">How they match</th>
                <th scope="col" className="numeric">Similarity</th>
              </tr>
            </thead>
            <tbody>
              {e.alignment.map((a, i) => {
                const info = methodInfo(a.method);
                return (
                  <tr key={i} data-testid="alignment-row" data-method={a.method} data-tone={info.tone}>
                    <td><Token text={a.query} tone={info.tone} /></td>
                    <td><Token text={a.candidate} tone={info.tone} /></td>
                    <td title={info.hint}>{info.label}</td>
                    <td className="numeric">{a.method === 'unmatched' ? '—' : `${Math.round(a.similarity * 100)}%`}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <p className="scr-legend muted" aria-hidden="true">
            <span className="scr-tok scr-tok-exact">exact or equivalent</span>
            <span className="scr-tok scr-tok-fuzzy">similar or sounds alike</span>
            <span className="scr-tok scr-tok-unmatched">not matched</span>
          </p>
        </div>

        <div className="scr-explain-block">
          <h4 className="scr-label">Qualifiers</h4>
          {e.qualifiers.length > 0 ? (
            <ul className="scr-qualifiers" data-testid="qualifiers">
              {e.qualifiers.map((q, i) => (
                <li key={i} data-testid="qualifier" data-factor={q.factor} data-effect={q.effect}>
                  <span className={`scr-effect ${q.effect >= 0 ? 'scr-effect-up' : 'scr-effect-down'}`}>{signed(q.effect)}</span>
                  <span>
                    <strong>{factorLabel(q.factor)}</strong>: {q.detail}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted scr-small" data-testid="qualifiers-none">
              None. Add a date of birth, country or gender to the subject to confirm or rule out this match.
            </p>
          )}
          {match.aliases.length > 0 ? (
            <>
              <h4 className="scr-label">Also listed as</h4>
              <ul className="scr-aliases">
                {match.aliases.map((a) => (
                  <li key={a}>{a}</li>
                ))}
              </ul>
            </>
          ) : null}
          <p className="muted scr-small scr-record">
            Record <code>{match.entity_id}</code> · version <code>{match.record_hash}</code>
          </p>
        </div>
      </div>
    </div>
  );
}

interface MatchItemProps {
  match: Match;
  rank: number;
  titles: ReadonlyMap<string, string>;
}

export function MatchItem({ match, rank, titles }: MatchItemProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const strength = STRENGTH[match.strength];

  // The whole summary toggles on click, except when the click was on the button itself (it
  // toggles on its own) or ends a text selection (analysts copy names).
  const onSummaryClick = (e: MouseEvent<HTMLDivElement>) => {
    if ((e.target as HTMLElement).closest('button')) return;
    if (window.getSelection()?.toString()) return;
    setOpen((o) => !o);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLLIElement>) => {
    if (e.key === 'Escape' && open) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      buttonRef.current?.focus();
    }
  };

  return (
    <li
      className={`scr-match${open ? ' scr-match-open' : ''}`}
      data-testid="screening-match"
      data-entity-id={match.entity_id}
      data-strength={match.strength}
      onKeyDown={onKeyDown}
    >
      <div className="scr-match-summary" onClick={onSummaryClick}>
        <span className="scr-rank" aria-hidden="true">{rank}</span>
        <div className="scr-match-main">
          <h3 className="scr-match-name">
            <button
              ref={buttonRef}
              type="button"
              className="scr-match-toggle"
              aria-expanded={open}
              aria-controls={open ? `${id}-explain` : undefined}
              onClick={() => setOpen((o) => !o)}
              data-testid="match-toggle"
            >
              <span className="scr-chevron" aria-hidden="true" />
              <span data-testid="match-name">{match.name}</span>
            </button>
          </h3>
          <div className="scr-match-meta">
            <span data-testid="match-list">{kindLabel(match.list)}</span>
            <span aria-hidden="true">·</span>
            <span data-testid="match-source" title={titles.get(match.source) ?? match.source}>
              {sourceLabel(match.source, titles)}
            </span>
            {match.source_list && match.source_list !== sourceLabel(match.source, titles) ? (
              <>
                <span aria-hidden="true">·</span>
                <span data-testid="match-source-list">{match.source_list}</span>
              </>
            ) : null}
            {match.cleared ? <Badge tone="info">Cleared earlier</Badge> : null}
          </div>
          <dl className="scr-match-facts">
            {match.programs.length > 0 ? (
              <div>
                <dt>Programs</dt>
                <dd className="chips" data-testid="match-programs">
                  {match.programs.map((p) => (
                    <span key={p} className="chip">{p}</span>
                  ))}
                </dd>
              </div>
            ) : null}
            <div>
              <dt>Born</dt>
              <dd data-testid="match-dobs">{match.dates_of_birth.length > 0 ? match.dates_of_birth.join(', ') : <span className="muted">not listed</span>}</dd>
            </div>
            <div>
              <dt>Countries</dt>
              <dd data-testid="match-countries">
                {match.countries.length > 0
                  ? match.countries.map((c, i) => (
                      <span key={c} title={countryName(c)}>
                        {i > 0 ? ', ' : ''}
                        {c}
                      </span>
                    ))
                  : <span className="muted">not listed</span>}
              </dd>
            </div>
          </dl>
        </div>
        <div className="scr-match-score" data-testid="match-score" data-score={match.score}>
          <div className="scr-score-top">
            <span className="scr-score-value">{match.score}</span>
            <Badge tone={strength.tone}>
              <span data-testid="match-strength">{strength.text}</span>
            </Badge>
          </div>
          <div className={`scr-bar scr-bar-${match.strength}`} aria-hidden="true">
            <div className="scr-bar-fill" style={{ width: `${Math.max(0, Math.min(100, match.score))}%` }} />
          </div>
          <span className="visually-hidden">Match score {match.score} of 100</span>
        </div>
      </div>
      {open ? <Explanation match={match} id={`${id}-explain`} /> : null}
    </li>
  );
}
