// One ranked match: the summary line, and on demand (click, Enter or Space; Esc closes) the
// explanation: which list name matched, how each token lined up, and what moved the score.
import { useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { Badge } from '../../components/Badge';
import { MatchExplanation, MatchTier } from '../../components/MatchExplanation';
import { MatchListings } from '../../components/MatchListings';
import { kindLabel, STRENGTH_INFO } from '../../components/screening-labels';
import { countryName, sourceLabel } from './labels';
import type { Match } from './screening-api';

interface MatchItemProps {
  match: Match;
  rank: number;
  titles: ReadonlyMap<string, string>;
}

export function MatchItem({ match, rank, titles }: MatchItemProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const strength = STRENGTH_INFO[match.strength];

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
          {match.cleared ? null : <MatchTier match={match} />}
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
          <MatchListings listings={match.listings} label={(l) => [sourceLabel(l.source, titles), l.source_list].filter((x, i, all) => x !== '' && all.indexOf(x) === i).join(' · ')} />
        </div>
        <div className="scr-match-score" data-testid="match-score" data-score={match.score}>
          <div className="scr-score-top">
            <span className="scr-score-value">{match.score}</span>
            <Badge tone={strength.tone}>
              <span data-testid="match-strength">{strength.label} match</span>
            </Badge>
          </div>
          <div className={`scr-bar scr-bar-${match.strength}`} aria-hidden="true">
            <div className="scr-bar-fill" style={{ width: `${Math.max(0, Math.min(100, match.score))}%` }} />
          </div>
          <span className="visually-hidden">Match score {match.score} of 100</span>
        </div>
      </div>
      {open ? <MatchExplanation match={match} variant="panel" testId="match-explanation" id={`${id}-explain`} /> : null}
    </li>
  );
}
