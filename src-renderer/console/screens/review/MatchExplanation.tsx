// An opened review row: every match of the row with why it matched (the listed name or alias
// with its tokens tinted by how they matched, the token alignment, the qualifiers), and the
// disposition buttons that the single keys stand for.
import type { ScreeningMatch } from '../../../../src-shared/contracts/screening';
import { Badge } from '../../components/Badge';
import type { BatchEntry, Disposition } from '../../stores/batch';
import { DISPOSITIONS } from '../../stores/batch';
import {
  CHANGE_INFO, DISPOSITION_INFO, factorLabel, flagLabel, KIND_LABEL, matchFlag, methodInfo, STRENGTH_LABEL, type MethodTone,
} from '../batch/labels';

function fold(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** The listed name with each word tinted by how its token matched. */
function HighlightedName({ name, alignment }: { name: string; alignment: ScreeningMatch['explanation']['alignment'] }) {
  const tones = new Map<string, MethodTone>();
  for (const a of alignment) {
    if (a.candidate === null) continue;
    for (const part of a.candidate.split(/\s+/)) {
      const key = fold(part);
      if (!tones.has(key) || tones.get(key) === 'unmatched') tones.set(key, methodInfo(a.method).tone);
    }
  }
  const parts = name.split(/([\p{L}\p{N}]+)/u);
  return (
    <span className="rev-hl" data-testid="review-matched-name">
      {parts.map((part, i) => {
        const tone = i % 2 === 1 ? tones.get(fold(part)) : undefined;
        return tone ? <mark key={i} className={`rev-tok rev-tok-${tone}`}>{part}</mark> : <span key={i}>{part}</span>;
      })}
    </span>
  );
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : '0';
}

function MatchBlock({ match, isNew }: { match: ScreeningMatch; isNew: boolean }) {
  const e = match.explanation;
  return (
    <li className={`rev-match${match.cleared ? ' rev-match-cleared' : ''}`} data-testid="review-match" data-entity-id={match.entity_id} data-cleared={match.cleared}>
      <div className="rev-match-head">
        <span className="rev-match-score" title="Match score, 0–100">{match.score}</span>
        <strong className="rev-match-name">{match.name}</strong>
        <span className="muted">{KIND_LABEL[match.list]} · {match.source_list || match.source}</span>
        <Badge tone={match.strength === 'strong' ? 'negative' : match.strength === 'possible' ? 'warning' : 'neutral'}>
          {STRENGTH_LABEL[match.strength]} match
        </Badge>
        {match.cleared ? <Badge tone="info">Cleared earlier</Badge> : null}
        {isNew ? <Badge tone="negative">New</Badge> : null}
      </div>
      {match.cleared ? null : (
        <div className="rev-match-body" data-testid="review-explanation">
          <p className="rev-line">
            <span className="rev-label">Matched on</span>
            <HighlightedName name={e.matched_name} alignment={e.alignment} />
            <span className="muted rev-small">
              {e.matched_name === match.name ? 'listed name' : 'alias'}
              {e.matched_name_quality === 'weak' ? ', low-quality alias' : ''} · name similarity {Math.round(e.name_score * 100)}
            </span>
          </p>
          <table className="rev-align" data-testid="review-alignment">
            <thead>
              <tr>
                <th scope="col">Screened</th>
                <th scope="col">Listed</th>
                <th scope="col">How</th>
                <th scope="col" className="numeric">Similarity</th>
              </tr>
            </thead>
            <tbody>
              {e.alignment.map((a, i) => {
                const info = methodInfo(a.method);
                return (
                  <tr key={i} data-testid="review-alignment-row" data-method={a.method}>
                    <td>{a.query === null ? <span className="muted">—</span> : <span className={`rev-tok rev-tok-${info.tone}`}>{a.query}</span>}</td>
                    <td>{a.candidate === null ? <span className="muted">—</span> : <span className={`rev-tok rev-tok-${info.tone}`}>{a.candidate}</span>}</td>
                    <td>{info.label}</td>
                    <td className="numeric">{a.method === 'unmatched' ? '—' : `${Math.round(a.similarity * 100)}%`}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <div className="rev-line">
            <span className="rev-label">Qualifiers</span>
            {e.qualifiers.length > 0 ? (
              <ul className="rev-qualifiers" data-testid="review-qualifiers">
                {e.qualifiers.map((q, i) => (
                  <li key={i} data-factor={q.factor}>
                    <span className={`rev-effect ${q.effect >= 0 ? 'rev-effect-up' : 'rev-effect-down'}`}>{signed(q.effect)}</span>{' '}
                    <strong>{factorLabel(q.factor)}</strong>: {q.detail}
                  </li>
                ))}
              </ul>
            ) : (
              <span className="muted rev-small">none (the file gives no date of birth, country or gender that confirms or rules it out)</span>
            )}
          </div>
          <p className="muted rev-small">
            Record <code>{match.entity_id}</code> · version <code>{match.record_hash}</code>
          </p>
        </div>
      )}
    </li>
  );
}

interface MatchExplanationProps {
  entry: BatchEntry;
  disposition: Disposition | undefined;
  singleKeys: boolean;
  onDispose: (d: Disposition | undefined) => void;
  onClose: () => void;
}

export function MatchExplanation({ entry, disposition, singleKeys, onDispose, onClose }: MatchExplanationProps) {
  const result = entry.result;
  const previous = entry.input.previous;
  const before = new Set(previous?.flags ?? []);
  const matches = result ? [...result.matches].sort((a, b) => Number(a.cleared) - Number(b.cleared)) : [];
  return (
    <div className="rev-detail" data-testid="review-detail">
      <div className="rev-detail-head">
        <div className="rev-detail-facts">
          {result ? (
            <>
              <span>
                <span className="rev-label">Risk</span> {previous ? `${previous.risk_level} ${previous.risk_score} → ` : ''}
                <strong>{result.risk.level} {result.risk.score}</strong> ({CHANGE_INFO[result.risk_change].label.toLowerCase()})
              </span>
              {result.flags.length > 0 ? (
                <span>
                  <span className="rev-label">Flags</span> {result.flags.map(flagLabel).join(', ')}
                </span>
              ) : null}
            </>
          ) : (
            <span className="text-warning">{entry.error ?? 'Not screened.'}</span>
          )}
        </div>
        <div className="rev-actions" role="group" aria-label="Disposition">
          {DISPOSITIONS.map((d) => (
            <button
              key={d}
              type="button"
              className={`btn btn-small${disposition === d ? ' rev-chosen' : ''}`}
              aria-pressed={disposition === d}
              onClick={() => onDispose(disposition === d ? undefined : d)}
              data-testid={`review-dispose-${d}`}
            >
              {DISPOSITION_INFO[d].label}
              {singleKeys ? <kbd className="rev-kbd">{DISPOSITION_INFO[d].key}</kbd> : null}
            </button>
          ))}
          <button type="button" className="btn btn-small" onClick={onClose} data-testid="review-detail-close">
            Close<kbd className="rev-kbd">Esc</kbd>
          </button>
        </div>
      </div>
      {matches.length > 0 ? (
        <ol className="rev-matches">
          {matches.map((m) => {
            const flag = matchFlag(m);
            return <MatchBlock key={m.entity_id} match={m} isNew={!m.cleared && flag !== null && !before.has(flag)} />;
          })}
        </ol>
      ) : result ? (
        <p className="muted" data-testid="review-no-matches">
          No matches on the lists checked.{previous && previous.risk_score > 0 ? ' The earlier matches are gone or were cleared.' : ''}
        </p>
      ) : null}
    </div>
  );
}
