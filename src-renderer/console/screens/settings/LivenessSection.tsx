// Settings → Liveness (issue 37): whether the organisation's API keys must send the head-turn clip
// as a selfie. A still photo is weaker evidence of a live person (a print or a screen can pass
// it); with this on, a key's photo is refused before anything is charged and every clip is held
// to the head-turn challenge. Hosted pages ask for the clip whatever this says.
import { useState } from 'react';
import type { LivenessSettings } from '../../../../src-shared/contracts/faces';
import { api, errorText, isStaleSetting } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';

export function LivenessSection({ canChange }: { canChange: boolean }) {
  const loaded = useResource((signal) => api.livenessSettings(signal), []);
  const [saved, setSaved] = useState<LivenessSettings | null>(null);
  const [shown, setShown] = useState<boolean | null>(null);
  const on = shown ?? saved?.require_liveness_clip ?? loaded.data?.require_liveness_clip ?? false;
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const change = (next: boolean) => {
    const before = on;
    // The box shows the choice at once; a refusal puts it back.
    setShown(next);
    setBusy(true);
    setNotice(null);
    void api.updateLivenessSettings({ require_liveness_clip: next })
      .then((r) => {
        setSaved(r);
        setShown(null);
        setNotice({
          tone: 'success',
          text: r.require_liveness_clip
            ? 'The head-turn clip is now required of your API keys: a still photo sent as a selfie is refused, and not charged.'
            : 'Still photos are taken from your API keys again; their answers and the ledger say they are weaker evidence.',
        });
      })
      .catch((e: unknown) => {
        setShown(before);
        setNotice({ tone: 'error', text: `Could not change the setting: ${errorText(e)}` });
        // Someone else changed it meanwhile: show it as it now stands.
        if (isStaleSetting(e)) {
          setSaved(null);
          setShown(null);
          loaded.reload();
        }
      })
      .finally(() => setBusy(false));
  };

  return (
    <section className="panel settings-panel" aria-labelledby="liveness-settings-heading" aria-busy={loaded.loading || busy} data-testid="settings-liveness">
      <div className="panel-header">
        <h2 id="liveness-settings-heading">Liveness</h2>
      </div>
      <div className="settings-body">
        {loaded.error ? <Alert testId="liveness-settings-error" title="Could not load the liveness setting.">{loaded.error}</Alert> : null}
        {notice ? <Alert tone={notice.tone} testId="liveness-settings-notice">{notice.text}</Alert> : null}
        <label className={`option option-single${canChange ? '' : ' option-disabled'}`}>
          <input
            type="checkbox"
            checked={on}
            disabled={!canChange || busy || !loaded.data}
            onChange={(e) => change(e.currentTarget.checked)}
            data-testid="settings-require-clip"
          />
          <span>
            <strong>Require the head-turn clip from API keys</strong>
            <span className="option-hint">
              A still photo is weaker evidence that a live person was there: a good print or screen can pass it. With this on, liveness,
              age, identity and KYC-plus calls from your API keys must send the selfie as a short clip of the person turning their head,
              and a photo is refused before it is charged. Hosted links always ask for the clip; the console’s try panel and the
              storefront age gate still take photos.
            </span>
          </span>
        </label>
        {canChange ? null : <p className="muted" data-testid="liveness-settings-read-only">Only owners and admins change this setting.</p>}
      </div>
    </section>
  );
}
