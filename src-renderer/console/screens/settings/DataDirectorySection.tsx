// Settings → Data directory (owners and admins): where this install keeps its database, lists and
// logs, and how much room each takes.
import { api } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { CopyField } from '../../components/CopyField';
import { formatBytes } from '../../components/format';

const PART_LABEL: Record<string, string> = {
  database: 'Database',
  database_journal: 'Database journal (recent writes)',
  logs: 'Logs',
  lists: 'Your own lists and newer official lists',
  onsite: 'On-site server certificate',
  other: 'Other files',
};

export function DataDirectorySection() {
  const dir = useResource((signal) => api.dataDirectory(signal), []);
  const d = dir.data;
  return (
    <section className="panel settings-panel" aria-labelledby="data-directory-heading" aria-busy={dir.loading} data-testid="settings-data-directory">
      <div className="panel-header">
        <h2 id="data-directory-heading">Data directory</h2>
        {d ? <span className="muted" data-testid="data-directory-total">{formatBytes(d.size_bytes)}</span> : null}
      </div>
      <div className="settings-body">
        {dir.error ? <Alert testId="data-directory-error" title="Could not read the data directory.">{dir.error}</Alert> : null}
        {d ? (
          <>
            <CopyField label="Location" value={d.path} testId="data-directory-path" />
            <table className="data-directory-table" data-testid="data-directory-breakdown">
              <caption className="visually-hidden">Size by part</caption>
              <tbody>
                {d.breakdown.filter((b) => b.size_bytes > 0 || b.name === 'database').map((b) => (
                  <tr key={b.name}>
                    <th scope="row">{PART_LABEL[b.name] ?? b.name}</th>
                    <td className="num">{formatBytes(b.size_bytes)}</td>
                  </tr>
                ))}
                {d.ledger.engine === 'postgres' ? (
                  <tr data-testid="data-directory-ledger">
                    <th scope="row">Ledger on PostgreSQL (not in this directory)</th>
                    <td className="num">{formatBytes(d.ledger.size_bytes)}</td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </>
        ) : null}
      </div>
    </section>
  );
}
