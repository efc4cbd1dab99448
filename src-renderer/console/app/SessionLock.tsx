// The session ended while the console was open (it expired, or was ended elsewhere): the console
// stays exactly as it was, hidden, and asks the same person for their password. Signing in again
// carries on where they were (requests made meanwhile are sent again); choosing to sign in as
// someone else drops the console's memory, after saying what unsaved decisions that loses.
import { Alert } from '../components/Alert';
import { useDiscardGuard } from '../components/batch/use-discard-guard';
import { useSaveResults } from '../components/batch/use-save-results';
import { Field } from '../components/Field';
import { usePasswordSubmit } from '../components/use-sign-in';
import { useEffect, useState } from 'react';
import { useBatch } from '../stores/batch';
import { useSession } from '../stores/session';

const PASSWORD_ID = 'session-lock-password';

export function SessionLock() {
  const email = useSession((s) => s.session?.user.email ?? '');
  const unlock = useSession((s) => s.unlock);
  const abandon = useSession((s) => s.abandon);
  const kept = useBatch((s) => s.entries.length);
  const unsaved = useBatch((s) => (s.unsaved ? s.dispositions.size : 0));
  const { save, notice } = useSaveResults();
  const { guard, dialog } = useDiscardGuard(save);
  const { password, setPassword, error, busy, onSubmit } = usePasswordSubmit(
    PASSWORD_ID, (typed) => (typed ? null : 'Enter your password.'), unlock,
  );
  // Where the analyst was when the session ended (read while rendering, before the console goes
  // inert and the password field takes focus): focus goes back there once they are signed in again.
  const [was] = useState(() => document.activeElement);
  useEffect(() => () => {
    // After the console is no longer inert (this runs once the unlock has been drawn).
    setTimeout(() => {
      // Only after an unlock: "Sign in as someone else" leaves for the sign-in screen, which has its own focus.
      if (useSession.getState().status !== 'ready') return;
      if (was instanceof HTMLElement && was.isConnected && was !== document.body) was.focus();
      else document.querySelector<HTMLElement>('main h1')?.focus();
    }, 0);
  }, [was]);

  return (
    <div className="session-lock" role="dialog" aria-modal="true" aria-labelledby="session-lock-title" data-testid="session-lock">
      <div className="panel session-lock-panel">
        <h1 id="session-lock-title">Your session has ended</h1>
        <p>
          Sign in again as <strong data-testid="session-lock-email">{email}</strong> to carry on where you were.
          {kept > 0 ? ' Your batch results and review decisions are kept in this window.' : ' Nothing you were doing is lost.'}
        </p>
        {unsaved > 0 ? (
          <p className="muted" data-testid="session-lock-unsaved">
            {unsaved} {unsaved === 1 ? 'decision is' : 'decisions are'} not saved yet.
          </p>
        ) : null}
        {notice ? <Alert tone={notice.tone === 'success' ? 'success' : 'error'}>{notice.text}</Alert> : null}
        <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate aria-busy={busy}>
          {error ? <Alert testId="session-lock-error">{error}</Alert> : null}
          <input type="email" autoComplete="username" value={email} readOnly hidden />
          <Field
            id={PASSWORD_ID} label="Password" type="password" autoComplete="current-password" testId="session-lock-password"
            value={password} onChange={(e) => setPassword(e.currentTarget.value)} required autoFocus
          />
          <button type="submit" className="btn btn-primary btn-block" disabled={busy} data-testid="session-lock-submit">
            {busy ? 'Signing in…' : 'Sign in and carry on'}
          </button>
        </form>
        <button
          type="button" className="btn btn-block session-lock-other" disabled={busy} data-testid="session-lock-other"
          onClick={() => guard('Sign in as someone else', abandon)}
        >
          Sign in as someone else
        </button>
      </div>
      {dialog}
    </div>
  );
}
