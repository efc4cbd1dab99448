// The e-mail + password sign-in a form needs (the login screen, the acceptance screen's sign-in):
// checks both are given, calls the session store's login, and after a refusal empties the
// password and puts the focus back on it.
import { useState, type FormEvent } from 'react';
import { errorText } from '../api/client';
import { useSession } from '../stores/session';

export function useSignIn(passwordFieldId: string) {
  const login = useSession((s) => s.login);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!email.trim() || !password) {
      setError('Enter your e-mail and password.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await login({ email: email.trim(), password });
    } catch (err) {
      setError(errorText(err));
      setPassword('');
      setBusy(false);
      document.getElementById(passwordFieldId)?.focus();
    }
  };

  return { email, setEmail, password, setPassword, error, busy, onSubmit };
}
