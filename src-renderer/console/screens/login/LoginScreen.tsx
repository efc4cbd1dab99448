import { Alert } from '../../components/Alert';
import { AuthFrame } from '../../components/AuthFrame';
import { Field } from '../../components/Field';
import { useSignIn } from '../../components/use-sign-in';

export function LoginScreen() {
  const { email, setEmail, password, setPassword, error, busy, onSubmit } = useSignIn('login-password');

  return (
    <AuthFrame testId="login" title="Sign in" intro={<p>Sign in with your organization account.</p>}>
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate aria-busy={busy}>
        {error ? <Alert testId="login-error">{error}</Alert> : null}
        <Field
          id="login-email" label="E-mail" type="email" autoComplete="username" testId="login-email"
          value={email} onChange={(e) => setEmail(e.currentTarget.value)} required autoFocus
        />
        <Field
          id="login-password" label="Password" type="password" autoComplete="current-password" testId="login-password"
          value={password} onChange={(e) => setPassword(e.currentTarget.value)} required
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy} data-testid="login-submit">
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </AuthFrame>
  );
}
