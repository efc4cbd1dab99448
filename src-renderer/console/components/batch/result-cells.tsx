// Cells shared by the batch results and the risk review: risk, change, flags, top match.
import type { BatchEntry } from '../../stores/batch';
import { Badge } from '../Badge';
import { CHANGE_INFO, flagLabel, KIND_SHORT, LEVEL_LABEL, LEVEL_TONE } from '../screening-labels';
import { openMatches } from './labels';
import './result-cells.css';

export function RiskCell({ entry }: { entry: BatchEntry }) {
  if (!entry.result) {
    return (
      <span data-testid="result-risk" data-level="error" title={entry.error ?? undefined}>
        <Badge tone="neutral">Not screened</Badge>
      </span>
    );
  }
  const { risk } = entry.result;
  return (
    <span className="bat-risk" data-testid="result-risk" data-level={risk.level} data-score={risk.score}>
      <Badge tone={LEVEL_TONE[risk.level]}>{LEVEL_LABEL[risk.level]}</Badge>
      <span className="bat-score">{risk.score}</span>
    </span>
  );
}

export function ChangeCell({ entry }: { entry: BatchEntry }) {
  if (!entry.result) return <span className="muted">—</span>;
  const info = CHANGE_INFO[entry.result.risk_change];
  const prev = entry.input.previous;
  const delta = prev ? entry.result.risk.score - prev.risk_score : null;
  return (
    <span className="bat-change" data-testid="result-change" data-change={entry.result.risk_change}>
      <Badge tone={info.tone}>
        {info.arrow ? <span aria-hidden="true">{info.arrow} </span> : null}
        {info.label}
      </Badge>
      {delta !== null && delta !== 0 ? (
        <span className="muted bat-delta" title={`Previous score ${prev?.risk_score}`}>
          {delta > 0 ? `+${delta}` : `−${Math.abs(delta)}`}
        </span>
      ) : null}
    </span>
  );
}

export function FlagsCell({ entry }: { entry: BatchEntry }) {
  const flags = entry.result?.flags ?? [];
  if (flags.length === 0) return <span className="muted">—</span>;
  // The first flag in words and how many more (all of them in the tooltip and the row's
  // explanation): chips of raw codes side by side were cut mid-word in a narrow column.
  const labels = flags.map((f) => flagLabel(f));
  const rest = labels.slice(1);
  return (
    <span className="bat-flags" data-testid="result-flags" data-flags={flags.join(' ')} title={labels.join(', ')}>
      <span className="chip bat-flag">{flagLabel(flags[0]!, true)}</span>
      {rest.length > 0 ? (
        <span className="chip bat-flag-more">
          <span aria-hidden="true">+{rest.length}</span>
          <span className="visually-hidden">and {rest.length} more: {rest.join(', ')}</span>
        </span>
      ) : null}
    </span>
  );
}

export function TopMatchCell({ entry }: { entry: BatchEntry }) {
  if (!entry.result) return <span className="muted bat-ellipsis" title={entry.error ?? undefined}>{entry.error ?? 'Not screened'}</span>;
  const open = openMatches(entry.result);
  const top = open[0];
  const cleared = entry.result.matches.length - open.length;
  if (!top) {
    return <span className="muted">{cleared > 0 ? `${cleared} cleared earlier` : 'No match'}</span>;
  }
  return (
    <span className="bat-match" data-testid="result-top-match" data-entity-id={top.entity_id} title={top.explanation.summary}>
      <span className="bat-ellipsis cell-strong" title={top.name}>{top.name}</span>
      <span className="muted bat-match-meta">
        {KIND_SHORT[top.list]} · {top.score}
        {open.length > 1 ? ` · +${open.length - 1} more` : ''}
        {cleared > 0 ? ` · ${cleared} cleared` : ''}
      </span>
    </span>
  );
}
