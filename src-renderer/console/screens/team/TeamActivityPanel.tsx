// Team activity: what the team did (invitations, joins, roles, billing access, removals, report
// exports), for everyone on the team, newest first. API keys are private and never in it.
import type { TeamActivity } from '../../../../src-shared/contracts/team';
import { LoadError } from '../../components/LoadError';
import { Pager } from '../../components/Pager';
import { formatDateTime } from '../../components/format';
import { activityText } from './team-rules';

export interface TeamActivityPanelProps {
  data: TeamActivity | null;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
  onPage: (page: number) => void;
}

export function TeamActivityPanel({ data, loading, error, onRetry, onPage }: TeamActivityPanelProps) {
  return (
    <section className="panel" aria-labelledby="activity-heading" aria-busy={loading} data-testid="team-activity">
      <div className="panel-header">
        <h2 id="activity-heading">Team activity</h2>
        <span className="muted">Everyone on the team sees this. API keys stay private to whoever made them.</span>
      </div>
      <LoadError testId="activity-error" title="Could not load the team activity." error={error} onRetry={onRetry} />
      {data && data.entries.length > 0 ? (
        <ol className="tm-activity">
          {data.entries.map((e, i) => (
            <li key={`${e.at}-${i}`} data-testid="activity-entry" data-kind={e.kind}>
              <time dateTime={e.at} title={e.at} className="muted">{formatDateTime(e.at)}</time>
              <span>{activityText(e)}</span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="tm-activity-empty muted">{loading ? 'Loading activity…' : 'Nothing has happened on the team yet.'}</p>
      )}
      {data && data.pages > 1 ? (
        <Pager page={data.page} pages={data.pages} total={data.total} noun={['events', 'event']} onPage={onPage} disabled={loading} />
      ) : null}
    </section>
  );
}
