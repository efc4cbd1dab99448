// Password forms (the login screen, the acceptance screen's sign-in, the locked session's prompt):
// check what was typed, submit it, and after a refusal empty the password and put the focus back on it.
import { useState, type FormEvent } from 'react';
import { errorText } from '../api/client';
import { useSession } from '../stores/session';

/**
 * `missing` says what is not filled in yet (null when the form may go); `submit` signs in with the
 * password, throwing the service's refusal.
 */
export function usePasswordSubmit(passwordFieldId: string, missing: (password: string) => string | null, submit: (password: string) => Promise<void>) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const problem = missing(password);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await submit(password);
    } catch (err) {
      setError(errorText(err));
      setPassword('');
      setBusy(false);
      document.getElementById(passwordFieldId)?.focus();
    }
  };

  return { password, setPassword, error, busy, onSubmit };
}

/** The e-mail + password sign-in: both must be given, then the session store's login. */
export function useSignIn(passwordFieldId: string) {
  const login = useSession((s) => s.login);
  const [email, setEmail] = useState('');
  const form = usePasswordSubmit(
    passwordFieldId,
    (password) => (!email.trim() || !password ? 'Enter your e-mail and password.' : null),
    (password) => login({ email: email.trim(), password }),
  );
  return { email, setEmail, ...form };
}
