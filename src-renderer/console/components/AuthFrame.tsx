import type { ReactNode } from 'react';
import { shell } from '../api/shell';
import { useSession } from '../stores/session';

/** Where the console's service runs: this computer, or the team server the desktop app connected to. */
function where(): string {
  const connection = shell()?.connection;
  if (connection?.mode === 'team') return `team server ${connection.serverUrl}`;
  // A browser at another desk reaches the team server by its network address.
  const local = ['127.0.0.1', 'localhost', '[::1]'].includes(window.location.hostname);
  return local || shell() ? 'runs on this computer' : `team server ${window.location.origin}`;
}

/** The centred card around the first-run and login forms. */
export function AuthFrame({ testId, title, intro, children }: { testId: string; title: string; intro: ReactNode; children: ReactNode }) {
  const version = useSession((s) => s.version);
  return (
    <div className="auth-page" data-testid={testId}>
      <main className="auth-card">
        <div className="brand brand-large">
          <span className="brand-mark" aria-hidden="true">CC</span>
          <span className="brand-name">Compliance Console</span>
        </div>
        <h1>{title}</h1>
        <div className="auth-intro">{intro}</div>
        {children}
      </main>
      {version ? <p className="auth-footer">Version {version} · {where()}</p> : null}
    </div>
  );
}
