// Accepting an invitation (account spec, rule 4), reached from the link the inviter copied:
// - not signed in, no account for the invited e-mail: name and password create it and sign it in;
// - not signed in, an account exists: sign in with it, then accept;
// - signed in with the invited e-mail: one Accept button;
// - signed in with another account: log out and log in with the invited e-mail.
// The service does not say which e-mail an invitation is for; asking it with the token alone
// (which changes nothing) tells the first two cases apart before anyone types a password.
import { useEffect, useState, type FormEvent } from 'react';
import { AcceptInviteRequest, type AcceptedInvitation } from '../../../../src-shared/contracts/team';
import { api } from '../../api/client';
import { forgetInviteToken, useInviteToken } from '../../app/invite-token';
import { navigate } from '../../app/router';
import { HOME } from '../../app/routes';
import { Alert } from '../../components/Alert';
import { AuthFrame } from '../../components/AuthFrame';
import { Field } from '../../components/Field';
import { useSignIn } from '../../components/use-sign-in';
import { useSession } from '../../stores/session';
import { refusalOf, type Refusal } from './accept-outcome';
import './accept-invite.css';

type Phase =
  | { kind: 'checking' }
  | { kind: 'create' }
  | { kind: 'sign-in' }
  | { kind: 'confirm' }
  | { kind: 'joining' }
  | { kind: 'invalid' }
  | { kind: 'other-account'; message: string }
  | { kind: 'refused'; message: string; retry: boolean };

/** Phases that stand whatever the session does next (until the user acts). */
const SETTLED = new Set<Phase['kind']>(['joining', 'invalid', 'other-account']);

const TITLES: Record<Phase['kind'], string> = {
  checking: 'Accept your invitation',
  create: 'Create your account',
  'sign-in': 'Sign in to accept',
  confirm: 'Accept your invitation',
  joining: 'Accept your invitation',
  invalid: 'Invitation not valid',
  'other-account': 'Signed in with another account',
  refused: 'Accept your invitation',
};

export function AcceptInviteScreen() {
  const token = useInviteToken();
  const status = useSession((s) => s.status);
  const [phase, setPhase] = useState<Phase>({ kind: 'checking' });
  const [attempt, setAttempt] = useState(0);

  // Signed in: the Accept button. Not signed in: ask the service which way in this invitation needs.
  useEffect(() => {
    if (!token) return;
    if (status === 'ready') {
      setPhase((p) => (SETTLED.has(p.kind) ? p : { kind: 'confirm' }));
      return;
    }
    if (status !== 'login') return;
    setPhase((p) => (SETTLED.has(p.kind) && p.kind !== 'other-account' ? p : { kind: 'checking' }));
    let cancelled = false;
    api.acceptInvite({ token }).then(
      // Not expected without a session or an account's details; if it happens, the console opens.
      (accepted) => void joined(accepted, setPhase),
      (e: unknown) => {
        if (cancelled) return;
        const r = refusalOf(e);
        setPhase(phaseOf(r, true));
        if (r.kind === 'invalid') forgetInviteToken();
      },
    );
    return () => {
      cancelled = true;
    };
  }, [token, status, attempt]);

  const shown: Phase = !token && !SETTLED.has(phase.kind) ? { kind: 'invalid' } : phase;
  const retry = () => setAttempt((n) => n + 1);

  return (
    <AuthFrame testId="accept-invite" title={TITLES[shown.kind]} intro={<Intro phase={shown} />}>
      <div className="ai-body" data-phase={shown.kind} data-testid="accept-invite-body">
        {shown.kind === 'checking' ? <p className="muted ai-center" role="status">Checking the invitation…</p> : null}
        {shown.kind === 'joining' ? <p className="muted ai-center" role="status">Opening the console…</p> : null}
        {shown.kind === 'create' && token ? <CreateAccount token={token} onPhase={setPhase} /> : null}
        {shown.kind === 'sign-in' ? <SignIn /> : null}
        {shown.kind === 'confirm' && token ? <Confirm token={token} onPhase={setPhase} /> : null}
        {shown.kind === 'invalid' ? <Invalid hadToken={phase.kind === 'invalid'} /> : null}
        {shown.kind === 'other-account' ? <OtherAccount message={shown.message} /> : null}
        {shown.kind === 'refused' ? <Refused message={shown.message} onRetry={shown.retry && token ? retry : undefined} /> : null}
      </div>
    </AuthFrame>
  );
}

function phaseOf(r: Refusal, probing: boolean): Phase {
  switch (r.kind) {
    case 'invalid':
      return { kind: 'invalid' };
    case 'sign-in':
      return { kind: 'sign-in' };
    case 'create':
      return { kind: 'create' };
    case 'other-account':
      return { kind: 'other-account', message: r.message };
    case 'refused':
      return { kind: 'refused', message: r.message, retry: probing };
  }
}

function Intro({ phase }: { phase: Phase }) {
  switch (phase.kind) {
    case 'create':
      return <p>You have been invited to an organization on this Compliance Console. Create your account to join it.</p>;
    case 'sign-in':
      return <p>An account with the invited e-mail address already exists. Sign in with it to accept the invitation.</p>;
    case 'confirm':
      return <p>You have been invited to join an organization on this Compliance Console.</p>;
    default:
      return null;
  }
}

/** Once accepted: the session is read again and the console opens with the new role. */
async function joined(accepted: AcceptedInvitation, onPhase: (p: Phase) => void) {
  onPhase({ kind: 'joining' });
  forgetInviteToken();
  await useSession.getState().joinedTeam(accepted);
  navigate('team', { replace: true });
}

type CreateErrors = Partial<Record<'name' | 'password' | 'confirm', string>>;

function CreateAccount({ token, onPhase }: { token: string; onPhase: (p: Phase) => void }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<CreateErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setFormError(null);
    // The same schema the service checks: the answer comes at once.
    const parsed = AcceptInviteRequest.safeParse({ token, name, password });
    const next: CreateErrors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        if (issue.path[0] === 'name') next.name = 'Enter your name.';
        if (issue.path[0] === 'password') next.password = 'Use at least 10 characters.';
      }
    }
    if (!name.trim()) next.name = 'Enter your name.';
    if (!next.password && confirm !== password) next.confirm = 'The passwords do not match.';
    setErrors(next);
    const first = (['name', 'password', 'confirm'] as const).find((f) => next[f]);
    if (first || !parsed.success) {
      if (first) document.getElementById(`accept-${first}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      await joined(await api.acceptInvite(parsed.data), onPhase);
    } catch (err) {
      setBusy(false);
      const r = refusalOf(err);
      if (r.kind === 'create') {
        setErrors(r.field === 'name' ? { name: 'Enter your name.' } : { password: 'Use at least 10 characters.' });
        return;
      }
      if (r.kind === 'refused') {
        setFormError(r.message);
        return;
      }
      if (r.kind === 'invalid') forgetInviteToken();
      onPhase(phaseOf(r, false));
    }
  };

  return (
    <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate aria-busy={busy}>
      {formError ? <Alert testId="accept-error">{formError}</Alert> : null}
      <Field
        id="accept-name" label="Your name" testId="accept-name" autoComplete="name" value={name} required autoFocus
        onChange={(e) => setName(e.currentTarget.value)} error={errors.name}
      />
      <Field
        id="accept-password" label="Password" type="password" testId="accept-password" autoComplete="new-password" required
        hint="At least 10 characters. You sign in with the e-mail address the invitation was sent to and this password."
        value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={errors.password}
      />
      <Field
        id="accept-confirm" label="Confirm password" type="password" testId="accept-confirm" autoComplete="new-password" required
        value={confirm} onChange={(e) => setConfirm(e.currentTarget.value)} error={errors.confirm}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={busy} data-testid="accept-create">
        {busy ? 'Creating your account…' : 'Create account and join'}
      </button>
    </form>
  );
}

/** Signing in here turns the screen into the Accept button (the session store's status changes). */
function SignIn() {
  const { email, setEmail, password, setPassword, error, busy, onSubmit } = useSignIn('accept-login-password');

  return (
    <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate aria-busy={busy}>
      {error ? <Alert testId="accept-login-error">{error}</Alert> : null}
      <Field
        id="accept-login-email" label="Invited e-mail" type="email" autoComplete="username" testId="accept-login-email"
        value={email} onChange={(e) => setEmail(e.currentTarget.value)} required autoFocus
      />
      <Field
        id="accept-login-password" label="Password" type="password" autoComplete="current-password" testId="accept-login-password"
        value={password} onChange={(e) => setPassword(e.currentTarget.value)} required
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={busy} data-testid="accept-login-submit">
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}

function Confirm({ token, onPhase }: { token: string; onPhase: (p: Phase) => void }) {
  const session = useSession((s) => s.session);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!session) return null;
  const { user, organization } = session;

  const accept = async () => {
    setBusy(true);
    setError(null);
    try {
      await joined(await api.acceptInvite({ token }), onPhase);
    } catch (err) {
      setBusy(false);
      const r = refusalOf(err);
      if (r.kind === 'refused') {
        setError(r.message);
        return;
      }
      if (r.kind === 'invalid') forgetInviteToken();
      onPhase(phaseOf(r, false));
    }
  };

  return (
    <div className="form">
      {error ? <Alert testId="accept-error">{error}</Alert> : null}
      <p data-testid="accept-signed-in-as">
        Signed in as <strong>{user.name}</strong> ({user.email}).
      </p>
      <p className="muted">
        An account belongs to one organization: accepting moves yours from <strong className="text-body">{organization.name}</strong> to
        the organization that invited you, with the role the invitation gives.
      </p>
      <button type="button" className="btn btn-primary btn-block" onClick={() => void accept()} disabled={busy} data-testid="accept-confirm">
        {busy ? 'Accepting…' : 'Accept invitation'}
      </button>
      <button type="button" className="btn btn-block" onClick={() => leave()} disabled={busy} data-testid="accept-not-now">
        Not now
      </button>
    </div>
  );
}

/** Back to the console (or sign-in), dropping the token. */
function leave() {
  forgetInviteToken();
  navigate(HOME, { replace: true });
}

function OtherAccount({ message }: { message: string }) {
  const session = useSession((s) => s.session);
  const logout = useSession((s) => s.logout);
  const [busy, setBusy] = useState(false);
  return (
    <div className="form">
      <Alert tone="warning" testId="accept-other-account">
        {message}
      </Alert>
      {session ? (
        <p>
          You are signed in as <strong>{session.user.email}</strong>. After logging out, sign in here with the invited e-mail, or create
          the account if it has none yet; the invitation stays open.
        </p>
      ) : null}
      <button
        type="button" className="btn btn-primary btn-block" disabled={busy} data-testid="accept-logout"
        onClick={() => {
          setBusy(true);
          void logout();
        }}
      >
        {busy ? 'Logging out…' : 'Log out'}
      </button>
      <button type="button" className="btn btn-block" onClick={() => leave()} data-testid="accept-back">
        Back to the console
      </button>
    </div>
  );
}

function Invalid({ hadToken }: { hadToken: boolean }) {
  const status = useSession((s) => s.status);
  return (
    <div className="form">
      <Alert testId="accept-invalid" title="Invalid invitation token">
        {hadToken
          ? 'This invitation has already been used, was cancelled, or is more than 7 days old. Ask the person who invited you for a new one.'
          : 'This address carries no invitation. Open the acceptance link you were given again; for your safety it is removed from the address once read.'}
      </Alert>
      <button type="button" className="btn btn-block" onClick={() => leave()} data-testid="accept-back">
        {status === 'ready' ? 'Go to the console' : 'Go to sign in'}
      </button>
    </div>
  );
}

function Refused({ message, onRetry }: { message: string; onRetry: (() => void) | undefined }) {
  const status = useSession((s) => s.status);
  return (
    <div className="form">
      <Alert testId="accept-error">{message}</Alert>
      {onRetry ? (
        <button type="button" className="btn btn-primary btn-block" onClick={onRetry} data-testid="accept-retry">
          Try again
        </button>
      ) : null}
      <button type="button" className="btn btn-block" onClick={() => leave()} data-testid="accept-back">
        {status === 'ready' ? 'Go to the console' : 'Go to sign in'}
      </button>
    </div>
  );
}
