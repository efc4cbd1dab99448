// Settings → Organization: the display name and logo that hosted verification pages and PDF
// reports show. Owners and admins change them; members see them. The logo is sent as the file's
// bytes; the service checks it, re-encodes it as a PNG and serves it back from its own origin.
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { LOGO_MAX_UPLOAD_BYTES, type OrganizationSettings } from '../../../../src-shared/contracts/organization';
import { api, errorText } from '../../api/client';
import { serviceUrl } from '../../api/shell';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { Field } from '../../components/Field';
import { useSession } from '../../stores/session';

export function OrganizationSection({ canChange }: { canChange: boolean }) {
  const loaded = useResource((signal) => api.organization(signal), []);
  const setOrganization = useSession((s) => s.setOrganization);
  const session = useSession((s) => s.session);
  const [saved, setSaved] = useState<OrganizationSettings | null>(null);
  const current = saved ?? loaded.data ?? null;
  const [name, setName] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [nameError, setNameError] = useState<string | undefined>(undefined);
  const fileRef = useRef<HTMLInputElement>(null);
  const shownName = name ?? current?.name ?? '';

  const applied = (next: OrganizationSettings, text: string) => {
    setSaved(next);
    setNotice({ tone: 'success', text });
    if (session) setOrganization({ ...session.organization, name: next.name });
  };

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setNotice(null);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };

  const rename = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const trimmed = shownName.trim();
    if (trimmed.length < 1 || trimmed.length > 120) {
      setNameError('Enter a name of 1 to 120 characters.');
      return;
    }
    setNameError(undefined);
    void run(async () => {
      try {
        const next = await api.renameOrganization({ name: trimmed });
        setName(null);
        applied(next, 'The organization’s name is saved.');
      } catch (err) {
        setNotice({ tone: 'error', text: `Could not save the name: ${errorText(err)}` });
      }
    });
  };

  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.currentTarget.files?.[0];
    e.currentTarget.value = '';
    if (!file) return;
    if (file.size > LOGO_MAX_UPLOAD_BYTES) {
      setNotice({ tone: 'error', text: `The logo is ${Math.ceil(file.size / 1024)} KB; at most ${LOGO_MAX_UPLOAD_BYTES / 1024} KB is taken.` });
      return;
    }
    void run(async () => {
      try {
        applied(await api.uploadLogo(file), 'The logo is saved. Hosted verification pages and PDF reports show it.');
      } catch (err) {
        setNotice({ tone: 'error', text: `Could not save the logo: ${errorText(err)}` });
      }
    });
  };

  const remove = () => void run(async () => {
    try {
      applied(await api.removeLogo(), 'The logo is removed.');
    } catch (err) {
      setNotice({ tone: 'error', text: `Could not remove the logo: ${errorText(err)}` });
    }
  });

  return (
    <section className="panel settings-panel" aria-labelledby="organization-settings-heading" aria-busy={loaded.loading || busy} data-testid="settings-organization">
      <div className="panel-header">
        <h2 id="organization-settings-heading">Organization</h2>
      </div>
      <div className="settings-body">
        {loaded.error ? <Alert testId="organization-error" title="Could not load the organization.">{loaded.error}</Alert> : null}
        {notice ? <Alert tone={notice.tone} testId="organization-notice">{notice.text}</Alert> : null}
        <p className="muted">Hosted verification pages and PDF reports show this name and logo.</p>
        <form className="settings-row" onSubmit={rename} noValidate>
          <Field
            id="organization-name" label="Name" value={shownName} maxLength={120} disabled={!canChange || busy || !current}
            onChange={(e) => setName(e.currentTarget.value)} error={nameError} testId="organization-name"
          />
          {canChange ? (
            <button type="submit" className="btn" disabled={busy || !current || shownName.trim() === current.name} data-testid="organization-name-save">
              Save name
            </button>
          ) : null}
        </form>
        <div className="settings-logo">
          <div className="logo-preview" data-testid="organization-logo-preview">
            {current?.logo
              ? <img src={`${serviceUrl()}${current.logo.url}`} alt={`${current.name} logo`} data-testid="organization-logo" />
              : <span className="muted">No logo</span>}
          </div>
          <div className="settings-logo-actions">
            {current?.logo ? <span className="muted" data-testid="organization-logo-size">{current.logo.width} × {current.logo.height} px</span> : null}
            {canChange ? (
              <>
                <input
                  // The "Upload logo…" button is the control (a second, unnamed tab stop otherwise).
                  ref={fileRef} type="file" accept="image/png,image/jpeg" className="visually-hidden" id="organization-logo-file" tabIndex={-1} aria-hidden="true"
                  onChange={onFile} data-testid="organization-logo-file" disabled={busy}
                />
                <button type="button" className="btn" onClick={() => fileRef.current?.click()} disabled={busy || !current} data-testid="organization-logo-upload">
                  {current?.logo ? 'Replace logo…' : 'Upload logo…'}
                </button>
                {current?.logo ? (
                  <button type="button" className="btn btn-danger-quiet" onClick={remove} disabled={busy} data-testid="organization-logo-remove">
                    Remove logo
                  </button>
                ) : null}
                <span className="field-hint">PNG or JPEG, at most {LOGO_MAX_UPLOAD_BYTES / 1024} KB; stored as a PNG of at most 512 × 512 pixels.</span>
              </>
            ) : null}
          </div>
        </div>
      </div>
    </section>
  );
}
