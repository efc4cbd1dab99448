// "Updating lists" (#/screening/update-lists): where a newer edition of each list comes from and
// how it gets in — the console's import, the command line, the organisation's own lists, and the
// lists that come with the app — with the lists out of date now. The stale-lists notice links here.
import { href } from '../../app/router';
import { ScreenHeader } from '../../components/ScreenHeader';
import { StaleLine } from '../../components/StaleListsBanner';
import { officialImportCommand, staleLists } from '../../components/stale-lists';
import { useLists } from '../../stores/lists';
import { useSession } from '../../stores/session';
import { may } from '../../../../src-shared/policy';
import { OFFICIAL_INFO } from './lists/ImportOfficialDialog';
import { OFFICIAL_SOURCES } from './lists/lists-api';

export function UpdatingListsPage() {
  const lists = useLists();
  const role = useSession((s) => s.session?.user.role);
  const canManage = may(role, 'lists.manage');
  const stale = staleLists(lists.data);
  const staleOfficial = stale.filter((l) => l.update.kind === 'official');
  return (
    <>
      <ScreenHeader
        title="Updating lists"
        summary="Where a newer edition of each list comes from, and how it gets into the screening on this computer."
        actions={<a href={href('screening')} className="btn btn-small">Back to Screening</a>}
      />
      <section className="panel upd-panel" aria-labelledby="upd-now" data-testid="update-lists">
        <div className="panel-header"><h2 id="upd-now">Out of date now</h2></div>
        <div className="upd-body">
          {stale.length === 0 ? (
            <p data-testid="update-lists-none">{lists.data?.state === 'ready' ? 'Every list is within its window.' : 'The lists are loading.'}</p>
          ) : (
            <ul data-testid="update-lists-stale">
              {stale.map((l) => <li key={l.source}><StaleLine l={l} /></li>)}
            </ul>
          )}
          <p className="muted">
            Screening still uses these files. A list counts from the date it was published when the file states one, otherwise from the day it was retrieved.
            The windows (how old a list may be) are in <a href={href('settings')}>Settings</a>.
          </p>
        </div>
      </section>

      <section className="panel upd-panel" aria-labelledby="upd-console">
        <div className="panel-header"><h2 id="upd-console">Official lists, in the console</h2></div>
        <div className="upd-body">
          {canManage ? null : <p>Owners and admins import lists. These are the steps they follow.</p>}
          <ol>
            <li>Download the newer file from the list&apos;s publisher (the files each list accepts are below).</li>
            <li>On <a href={href('screening')}>Screening</a>, under Lists loaded, choose “Import newer official file…”, the list, and the file.</li>
            <li>The answer says how many records the file adds, removes and changes. Screening uses it at once, for every screening from then on.</li>
            <li>A file that would remove more than a tenth of the list (a download cut short, another list&apos;s file) is held: it waits under Lists loaded until an owner or admin applies or discards it.</li>
          </ol>
          <table className="upd-files">
            <caption className="visually-hidden">Files each official list accepts</caption>
            <thead><tr><th scope="col">List</th><th scope="col">Files</th></tr></thead>
            <tbody>
              {OFFICIAL_SOURCES.map((s) => (
                <tr key={s}><th scope="row">{OFFICIAL_INFO[s].label}</th><td>{OFFICIAL_INFO[s].files}</td></tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section className="panel upd-panel" aria-labelledby="upd-cli">
        <div className="panel-header"><h2 id="upd-cli">Official lists, on the command line</h2></div>
        <div className="upd-body" data-testid="update-lists-cli">
          <p>On the computer (or server) the service runs on, with its data directory:</p>
          <ul className="upd-commands">
            {(staleOfficial.length ? staleOfficial.map((l) => l.source) : ['SOURCE']).map((s) => <li key={s}><code>{officialImportCommand(s)}</code></li>)}
          </ul>
          <p className="muted">It prints what the file changes; a file that would remove more than a tenth of the list is held (exit code 3) unless <code>--accept-removals</code> is given. The running service picks the new file up within seconds.</p>
        </div>
      </section>

      <section className="panel upd-panel" aria-labelledby="upd-other">
        <div className="panel-header"><h2 id="upd-other">Your own lists, and the others</h2></div>
        <div className="upd-body">
          <p>Your own lists: import the newer copy under the same name with “Add your own list…” under Lists loaded; it replaces the old one.</p>
          <p>The lists that cannot be imported here come with the app: a newer copy arrives with an update of the app.</p>
        </div>
      </section>
    </>
  );
}
