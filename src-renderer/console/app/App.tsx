// Decides what the window shows: start-up, first run, login, or the console itself; and an
// invitation's acceptance screen, signed in or not (the invitee may have no account yet).
import { useEffect } from 'react';
import { AcceptInviteScreen } from '../screens/accept-invite/AcceptInviteScreen';
import { FirstRunScreen } from '../screens/first-run/FirstRunScreen';
import { LoginScreen } from '../screens/login/LoginScreen';
import { ChooseMemberScreen } from '../screens/login/ChooseMemberScreen';
import { useSession } from '../stores/session';
import { AppShell } from './AppShell';
import { SessionLock } from './SessionLock';
import { ACCEPT_INVITE } from './invite-token';
import { useLocation } from './router';

export function App() {
  const status = useSession((s) => s.status);
  const bootError = useSession((s) => s.bootError);
  const boot = useSession((s) => s.boot);
  const screen = useLocation().screen;

  useEffect(() => {
    void boot();
  }, [boot]);

  // Outside the signed-in frame, and the same element whether signed in or not, so signing in
  // (or out) on it keeps its state.
  if (screen === ACCEPT_INVITE && (status === 'login' || status === 'ready')) return <AcceptInviteScreen />;

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
    case 'locked':
      // One element for both, so a lock and its unlock keep every screen's state.
      return (
        <>
          <AppShell locked={status === 'locked'} />
          {status === 'locked' ? <SessionLock /> : null}
        </>
      );
  }
}
