// Settings → Webhook receivers on your network (issue 39): webhooks are never delivered to
// loopback, link-local, private or this computer's own addresses, unless the owner names the host
// here (an on-premises receiver, or one on this computer while developing). Everyone sees the list;
// the owner changes it. The rule for a host is the shared contract's.
import { useState, type FormEvent } from 'react';
import { WEBHOOK_PRIVATE_HOSTS_MAX, WebhookPrivateHost, type WebhookPrivateHosts } from '../../../../src-shared/contracts/webhooks';
import { api, ApiError, errorText } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { Field } from '../../components/Field';

const hostsOf = (text: string): string[] => text.split(/[\s,]+/).map((h) => h.trim().toLowerCase()).filter(Boolean);

export function PrivateHostsSection({ canChange }: { canChange: boolean }) {
  const loaded = useResource((signal) => api.webhookPrivateHosts(signal), []);
  const [saved, setSaved] = useState<WebhookPrivateHosts | null>(null);
  const current = saved ?? loaded.data ?? null;
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const shownText = draft ?? (current ? current.hosts.join(', ') : '');

  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!current) return;
    const hosts = [...new Set(hostsOf(shownText))];
    const bad = hosts.find((h) => !WebhookPrivateHost.safeParse(h).success);
    if (bad !== undefined) return setError(`“${bad}” is not a host name or an IP address: leave out the scheme, port and path.`);
    if (hosts.length > WEBHOOK_PRIVATE_HOSTS_MAX) return setError(`At most ${WEBHOOK_PRIVATE_HOSTS_MAX} hosts.`);
    setError(undefined);
    setBusy(true);
    setNotice(null);
    void api.setWebhookPrivateHosts({ hosts })
      .then((next) => {
        setSaved(next);
        setDraft(null);
        setNotice({
          tone: 'success',
          text: next.hosts.length ? `Saved. Webhooks may now reach ${next.hosts.join(', ')}.` : 'Saved. Webhooks reach receivers on the internet only.',
        });
      })
      .catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 400) setError('One of these is not a host name or an IP address.');
        else setNotice({ tone: 'error', text: `Could not save the hosts: ${errorText(err)}` });
      })
      .finally(() => setBusy(false));
  };

  const unchanged = !current || hostsOf(shownText).join(',') === current.hosts.join(',');
  return (
    <section className="panel settings-panel" aria-labelledby="private-hosts-heading" aria-busy={loaded.loading || busy} data-testid="settings-private-hosts">
      <div className="panel-header">
        <h2 id="private-hosts-heading">Webhook receivers on your network</h2>
      </div>
      <div className="settings-body">
        {loaded.error ? <Alert testId="private-hosts-error" title="Could not load the hosts.">{loaded.error}</Alert> : null}
        {notice ? <Alert tone={notice.tone} testId="private-hosts-notice">{notice.text}</Alert> : null}
        <p className="muted">
          Webhooks are delivered to receivers on the internet. Addresses on a private network, link-local addresses, this computer
          (<code>localhost</code>, <code>127.0.0.1</code>) and its own network addresses are refused, so that nobody who can add an
          endpoint can use the delivery log to probe your network. To use a receiver inside your network, name its host here.
        </p>
        <form className="settings-row" onSubmit={save} noValidate>
          <Field
            id="private-hosts-input" label="Hosts webhooks may reach" value={shownText} error={error} testId="private-hosts-input"
            hint={`Host names or IP addresses, separated by commas; at most ${WEBHOOK_PRIVATE_HOSTS_MAX}. Empty: none.`}
            placeholder="receiver.corp.lan, 10.0.0.5" disabled={!canChange || busy || !current} spellCheck={false} autoCapitalize="off"
            onChange={(ev) => {
              setDraft(ev.currentTarget.value);
              setError(undefined);
            }}
          />
          {canChange ? (
            <button type="submit" className="btn" disabled={busy || unchanged} data-testid="private-hosts-save">
              Save hosts
            </button>
          ) : null}
        </form>
        {canChange ? null : <p className="muted" data-testid="private-hosts-read-only">Only the owner names the hosts webhooks may reach.</p>}
      </div>
    </section>
  );
}
