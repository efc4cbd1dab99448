// The desktop's "Who is signing in?": the shell's token opened the console on a computer whose
// organisation has several people. Nobody is signed in yet; the person picks themselves from the
// list (name and e-mail) and gives their own password, so a shared install never lets one person
// act as another silently. "Use e-mail instead" leads to the ordinary sign-in form.
import { useState, type FormEvent } from 'react';
import { errorText } from '../../api/client';
import { Alert } from '../../components/Alert';
import { AuthFrame } from '../../components/AuthFrame';
import { Field } from '../../components/Field';
import { useSession } from '../../stores/session';

export function ChooseMemberScreen() {
  const members = useSession((s) => s.members);
  const desktopLogin = useSession((s) => s.desktopLogin);
  const switchToEmailLogin = useSession((s) => s.switchToEmailLogin);
  const [chosen, setChosen] = useState<number | null>(null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const focusPassword = () => document.getElementById('choose-member-password')?.focus();
  const member = members.find((m) => m.id === chosen) ?? null;

  const choose = (id: number) => {
    setChosen(id);
    setPassword('');
    setError(null);
    // The password field appears with the choice; focus it once it is there.
    setTimeout(focusPassword, 0);
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!member) return;
    if (!password) {
      setError('Enter your password.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await desktopLogin(member.id, password);
    } catch (err) {
      setError(errorText(err));
      setPassword('');
      setBusy(false);
      focusPassword();
    }
  };

  return (
    <AuthFrame testId="choose-member" title="Who is signing in?" intro={<p>Several people use Compliance Console on this computer. Choose yourself, then enter your password.</p>}>
      <ul className="member-choice" aria-label="Team members">
        {members.map((m) => (
          <li key={m.id}>
            <button
              type="button"
              className={`member-choice-item${m.id === chosen ? ' member-choice-selected' : ''}`}
              aria-pressed={m.id === chosen}
              onClick={() => choose(m.id)}
              data-testid="choose-member-item"
            >
              <strong>{m.name}</strong>
              <span className="muted">{m.email}</span>
            </button>
          </li>
        ))}
      </ul>
      {member ? (
        <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate aria-busy={busy}>
          {error ? <Alert testId="choose-member-error">{error}</Alert> : null}
          <Field
            id="choose-member-password" label={`Password for ${member.email}`} type="password" autoComplete="current-password"
            testId="choose-member-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} required
          />
          <button type="submit" className="btn btn-primary btn-block" disabled={busy} data-testid="choose-member-submit">
            {busy ? 'Signing in…' : `Sign in as ${member.name}`}
          </button>
        </form>
      ) : null}
      <button type="button" className="link-button member-choice-email" onClick={switchToEmailLogin} data-testid="choose-member-email">
        Sign in with e-mail instead
      </button>
    </AuthFrame>
  );
}
