// Settings → This desktop app (issue 39): shown only inside the desktop app. Says whether this app
// runs its own service or shows the team's server (its address and the certificate fingerprint
// pinned on this computer), and offers to change that: the shell closes the console and asks again.
import { Fingerprint } from '../../components/Fingerprint';
import { shell } from '../../api/shell';

export function DesktopConnectionSection() {
  const bridge = shell();
  if (!bridge) return null;
  const connection = bridge.connection;
  return (
    <section className="panel settings-panel" aria-labelledby="desktop-connection-heading" data-testid="settings-desktop-connection">
      <div className="panel-header">
        <h2 id="desktop-connection-heading">This desktop app</h2>
      </div>
      <div className="settings-body">
        {connection.mode === 'team' ? (
          <>
            <p data-testid="desktop-connection-mode">
              Connected to your team’s server at <span className="mono">{connection.serverUrl}</span>. This computer keeps only that address and the
              certificate fingerprint it trusts:
            </p>
            <Fingerprint value={connection.fingerprint} id="desktop-connection-fp" testId="desktop-connection-fingerprint" />
          </>
        ) : (
          <p data-testid="desktop-connection-mode">Runs Compliance Console on this computer: the organisation’s data is kept here.</p>
        )}
        <div>
          <button type="button" className="btn" onClick={() => void bridge.chooseServer()} data-testid="desktop-connection-change">
            {connection.mode === 'team' ? 'Change server…' : 'Connect to a team server instead…'}
          </button>
        </div>
      </div>
    </section>
  );
}
