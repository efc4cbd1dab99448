// Settings → Public URL (issue 26): the address of a proxy or tunnel in front of this service, which
// hosted links, their QR codes and the age gate's script tag use while the on-site server is not
// running. Without one they point to this computer's own address and reach nothing else. A
// `--public-url` given at start is the operator's and wins: the saved one then shows as overridden.
// The rule is the shared contract's (the same as the start flag's).
import { useState, type FormEvent } from 'react';
import { UpdatePublicUrlRequest, type LinkOrigin, type PublicUrlIssue, type PublicUrlSettings } from '../../../../src-shared/contracts/links';
import { api, ApiError, errorText } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { Field } from '../../components/Field';

const ISSUE_TEXT: Record<PublicUrlIssue | 'too long', string> = {
  not_a_url: 'Enter a full address such as https://verify.example.com.',
  scheme: 'The address must start with https:// (or http://).',
  not_an_origin: 'Enter the address only: scheme, host and port, without a path, query or user name.',
  'too long': 'This address is too long.',
};
const issueText = (issue: string | undefined) => ISSUE_TEXT[issue as PublicUrlIssue] ?? ISSUE_TEXT.not_a_url;

const REACH_TEXT: Record<LinkOrigin['link_reach'], string> = {
  public: 'anywhere the public URL reaches',
  team: 'your team’s network (team server)',
  onsite: 'devices on this computer’s network (on-site server)',
  this_computer: 'this computer only',
};

function Reach({ label, link, testId }: { label: string; link: LinkOrigin; testId: string }) {
  return (
    <li data-testid={testId} data-reach={link.link_reach}>
      {label}: <code className="mono">{link.origin}</code>, {REACH_TEXT[link.link_reach]}
    </li>
  );
}

export function PublicUrlSection({ canChange }: { canChange: boolean }) {
  const loaded = useResource((signal) => api.publicUrl(signal), []);
  const [saved, setSaved] = useState<PublicUrlSettings | null>(null);
  const current = saved ?? loaded.data ?? null;
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const shown = draft ?? current?.public_url ?? '';

  const send = (value: string | null) => {
    setBusy(true);
    setNotice(null);
    void api.updatePublicUrl({ public_url: value })
      .then((next) => {
        setSaved(next);
        setDraft(null);
        setNotice({
          tone: 'success',
          text: next.public_url
            ? `Saved. ${next.overridden ? 'It is used once the service starts without --public-url.' : 'New links and the script tag use it.'}`
            : 'Cleared. Links use this computer’s own address unless the on-site server runs.',
        });
      })
      .catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 400 && err.fields?.length) setError(issueText(err.fields[0]?.issue));
        else setNotice({ tone: 'error', text: `Could not save the public URL: ${errorText(err)}` });
      })
      .finally(() => setBusy(false));
  };

  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!current) return;
    const parsed = UpdatePublicUrlRequest.safeParse({ public_url: shown });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setError(issue?.code === 'too_small' ? 'Enter an address, or use Clear to remove it.' : issue?.code === 'too_big' ? ISSUE_TEXT['too long'] : issueText(issue && 'params' in issue ? (issue.params as { issue?: string } | undefined)?.issue : undefined));
      return;
    }
    setError(undefined);
    send(parsed.data.public_url);
  };

  const unchanged = !current || shown.trim() === (current.public_url ?? '');
  return (
    <section className="panel settings-panel" aria-labelledby="public-url-heading" aria-busy={loaded.loading || busy} data-testid="settings-public-url">
      <div className="panel-header">
        <h2 id="public-url-heading">Public URL</h2>
      </div>
      <div className="settings-body">
        {loaded.error ? <Alert testId="public-url-error" title="Could not load the public URL.">{loaded.error}</Alert> : null}
        {notice ? <Alert tone={notice.tone} testId="public-url-notice">{notice.text}</Alert> : null}
        {current?.overridden ? (
          <Alert tone="info" testId="public-url-overridden" title="Overridden at start.">
            The service was started with <code>--public-url {current.start_url}</code>, which is used instead of the address saved here.
          </Alert>
        ) : null}
        <p className="muted">
          The address of a proxy or tunnel in front of this service, such as <code>https://verify.example.com</code>. Hosted sessions,
          published flows, their QR codes and the age gate’s script tag use it when the on-site server is not running. Without it they
          point to this computer’s own address, which a phone or a storefront cannot open.
        </p>
        {current ? (
          <ul className="settings-list" data-testid="public-url-reach">
            <Reach label="Hosted links and QR codes" link={current.hosted} testId="public-url-reach-hosted" />
            <Reach label="Age gate script tag" link={current.widget} testId="public-url-reach-widget" />
          </ul>
        ) : null}
        <form className="settings-row" onSubmit={save} noValidate>
          <Field
            id="public-url-input" label="Public URL" type="url" value={shown} error={error} testId="public-url-input"
            hint="Scheme, host and port only. Empty: this computer’s own address." placeholder="https://verify.example.com"
            disabled={!canChange || busy || !current} spellCheck={false} autoCapitalize="off" autoComplete="off"
            onChange={(ev) => {
              const value = ev.currentTarget.value;
              setDraft(value);
              setError(undefined);
            }}
          />
          {canChange ? (
            <span className="settings-actions">
              <button type="submit" className="btn" disabled={busy || unchanged || shown.trim() === ''} data-testid="public-url-save">
                Save URL
              </button>
              <button type="button" className="btn" disabled={busy || !current?.public_url} onClick={() => send(null)} data-testid="public-url-clear">
                Clear
              </button>
            </span>
          ) : null}
        </form>
        {canChange ? null : <p className="muted" data-testid="public-url-read-only">Only owners and admins change the public URL.</p>}
      </div>
    </section>
  );
}
