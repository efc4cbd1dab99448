// Decides what the window shows: start-up, first run, login, or the console itself.
import { useEffect } from 'react';
import { FirstRunScreen } from '../screens/first-run/FirstRunScreen';
import { LoginScreen } from '../screens/login/LoginScreen';
import { ChooseMemberScreen } from '../screens/login/ChooseMemberScreen';
import { useSession } from '../stores/session';
import { AppShell } from './AppShell';

export function App() {
  const status = useSession((s) => s.status);
  const bootError = useSession((s) => s.bootError);
  const boot = useSession((s) => s.boot);

  useEffect(() => {
    void boot();
  }, [boot]);

  switch (status) {
    case 'booting':
      return (
        <div className="splash" role="status" data-testid="booting">
          Starting Compliance Console…
        </div>
      );
    case 'unreachable':
      return (
        <div className="splash" data-testid="unreachable">
          <div className="panel splash-panel" role="alert">
            <h1>Cannot reach the service</h1>
            <p>{bootError}</p>
            <button type="button" className="btn btn-primary" onClick={() => void boot()}>
              Try again
            </button>
          </div>
        </div>
      );
    case 'first-run':
      return <FirstRunScreen />;
    case 'login':
      return <LoginScreen />;
    case 'choose-member':
      return <ChooseMemberScreen />;
    case 'ready':
      return <AppShell />;
  }
}
