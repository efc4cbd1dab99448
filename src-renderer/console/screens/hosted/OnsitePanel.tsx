// The on-site server: an optional HTTPS listener on one of this computer's addresses that serves
// only the hosted verification page, so a phone or tablet on the same network can open a
// session's QR code. Everyone signed in sees whether it runs; owners and admins start and stop it.
// While it runs, sessions made in the console carry its address.
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { OnsiteStartRequest, type OnsiteStatus } from '../../../../src-shared/contracts/onsite';
import { ApiError, errorText } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { Badge } from '../../components/Badge';
import { CopyField } from '../../components/CopyField';
import { formatDateTime } from '../../components/format';
import { onsiteApi } from './hosted-api';

type Interface = OnsiteStatus['interfaces'][number];
type Errors = { host?: string | undefined; port?: string | undefined };

/** Network addresses first (what a phone can reach), loopback last. */
function sortInterfaces(list: readonly Interface[]): Interface[] {
  return [...list].sort((a, b) => Number(a.internal) - Number(b.internal));
}

function interfaceLabel(i: Interface): string {
  return i.internal ? `${i.address} (this computer only)` : `${i.address} (${i.name})`;
}

/** The fingerprint in groups of eight bytes that never break inside, so it wraps between groups. */
function Fingerprint({ value, id }: { value: string; id: string }) {
  const bytes = value.split(':');
  const groups: string[] = [];
  for (let i = 0; i < bytes.length; i += 8) groups.push(bytes.slice(i, i + 8).join(':'));
  return (
    <code id={id} className="mono hs-fingerprint" data-testid="onsite-fingerprint">
      {groups.map((g, i) => (
        <span key={i} className="hs-fp-group">
          {g}
          {i < groups.length - 1 ? ':' : ''}
          {i < groups.length - 1 ? <wbr /> : null}
        </span>
      ))}
    </code>
  );
}

/** Copies text to the clipboard, saying so to screen readers. */
export function CopyButton({ text, what, testId }: { text: string; what: string; testId: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(t);
  }, [state]);
  return (
    <>
      <button
        type="button" className="btn" data-testid={testId}
        onClick={() => {
          navigator.clipboard.writeText(text).then(() => setState('copied'), () => setState('failed'));
        }}
      >
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy' : 'Copy'}
      </button>
      <span className="visually-hidden" aria-live="polite">
        {state === 'copied' ? `${what} copied to the clipboard` : state === 'failed' ? `Could not copy the ${what.toLowerCase()}` : ''}
      </span>
    </>
  );
}

export function OnsitePanel({ canManage }: { canManage: boolean }) {
  const formId = useId();
  const loaded = useResource((signal) => onsiteApi.status(signal), []);
  /** The answer of the last start or stop, newer than what was loaded. */
  const [changed, setChanged] = useState<OnsiteStatus | null>(null);
  const status = changed ?? loaded.data;
  const interfaces = useMemo(() => sortInterfaces(status?.interfaces ?? []), [status?.interfaces]);
  const [host, setHost] = useState('');
  const [port, setPort] = useState('8443');
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const focusNext = useRef<'start' | 'stop' | null>(null);
  const startRef = useRef<HTMLButtonElement>(null);
  const stopRef = useRef<HTMLButtonElement>(null);

  // The chosen address stays while it is still offered; otherwise the first one a phone can reach.
  const chosen = interfaces.some((i) => i.address === host) ? host : (interfaces[0]?.address ?? '');

  // After start or stop the pressed button is gone: focus goes to the one that replaces it.
  useEffect(() => {
    const next = focusNext.current;
    if (!next) return;
    focusNext.current = null;
    (next === 'stop' ? stopRef : startRef).current?.focus();
  }, [status?.running]);

  const start = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setFormError(null);
    setNotice(null);
    const body = { host: chosen, port: port.trim() === '' ? Number.NaN : Number(port) };
    const checked = OnsiteStartRequest.safeParse(body);
    if (!checked.success) {
      const next: Errors = {};
      for (const issue of checked.error.issues) {
        if (issue.path[0] === 'host') next.host = 'Choose an address.';
        if (issue.path[0] === 'port') next.port = 'Enter a whole number from 0 to 65535.';
      }
      setErrors(next);
      requestAnimationFrame(() => document.getElementById(`${formId}-${next.host ? 'host' : 'port'}`)?.focus());
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const started = await onsiteApi.start(checked.data);
      focusNext.current = 'stop';
      setChanged(started);
      setNotice('Started. Phones and tablets on this network can open the QR codes of sessions you make now.');
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && err.fields?.some((f) => f.field === 'host')) {
        setErrors({ host: 'That address is no longer one of this computer’s. Choose another.' });
        loaded.reload();
        setChanged(null);
        requestAnimationFrame(() => document.getElementById(`${formId}-host`)?.focus());
      } else if (err instanceof ApiError && err.status === 409) {
        setErrors({ port: err.message });
        requestAnimationFrame(() => document.getElementById(`${formId}-port`)?.focus());
      } else {
        setFormError(errorText(err));
      }
    } finally {
      setBusy(false);
    }
  };

  const stop = async () => {
    setFormError(null);
    setNotice(null);
    setBusy(true);
    try {
      const stopped = await onsiteApi.stop();
      focusNext.current = 'start';
      setChanged(stopped);
      setNotice('Stopped. New sessions use this computer’s own address again; links made while it ran no longer open.');
    } catch (err) {
      setFormError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const running = status?.running === true;

  return (
    <section className="panel" aria-labelledby="onsite-heading" aria-busy={loaded.loading || busy} data-testid="onsite-panel">
      <div className="panel-header">
        <h2 id="onsite-heading">On-site server</h2>
        <span data-testid="onsite-state" data-running={status ? String(running) : undefined}>
          {status ? running ? <Badge tone="positive">Running</Badge> : <Badge>Off</Badge> : loaded.loading ? <span className="muted">Loading…</span> : null}
        </span>
      </div>
      <div className="hs-onsite">
        {loaded.error && !status ? (
          <Alert testId="onsite-load-error" title="Could not read the on-site server’s state.">
            {loaded.error}{' '}
            <button type="button" className="link-button" onClick={loaded.reload}>
              Try again
            </button>
          </Alert>
        ) : null}
        {notice ? <Alert tone="success" testId="onsite-notice">{notice}</Alert> : null}
        {formError ? <Alert testId="onsite-error">{formError}</Alert> : null}

        {status && !running ? (
          <>
            <p className="hs-onsite-text">
              Lets phones and tablets on this network open the sessions’ QR codes. It uses HTTPS with a certificate made on this
              computer, and only the verification page is reachable from the network: not the console, not the API.
            </p>
            {canManage ? (
              <form className="hs-onsite-form" onSubmit={(e) => void start(e)} noValidate aria-label="Start the on-site server">
                <div className={`field${errors.host ? ' field-invalid' : ''}`}>
                  <label htmlFor={`${formId}-host`}>Address</label>
                  <select
                    id={`${formId}-host`} value={chosen} disabled={interfaces.length === 0}
                    onChange={(e) => { setHost(e.currentTarget.value); setErrors((x) => ({ ...x, host: undefined })); }}
                    aria-invalid={errors.host ? true : undefined}
                    aria-describedby={`${formId}-host-hint${errors.host ? ` ${formId}-host-error` : ''}`}
                    data-testid="onsite-host"
                  >
                    {interfaces.map((i) => (
                      <option key={`${i.name}-${i.address}`} value={i.address}>{interfaceLabel(i)}</option>
                    ))}
                  </select>
                  <div id={`${formId}-host-hint`} className="field-hint">
                    {interfaces.length === 0
                      ? 'This computer has no network address to offer.'
                      : interfaces.find((i) => i.address === chosen)?.internal
                        ? 'Only this computer can open it there: for trying it out.'
                        : 'The network the phones are on.'}
                  </div>
                  {errors.host ? <div id={`${formId}-host-error`} className="field-error" data-testid="onsite-host-error">{errors.host}</div> : null}
                </div>
                <div className={`field hs-narrow${errors.port ? ' field-invalid' : ''}`}>
                  <label htmlFor={`${formId}-port`}>Port</label>
                  <input
                    id={`${formId}-port`} type="number" inputMode="numeric" min={0} max={65535} step={1} value={port}
                    onChange={(e) => { setPort(e.currentTarget.value); setErrors((x) => ({ ...x, port: undefined })); }}
                    aria-invalid={errors.port ? true : undefined}
                    aria-describedby={`${formId}-port-hint${errors.port ? ` ${formId}-port-error` : ''}`}
                    data-testid="onsite-port"
                  />
                  <div id={`${formId}-port-hint`} className="field-hint">0 picks any free port.</div>
                  {errors.port ? <div id={`${formId}-port-error`} className="field-error" data-testid="onsite-port-error">{errors.port}</div> : null}
                </div>
                <button
                  ref={startRef} type="submit" className="btn btn-primary hs-onsite-submit" disabled={busy || interfaces.length === 0}
                  data-testid="onsite-start"
                >
                  {busy ? 'Starting…' : 'Start'}
                </button>
              </form>
            ) : (
              <p className="field-hint hs-onsite-text" data-testid="onsite-read-only">It is off. Owners and admins start and stop it.</p>
            )}
          </>
        ) : null}

        {status && running ? (
          <>
            <div className="hs-onsite-running">
              <CopyField label="Address" value={status.url ?? ''} testId="onsite-url" />
              <div className="hs-onsite-fp">
                <span className="hs-onsite-label" id={`${formId}-fp-label`}>Certificate fingerprint (SHA-256)</span>
                <div className="hs-onsite-fp-row" role="group" aria-labelledby={`${formId}-fp-label`}>
                  <Fingerprint value={status.fingerprint ?? ''} id={`${formId}-fp`} />
                  <CopyButton text={status.fingerprint ?? ''} what="Fingerprint" testId="onsite-fingerprint-copy" />
                </div>
              </div>
              <p className="hs-onsite-text">
                Certificate expires{' '}
                {status.certificate_expires_at ? (
                  <time dateTime={status.certificate_expires_at} data-testid="onsite-expires">{formatDateTime(status.certificate_expires_at)}</time>
                ) : (
                  'at an unknown date'
                )}
                . New sessions use this address.
              </p>
            </div>
            <Alert tone="info" title="The first time, the phone warns about the certificate." testId="onsite-trust">
              It was made on this computer, so no public authority vouches for it. Open the certificate’s details in the phone’s
              browser and compare its SHA-256 fingerprint with the one above; accept it only if they match.
            </Alert>
            {canManage ? (
              <div className="hs-onsite-actions">
                <button ref={stopRef} type="button" className="btn" onClick={() => void stop()} disabled={busy} data-testid="onsite-stop">
                  {busy ? 'Stopping…' : 'Stop'}
                </button>
                <span className="field-hint">Phones can no longer open links until it runs again.</span>
              </div>
            ) : (
              <p className="field-hint hs-onsite-text" data-testid="onsite-read-only">Owners and admins start and stop it.</p>
            )}
          </>
        ) : null}
      </div>
    </section>
  );
}
