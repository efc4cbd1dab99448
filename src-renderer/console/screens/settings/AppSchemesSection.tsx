// Settings → App schemes: the custom URL schemes of the organisation's own mobile apps, the only
// ones a hosted session's, published flow's or age gate's redirect may use to return to the app
// (https and http to this computer need none). Owners and admins change the list; members see it.
// The rules (syntax, lower case, the schemes never allowed) are the shared contract's.
import { useState, type FormEvent } from 'react';
import { APP_SCHEMES_MAX, type AppSchemesSettings } from '../../../../src-shared/contracts/organization';
import { api, ApiError, errorText } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { Field } from '../../components/Field';
import { checkSchemes, refusalText, schemesOf } from './app-schemes';

export function AppSchemesSection({ canChange }: { canChange: boolean }) {
  const loaded = useResource((signal) => api.appSchemes(signal), []);
  const [saved, setSaved] = useState<AppSchemesSettings | null>(null);
  const current = saved ?? loaded.data ?? null;
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const shownText = draft ?? (current ? current.app_schemes.join(', ') : '');

  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!current) return;
    const checked = checkSchemes(shownText);
    if (!checked.ok) {
      setError(checked.error);
      return;
    }
    setError(undefined);
    setBusy(true);
    setNotice(null);
    void api.updateAppSchemes(checked.body)
      .then((next) => {
        setSaved(next);
        setDraft(null);
        setNotice({
          tone: 'success',
          text: next.app_schemes.length
            ? `Saved. Redirects may now return to ${next.app_schemes.map((s) => `${s}:`).join(', ')}.`
            : 'Saved. Redirects may use https only (and http to this computer, for testing).',
        });
      })
      .catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 400 && err.fields?.length) setError(refusalText(checked.body.app_schemes, err.fields));
        else setNotice({ tone: 'error', text: `Could not save the app schemes: ${errorText(err)}` });
      })
      .finally(() => setBusy(false));
  };

  const unchanged = !current || schemesOf(shownText).join(',') === current.app_schemes.join(',');
  return (
    <section className="panel settings-panel" aria-labelledby="app-schemes-heading" aria-busy={loaded.loading || busy} data-testid="settings-app-schemes">
      <div className="panel-header">
        <h2 id="app-schemes-heading">App schemes</h2>
      </div>
      <div className="settings-body">
        {loaded.error ? <Alert testId="app-schemes-error" title="Could not load the app schemes.">{loaded.error}</Alert> : null}
        {notice ? <Alert tone={notice.tone} testId="app-schemes-notice">{notice.text}</Alert> : null}
        <p className="muted">
          Hosted sessions, published flows and the age gate redirect to <code>https://</code> addresses. To return people to your
          mobile app instead, register its scheme here (for <code>myapp://verified</code>, register <code>myapp</code>). Other schemes
          are refused, and a redirect saved with a scheme you remove is no longer followed.
        </p>
        <form className="settings-row" onSubmit={save} noValidate>
          <Field
            id="app-schemes-input" label="Your apps’ schemes" value={shownText} error={error} testId="app-schemes-input"
            hint={`Separated by commas, in lower case; at most ${APP_SCHEMES_MAX}. Empty: https only.`} placeholder="myapp, com.example.app"
            disabled={!canChange || busy || !current} spellCheck={false} autoCapitalize="off"
            onChange={(ev) => {
              const value = ev.currentTarget.value;
              setDraft(value);
              setError(undefined);
            }}
          />
          {canChange ? (
            <button type="submit" className="btn" disabled={busy || unchanged} data-testid="app-schemes-save">
              Save schemes
            </button>
          ) : null}
        </form>
        {canChange ? null : <p className="muted" data-testid="app-schemes-read-only">Only owners and admins change the app schemes.</p>}
      </div>
    </section>
  );
}
