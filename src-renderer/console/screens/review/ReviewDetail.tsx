// An opened review row: every match of the row with why it matched (components/MatchExplanation)
// and the disposition buttons that the single keys stand for.
import type { ScreeningMatch } from '../../../../src-shared/contracts/screening';
import { Badge } from '../../components/Badge';
import { MatchExplanation } from '../../components/MatchExplanation';
import { MatchListings } from '../../components/MatchListings';
import { CHANGE_INFO, flagLabel, KIND_SHORT, STRENGTH_INFO } from '../../components/screening-labels';
import type { BatchEntry, DecisionRecord, Disposition, SentBack } from '../../stores/batch';
import { Alert } from '../../components/Alert';
import { formatDateTime } from '../../components/format';
import { DISPOSITIONS } from '../../stores/batch';
import { DISPOSITION_INFO, matchFlag, REASON_INFO } from '../../components/batch/labels';

/** Listed aliases shown beside a match (the rest are counted). */
const ALIASES_SHOWN = 10;

/** The subject's own values beside the listed record's: what an analyst compares before choosing a reason. */
function Comparison({ match, subject }: { match: ScreeningMatch; subject: BatchEntry['input'] }) {
  const none = <span className="muted">not given</span>;
  const listedAliases = match.aliases.slice(0, ALIASES_SHOWN).join('; ') + (match.aliases.length > ALIASES_SHOWN ? ` (+${match.aliases.length - ALIASES_SHOWN} more)` : '');
  // [label, customer's value (null: the customer has no such value), listed value]
  const rows: [string, string | null, string][] = [
    ['Name', [subject.first_name, subject.middle_name, subject.last_name].filter(Boolean).join(' '), match.name],
    ['Date of birth', subject.date_of_birth ?? '', match.dates_of_birth.join('; ')],
    ['Country', subject.country ?? '', match.countries.join('; ')],
    ['Programmes', null, match.programs.join('; ')],
    ['Listed on', null, match.listed_on ?? ''],
    ['Aliases', null, listedAliases],
  ];
  return (
    <table className="rev-compare" data-testid="review-compare">
      <thead><tr><th scope="col" /><th scope="col">Customer</th><th scope="col">Listed record</th></tr></thead>
      <tbody>
        {rows.map(([label, own, listed]) => (
          <tr key={label} data-testid={`review-compare-${label.toLowerCase().replace(/ /g, '-')}`}>
            <th scope="row">{label}</th>
            <td>{own === null ? <span className="muted">—</span> : own || none}</td>
            <td>{listed || (label === 'Listed on' ? <span className="muted">not stated by the list</span> : none)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function MatchBlock({ match, isNew, subject }: { match: ScreeningMatch; isNew: boolean; subject: BatchEntry['input'] }) {
  return (
    <li className={`rev-match${match.cleared ? ' rev-match-cleared' : ''}`} data-testid="review-match" data-entity-id={match.entity_id} data-cleared={match.cleared}>
      <div className="rev-match-head">
        <span className="rev-match-score" title="Match score, 0–100">{match.score}</span>
        <strong className="rev-match-name">{match.name}</strong>
        <span className="muted">{KIND_SHORT[match.list]} · {match.source_list || match.source}</span>
        <Badge tone={STRENGTH_INFO[match.strength].tone}>{STRENGTH_INFO[match.strength].label} match</Badge>
        {match.cleared ? <Badge tone="info">Cleared earlier</Badge> : null}
        {isNew ? <Badge tone="negative">New</Badge> : null}
      </div>
      {match.cleared ? null : (
        <>
          <Comparison match={match} subject={subject} />
          <MatchListings listings={match.listings} label={(l) => l.source_list || l.source} testIdPrefix="review-" />
          <MatchExplanation match={match} variant="inline" testIdPrefix="review-" testId="review-explanation" />
        </>
      )}
    </li>
  );
}

interface ReviewDetailProps {
  entry: BatchEntry;
  decision: DecisionRecord | undefined;
  /** An owner or admin sent the row's clearance back, with their note. */
  sentBack: SentBack | undefined;
  singleKeys: boolean;
  onDispose: (d: Disposition | undefined) => void;
  onApprove: () => void;
  onClose: () => void;
}

export function ReviewDetail({ entry, decision, sentBack, singleKeys, onDispose, onApprove, onClose }: ReviewDetailProps) {
  const disposition = decision?.disposition;
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
                  <span className="rev-label">Flags</span> {result.flags.map((f) => flagLabel(f)).join(', ')}
                </span>
              ) : null}
            </>
          ) : (
            <span className="text-warning">{entry.error ?? 'Not screened.'}</span>
          )}
        </div>
        <div className="rev-actions" role="group" aria-label="Disposition">
          {decision?.approval?.state === 'pending' ? (
            <button type="button" className="btn btn-small btn-primary" onClick={onApprove} data-testid="review-detail-approve">
              Approve…
            </button>
          ) : null}
          {DISPOSITIONS.map((d) => (
            <button
              key={d}
              type="button"
              className={`btn btn-small${disposition === d ? ' rev-chosen' : ''}`}
              aria-pressed={disposition === d}
              disabled={!result}
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
      {sentBack ? (
        <Alert tone="warning" testId="review-sent-back" title={decision ? 'Sent back earlier.' : 'Sent back: decide this row again.'}>
          {sentBack.by} sent your clearance back on {formatDateTime(sentBack.at)}
          {sentBack.note ? <>: <q data-testid="review-sent-back-note">{sentBack.note}</q></> : ' (their note is no longer held by the service)'}.
        </Alert>
      ) : null}
      {decision ? (
        <p className="muted rev-small" data-testid="review-decision">
          {DISPOSITION_INFO[decision.disposition].label} by {decision.decidedBy}
          {decision.reason ? <> · reason: {REASON_INFO[decision.reason].label}</> : null}
          {decision.note ? <> · note: “{decision.note}”</> : null}
          {decision.approval?.state === 'pending' ? <> · awaiting approval by an owner or admin (in their Approvals queue)</> : null}
          {decision.approval?.state === 'approved' ? <> · approved by {decision.approval.by}</> : null}
        </p>
      ) : null}
      {matches.length > 0 ? (
        <ol className="rev-matches">
          {matches.map((m) => {
            const flag = matchFlag(m);
            return <MatchBlock key={m.entity_id} match={m} subject={entry.input} isNew={!m.cleared && flag !== null && !before.has(flag)} />;
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
