// Settings → Hosted checks (issue 26): how many attempts a person has on one hosted link. A
// failure they can fix (light, one face, the whole document in frame) may be tried again on the
// same link until these are used; the session is charged once. Bounds come from the shared contract.
import { useState, type FormEvent } from 'react';
import { HOSTED_ATTEMPTS, HostedAttemptsSettings } from '../../../../src-shared/contracts/hosted';
import { api, errorText } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { Field } from '../../components/Field';

export function HostedAttemptsSection({ canChange }: { canChange: boolean }) {
  const loaded = useResource((signal) => api.hostedAttempts(signal), []);
  const [saved, setSaved] = useState<HostedAttemptsSettings | null>(null);
  const current = saved ?? loaded.data ?? null;
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const shown = draft ?? (current ? String(current.hosted_attempts) : '');

  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!current) return;
    const parsed = HostedAttemptsSettings.safeParse({ hosted_attempts: shown.trim() === '' ? NaN : Number(shown) });
    if (!parsed.success) {
      setError(`Enter a whole number from ${HOSTED_ATTEMPTS.min} to ${HOSTED_ATTEMPTS.max}.`);
      return;
    }
    setError(undefined);
    setBusy(true);
    setNotice(null);
    void api.updateHostedAttempts(parsed.data)
      .then((next) => {
        setSaved(next);
        setDraft(null);
        setNotice({ tone: 'success', text: `Saved. A person has ${next.hosted_attempts === 1 ? 'one attempt' : `${next.hosted_attempts} attempts`} on each hosted link, links already given included.` });
      })
      .catch((err: unknown) => setNotice({ tone: 'error', text: `Could not save the attempts: ${errorText(err)}` }))
      .finally(() => setBusy(false));
  };

  return (
    <section className="panel settings-panel" aria-labelledby="hosted-attempts-heading" aria-busy={loaded.loading || busy} data-testid="settings-hosted-attempts">
      <div className="panel-header">
        <h2 id="hosted-attempts-heading">Hosted checks</h2>
      </div>
      <div className="settings-body">
        {loaded.error ? <Alert testId="hosted-attempts-error" title="Could not load the hosted check settings.">{loaded.error}</Alert> : null}
        {notice ? <Alert tone={notice.tone} testId="hosted-attempts-notice">{notice.text}</Alert> : null}
        <p className="muted">
          When a check on a hosted link fails for something the person can fix (too little light, more than one face, the document not
          fully in the picture), the page says what to do and they may try again on the same link, until their attempts are used. The
          session is charged once. A date of birth below the minimum age or a watchlist match ends it at once.
        </p>
        <form className="settings-row" onSubmit={save} noValidate>
          <Field
            id="hosted-attempts-input" label="Attempts per link" inputMode="numeric" value={shown} error={error} testId="hosted-attempts-input"
            hint={`${HOSTED_ATTEMPTS.min} to ${HOSTED_ATTEMPTS.max}; default ${HOSTED_ATTEMPTS.default}. 1: no second attempt.`}
            disabled={!canChange || busy || !current}
            onChange={(ev) => {
              const value = ev.currentTarget.value;
              setDraft(value);
              setError(undefined);
            }}
          />
          {canChange ? (
            <button type="submit" className="btn" disabled={busy || !current || shown === String(current.hosted_attempts)} data-testid="hosted-attempts-save">
              Save attempts
            </button>
          ) : null}
        </form>
        {canChange ? null : <p className="muted" data-testid="hosted-attempts-read-only">Only owners and admins change the attempts.</p>}
      </div>
    </section>
  );
}
