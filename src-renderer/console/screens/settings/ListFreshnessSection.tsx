// Settings → List freshness: after how many days a sanctions (and wanted) or PEP (and RCA) list is
// reported stale, in the lists panel's banner, every screening's list_versions and the exports.
// Owners and admins change the windows; members see them. Bounds come from the shared contract.
import { useState, type FormEvent } from 'react';
import {
  DEFAULT_STALE_DAYS, ListFreshnessSettings, STALE_DAYS_MAX, STALE_DAYS_MIN,
} from '../../../../src-shared/contracts/organization';
import { api, errorText } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { Field } from '../../components/Field';
import { useListsStore } from '../../stores/lists';

type Key = keyof ListFreshnessSettings;
const FIELDS: { key: Key; label: string; hint: string }[] = [
  { key: 'sanctions_stale_days', label: 'Sanctions lists (days)', hint: `Also wanted lists. Default ${DEFAULT_STALE_DAYS.sanctions_stale_days}.` },
  { key: 'pep_stale_days', label: 'PEP lists (days)', hint: `Also relatives and close associates. Default ${DEFAULT_STALE_DAYS.pep_stale_days}.` },
];

export function ListFreshnessSection({ canChange }: { canChange: boolean }) {
  const loaded = useResource((signal) => api.listFreshness(signal), []);
  const [saved, setSaved] = useState<ListFreshnessSettings | null>(null);
  const current = saved ?? loaded.data ?? null;
  const [draft, setDraft] = useState<Partial<Record<Key, string>>>({});
  const [errors, setErrors] = useState<Partial<Record<Key, string>>>({});
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const shown = (k: Key) => draft[k] ?? (current ? String(current[k]) : '');

  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!current) return;
    const parsed = ListFreshnessSettings.safeParse({
      sanctions_stale_days: Number(shown('sanctions_stale_days')), pep_stale_days: Number(shown('pep_stale_days')),
    });
    if (!parsed.success) {
      const bad: Partial<Record<Key, string>> = {};
      for (const issue of parsed.error.issues) bad[issue.path[0] as Key] = `Enter a whole number of days from ${STALE_DAYS_MIN} to ${STALE_DAYS_MAX}.`;
      setErrors(bad);
      return;
    }
    setErrors({});
    setBusy(true);
    setNotice(null);
    void api.updateListFreshness(parsed.data)
      .then((next) => {
        setSaved(next);
        setDraft({});
        setNotice({ tone: 'success', text: 'Saved. Lists older than these windows are marked out of date from now on.' });
        // The lists' stale flags follow the windows.
        useListsStore.getState().refresh();
      })
      .catch((err: unknown) => setNotice({ tone: 'error', text: `Could not save the windows: ${errorText(err)}` }))
      .finally(() => setBusy(false));
  };

  const unchanged = !current || FIELDS.every((f) => shown(f.key) === String(current[f.key]));
  return (
    <section className="panel settings-panel" aria-labelledby="freshness-settings-heading" aria-busy={loaded.loading || busy} data-testid="settings-list-freshness">
      <div className="panel-header">
        <h2 id="freshness-settings-heading">List freshness</h2>
      </div>
      <div className="settings-body">
        {loaded.error ? <Alert testId="list-freshness-error" title="Could not load the list freshness windows.">{loaded.error}</Alert> : null}
        {notice ? <Alert tone={notice.tone} testId="list-freshness-notice">{notice.text}</Alert> : null}
        <p className="muted">
          A list published longer ago than its window is marked out of date on the Screening and Batch rescreen screens, in every
          screening’s <code>list_versions</code> (<code>stale</code>) and in report exports. Screening still uses it.
        </p>
        <form className="settings-row" onSubmit={save} noValidate>
          {FIELDS.map((f) => (
            <Field
              key={f.key} id={`list-freshness-${f.key}`} label={f.label} inputMode="numeric" value={shown(f.key)} hint={f.hint}
              disabled={!canChange || busy || !current} error={errors[f.key]} testId={`list-freshness-${f.key}`}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setDraft((d) => ({ ...d, [f.key]: value }));
              }}
            />
          ))}
          {canChange ? (
            <button type="submit" className="btn" disabled={busy || unchanged} data-testid="list-freshness-save">
              Save windows
            </button>
          ) : null}
        </form>
        {canChange ? null : <p className="muted" data-testid="list-freshness-read-only">Only owners and admins change these windows.</p>}
      </div>
    </section>
  );
}
