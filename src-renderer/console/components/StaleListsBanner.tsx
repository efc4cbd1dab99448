// A warning on the screening (with its lists) and batch screens when a loaded list is older than
// the organisation's window for its kind: which list, of when, how old, and how a newer file gets
// in (the lists panel's import for owners and admins, or the CLI). Nothing shows otherwise.
import type { ListsStatus } from '../../../src-shared/contracts/lists';
import { useLists } from '../stores/lists';
import { useSession } from '../stores/session';
import { Alert } from './Alert';
import { formatDate } from './format';
import { ageText, staleLists } from './stale-lists';
import { may } from '../../../src-shared/policy';

export function StaleListsNotice({ data, canManage }: { data: ListsStatus | undefined; canManage: boolean }) {
  const stale = staleLists(data);
  if (stale.length === 0) return null;
  const title = stale.length === 1 ? 'A list screened against is out of date' : `${stale.length} lists screened against are out of date`;
  const official = stale.flatMap((l) => (l.update.kind === 'official' ? [{ source: l.source, cli: l.update.cli }] : []));
  const own = stale.some((l) => l.update.kind === 'user');
  const shipped = stale.some((l) => l.update.kind === 'shipped');
  const who = canManage ? '' : 'An owner or admin can ';
  return (
    <Alert tone="warning" testId="stale-lists" title={title}>
      <ul className="stale-lists">
        {stale.map((l) => (
          <li key={l.source} data-testid={`stale-list-${l.source}`}>
            <strong>{l.title}</strong> ({l.source}): published <span title={l.published_at ?? ''}>{formatDate(l.published_at)}</span>,{' '}
            {ageText(l.age_days)} (older than {l.window_days} days).
          </li>
        ))}
      </ul>
      {official.length > 0 ? (
        <div data-testid="stale-lists-official">
          <p>
            {who ? `${who}import` : 'Import'} a newer file with “Import newer official file…” in the Lists panel of Screening, or on the command line:
          </p>
          <ul className="stale-lists-commands">
            {official.map((o) => <li key={o.source}><code>{o.cli}</code></li>)}
          </ul>
        </div>
      ) : null}
      {own ? (
        <p data-testid="stale-lists-own">
          {who ? `${who}import` : 'Import'} a newer copy of your own list under the same name with “Add your own list…” in the Lists panel of Screening.
        </p>
      ) : null}
      {shipped ? <p data-testid="stale-lists-shipped">A newer copy of the other lists comes with an update of the app.</p> : null}
      <p className="muted">Results still screen against these files. The windows are in Settings (owners and admins change them).</p>
    </Alert>
  );
}

/** The banner over the shared lists store (stores/lists.ts). */
export function StaleListsBanner() {
  const lists = useLists();
  const role = useSession((s) => s.session?.user.role);
  return <StaleListsNotice data={lists.data} canManage={may(role, 'lists.manage')} />;
}
