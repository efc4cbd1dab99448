import type { ReactNode } from 'react';
import { useSession } from '../stores/session';

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
      {version ? <p className="auth-footer">Version {version} · runs on this computer</p> : null}
    </div>
  );
}
