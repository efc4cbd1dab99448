// A network server of this service, started and stopped from the console: an HTTPS listener on one
// of this computer's addresses with a certificate made here (or the organisation's own), whose
// SHA-256 fingerprint a device or a colleague's console checks. Two use it, each with its words:
// the on-site server (hosted pages for phones on site) and the team server (the whole console for
// the team's other desks). Everyone signed in sees whether it runs; the roles `canManage` says
// start and stop it.
import './server-panel.css';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { ReactNode } from 'react';
import { OnsiteStartRequest, type OnsiteStatus } from '../../../src-shared/contracts/onsite';
import { ApiError, errorText } from '../api/client';
import { useResource } from '../api/use-resource';
import { Alert } from './Alert';
import { Badge } from './Badge';
import { CopyField } from './CopyField';
import { Fingerprint } from './Fingerprint';
import { formatDateTime } from './format';

type Interface = OnsiteStatus['interfaces'][number];
type Errors = { host?: string | undefined; port?: string | undefined };

/** Network addresses first (what a phone can reach), loopback last. */
function sortInterfaces(list: readonly Interface[]): Interface[] {
  return [...list].sort((a, b) => Number(a.internal) - Number(b.internal));
}

function interfaceLabel(i: Interface): string {
  return i.internal ? `${i.address} (this computer only)` : `${i.address} (${i.name})`;
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

/** What a server panel says and calls: its words, its API, and the prefix of its test ids. */
export interface ServerPanelConfig<S extends OnsiteStatus = OnsiteStatus> {
  /** Test ids and element ids start with it (`onsite`, `team-server`). */
  id: string;
  title: string;
  api: {
    status: (signal?: AbortSignal) => Promise<S>;
    start: (body: OnsiteStartRequest) => Promise<S>;
    stop: () => Promise<S>;
  };
  /** What it is, shown while it is off. */
  about: ReactNode;
  /** Who may start it, shown to the others. */
  whoManages: string;
  startedNotice: string;
  stoppedNotice: string;
  /** The hint under the address for a network address. */
  networkHint: string;
  /** After the expiry date while it runs. */
  whileRunning: string;
  /** Extra lines while it runs (the certificate's source). */
  runningExtra?: (status: S) => ReactNode;
  trustTitle: string;
  trust: ReactNode;
  stopHint: string;
  /** The port the form starts with. */
  defaultPort: string;
}

export function ServerPanel<S extends OnsiteStatus>({ canManage, config }: { canManage: boolean; config: ServerPanelConfig<S> }) {
  const p = config.id;
  const formId = useId();
  // (A panel's config is a module constant: its id stands for it.)
  const loaded = useResource((signal) => config.api.status(signal), [config.id]);
  /** The answer of the last start or stop, newer than what was loaded. */
  const [changed, setChanged] = useState<S | null>(null);
  const status = changed ?? loaded.data;
  const interfaces = useMemo(() => sortInterfaces(status?.interfaces ?? []), [status?.interfaces]);
  const [host, setHost] = useState('');
  const [port, setPort] = useState(config.defaultPort);
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
      const started = await config.api.start(checked.data);
      focusNext.current = 'stop';
      setChanged(started);
      setNotice(config.startedNotice);
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
      const stopped = await config.api.stop();
      focusNext.current = 'start';
      setChanged(stopped);
      setNotice(config.stoppedNotice);
    } catch (err) {
      setFormError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const running = status?.running === true;

  return (
    <section className="panel" aria-labelledby={`${p}-heading`} aria-busy={loaded.loading || busy} data-testid={`${p}-panel`}>
      <div className="panel-header">
        <h2 id={`${p}-heading`}>{config.title}</h2>
        <span data-testid={`${p}-state`} data-running={status ? String(running) : undefined}>
          {status ? running ? <Badge tone="positive">Running</Badge> : <Badge>Off</Badge> : loaded.loading ? <span className="muted">Loading…</span> : null}
        </span>
      </div>
      <div className="srv">
        {loaded.error && !status ? (
          <Alert testId={`${p}-load-error`} title="Could not read the on-site server’s state.">
            {loaded.error}{' '}
            <button type="button" className="link-button" onClick={loaded.reload}>
              Try again
            </button>
          </Alert>
        ) : null}
        {notice ? <Alert tone="success" testId={`${p}-notice`}>{notice}</Alert> : null}
        {formError ? <Alert testId={`${p}-error`}>{formError}</Alert> : null}

        {status && !running ? (
          <>
            <p className="srv-text">{config.about}</p>
            {canManage ? (
              <form className="srv-form" onSubmit={(e) => void start(e)} noValidate aria-label={`Start the ${config.title.toLowerCase()}`}>
                <div className={`field${errors.host ? ' field-invalid' : ''}`}>
                  <label htmlFor={`${formId}-host`}>Address</label>
                  <select
                    id={`${formId}-host`} value={chosen} disabled={interfaces.length === 0}
                    onChange={(e) => { setHost(e.currentTarget.value); setErrors((x) => ({ ...x, host: undefined })); }}
                    aria-invalid={errors.host ? true : undefined}
                    aria-describedby={`${formId}-host-hint${errors.host ? ` ${formId}-host-error` : ''}`}
                    data-testid={`${p}-host`}
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
                        : config.networkHint}
                  </div>
                  {errors.host ? <div id={`${formId}-host-error`} className="field-error" data-testid={`${p}-host-error`}>{errors.host}</div> : null}
                </div>
                <div className={`field srv-narrow${errors.port ? ' field-invalid' : ''}`}>
                  <label htmlFor={`${formId}-port`}>Port</label>
                  <input
                    id={`${formId}-port`} type="number" inputMode="numeric" min={0} max={65535} step={1} value={port}
                    onChange={(e) => { setPort(e.currentTarget.value); setErrors((x) => ({ ...x, port: undefined })); }}
                    aria-invalid={errors.port ? true : undefined}
                    aria-describedby={`${formId}-port-hint${errors.port ? ` ${formId}-port-error` : ''}`}
                    data-testid={`${p}-port`}
                  />
                  <div id={`${formId}-port-hint`} className="field-hint">0 picks any free port.</div>
                  {errors.port ? <div id={`${formId}-port-error`} className="field-error" data-testid={`${p}-port-error`}>{errors.port}</div> : null}
                </div>
                <button
                  ref={startRef} type="submit" className="btn btn-primary srv-submit" disabled={busy || interfaces.length === 0}
                  data-testid={`${p}-start`}
                >
                  {busy ? 'Starting…' : 'Start'}
                </button>
              </form>
            ) : (
              <p className="field-hint srv-text" data-testid={`${p}-read-only`}>It is off. {config.whoManages}</p>
            )}
          </>
        ) : null}

        {status && running ? (
          <>
            <div className="srv-running">
              <CopyField label="Address" value={status.url ?? ''} testId={`${p}-url`} />
              <div className="srv-fp">
                <span className="srv-label" id={`${formId}-fp-label`}>Certificate fingerprint (SHA-256)</span>
                <div className="srv-fp-row" role="group" aria-labelledby={`${formId}-fp-label`}>
                  <Fingerprint value={status.fingerprint ?? ''} id={`${formId}-fp`} testId={`${p}-fingerprint`} />
                  <CopyButton text={status.fingerprint ?? ''} what="Fingerprint" testId={`${p}-fingerprint-copy`} />
                </div>
              </div>
              <p className="srv-text">
                Certificate expires{' '}
                {status.certificate_expires_at ? (
                  <time dateTime={status.certificate_expires_at} data-testid={`${p}-expires`}>{formatDateTime(status.certificate_expires_at)}</time>
                ) : (
                  'at an unknown date'
                )}
                . {config.whileRunning}
              </p>
              {config.runningExtra?.(status)}
            </div>
            <Alert tone="info" title={config.trustTitle} testId={`${p}-trust`}>
              {config.trust}
            </Alert>
            {canManage ? (
              <div className="srv-actions">
                <button ref={stopRef} type="button" className="btn" onClick={() => void stop()} disabled={busy} data-testid={`${p}-stop`}>
                  {busy ? 'Stopping…' : 'Stop'}
                </button>
                <span className="field-hint">{config.stopHint}</span>
              </div>
            ) : (
              <p className="field-hint srv-text" data-testid={`${p}-read-only`}>{config.whoManages}</p>
            )}
          </>
        ) : null}
      </div>
    </section>
  );
}
