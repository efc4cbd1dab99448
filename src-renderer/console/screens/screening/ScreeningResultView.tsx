// A screening result: the risk signal in words, flags, what was checked against which list
// versions, and the matches in the engine's order (strong before possible, the subject's full
// name before a partial one, then by score). Clear / Review / High-risk review are prompts for
// the analyst, never a verdict on the person.
import type { RefObject } from 'react';
import { Badge } from '../../components/Badge';
import { formatDateTime } from '../../components/format';
import { DECISION_LABEL, flagLabel, kindLabel, riskLevelLabel } from '../../components/screening-labels';
import { sourceLabel, versionDate } from './labels';
import { MatchItem } from './MatchItem';
import type { ScreeningResult } from './screening-api';

/** What was screened, as the analyst typed it; shown so a later edit of the form cannot mislead. */
export interface ScreenedSubject {
  name: string;
  date_of_birth: string;
  country: string;
}

interface ResultProps {
  result: ScreeningResult;
  subject: ScreenedSubject;
  titles: ReadonlyMap<string, string>;
  /** The screen moves focus here when a result arrives. */
  headingRef: RefObject<HTMLHeadingElement | null>;
}

function RiskBadge({ risk }: { risk: ScreeningResult['risk'] }) {
  return (
    <div
      className={`scr-risk scr-risk-${risk.level}`}
      data-testid="risk-badge"
      data-level={risk.level}
      data-decision={risk.decision}
      data-score={risk.score}
    >
      <span className="scr-risk-level" data-testid="risk-level">{riskLevelLabel(risk.level)}</span>
      <span className="scr-risk-score">
        <span data-testid="risk-score">{risk.score}</span>
        <span className="scr-risk-of"> / 100</span>
      </span>
      <span className="scr-risk-decision" data-testid="risk-decision">{DECISION_LABEL[risk.decision]}</span>
    </div>
  );
}

export function ScreeningResultView({ result, subject, titles, headingRef }: ResultProps) {
  const { risk, matches, flags, screening } = result;
  const checked = screening.lists_checked;
  return (
    <section className="panel scr-result" aria-labelledby="scr-result-heading" data-testid="screening-result">
      <div className="panel-header scr-result-header">
        <div className="scr-result-title">
          <h2 id="scr-result-heading" ref={headingRef} tabIndex={-1}>
            Result
          </h2>
          <span className="scr-subject" data-testid="result-subject">
            {subject.name}
            {subject.date_of_birth ? <span className="muted"> · born {subject.date_of_birth}</span> : null}
            {subject.country ? <span className="muted"> · {subject.country}</span> : null}
          </span>
        </div>
        <span className="scr-result-when muted">
          <Badge tone={result.livemode ? 'live' : 'test'}>{result.livemode ? 'Live' : 'Test'}</Badge>
          <time dateTime={screening.screened_at}>{formatDateTime(screening.screened_at)}</time>
          <code className="scr-id" title="Screening id, also on the credit ledger">{result.id}</code>
        </span>
      </div>

      <div className="scr-summary">
        <RiskBadge risk={risk} />
        <dl className="scr-summary-facts">
          <div>
            <dt>Flags</dt>
            <dd className="chips" data-testid="screening-flags">
              {flags.length > 0 ? (
                flags.map((f) => (
                  <span key={f} className="chip scr-flag" title={flagLabel(f)} data-testid="screening-flag" data-flag={f}>
                    {f}
                  </span>
                ))
              ) : (
                <span className="muted">None</span>
              )}
            </dd>
          </div>
          <div>
            <dt>Lists checked</dt>
            <dd data-testid="lists-checked">
              {checked.length > 0 ? checked.map((k) => kindLabel(k)).join(', ') : <span className="muted">None</span>}
              <span className="muted"> · {screening.list_versions.length} {screening.list_versions.length === 1 ? 'list' : 'lists'}</span>
            </dd>
          </div>
          <div>
            <dt>Matches</dt>
            <dd data-testid="match-count" title="Strong matches before possible ones, the customer's full name before a partial one, then by score">
              {matches.length === 0 ? 'None' : `${matches.length} ${matches.length === 1 ? 'match' : 'matches'}${matches.length > 1 ? ', strongest first' : ''}`}
            </dd>
          </div>
        </dl>
      </div>

      <div className="scr-matches">
        {matches.length > 0 ? (
          <ol className="scr-match-list" aria-label="Matches, strongest first: strong before possible, the full name before a partial one, then by score" data-testid="screening-matches">
            {matches.map((m, i) => (
              <MatchItem key={m.entity_id} match={m} rank={i + 1} titles={titles} />
            ))}
          </ol>
        ) : (
          <div className="scr-no-matches" data-testid="screening-no-matches">
            <strong>No matches on the lists checked</strong>
            <span className="muted">
              No record on {checked.length > 0 ? checked.map((k) => kindLabel(k).toLowerCase()).join(', ') : 'any'} lists scored high
              enough to report. Lists not checked or not loaded here were not searched.
            </span>
          </div>
        )}
      </div>

      <div className="scr-versions">
        <h3 className="scr-label" id="scr-versions-heading">List versions screened against</h3>
        <table className="scr-versions-table" aria-labelledby="scr-versions-heading" data-testid="list-versions">
          <thead>
            <tr>
              <th scope="col">List</th>
              <th scope="col">Kind</th>
              <th scope="col">Date</th>
              <th scope="col">SHA-256</th>
            </tr>
          </thead>
          <tbody>
            {screening.list_versions.map((v) => (
              <tr key={v.source} data-testid="list-version" data-source={v.source}>
                <td title={titles.get(v.source)}>{sourceLabel(v.source, titles)}</td>
                <td>{kindLabel(v.kind)}</td>
                <td>{versionDate(v)}</td>
                <td>
                  <code title={v.sha256}>{v.sha256.slice(0, 12)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
