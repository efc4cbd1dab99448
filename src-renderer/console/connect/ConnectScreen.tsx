// "Run on this computer" or "Connect to my team's server" (issue 39). A team server is looked at
// first (the shell connects to it and reads its certificate); the person compares the fingerprint
// with the one their administrator sees under Settings → Team server, and only then connects. A
// server whose certificate changed since it was pinned is refused until the new fingerprint is
// typed as an administrator reads it out. Every decision is the shell's (connection.ts); this page
// shows what the shell saw and says.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ConnectBridge, ConnectState, ProbeResult } from '../../../src-shared/contracts/shell';
import { Alert } from '../components/Alert';
import { Field } from '../components/Field';
import { Fingerprint } from '../components/Fingerprint';
import { formatDate } from '../components/format';

declare global {
  interface Window {
    connect?: ConnectBridge;
  }
}

type Seen = Extract<ProbeResult, { ok: true }>;

function Brand() {
  return (
    <div className="brand brand-large">
      <span className="brand-mark" aria-hidden="true">CC</span>
      <span className="brand-name">Compliance Console</span>
    </div>
  );
}

export function ConnectScreen({ bridge }: { bridge: ConnectBridge | undefined }) {
  const [state, setState] = useState<ConnectState | null>(null);
  const [choice, setChoice] = useState<'local' | 'team' | null>(null);
  const [url, setUrl] = useState('');
  const [seen, setSeen] = useState<Seen | null>(null);
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'look' | 'connect' | 'local' | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const urlId = useId();

  useEffect(() => {
    if (!bridge) return;
    void bridge.state().then((s) => {
      setState(s);
      const team = s.current?.mode === 'team' ? s.current.serverUrl : (s.refusal?.server?.serverUrl ?? '');
      if (team !== '') {
        setChoice('team');
        setUrl(team);
      }
      if (s.refusal?.server) setSeen({ ok: true, ...s.refusal.server });
    });
  }, [bridge]);

  // A new step (the server looked at, or back) takes focus to its heading; the first render does not.
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [seen]);

  if (!bridge) {
    return (
      <div className="auth-page" data-testid="connect">
        <main className="auth-card">
          <Brand />
          <h1>Run here or connect</h1>
          <p className="auth-intro">This page belongs to the Compliance Console desktop app. Open the app to choose where it runs.</p>
        </main>
      </div>
    );
  }

  const look = async (e?: FormEvent<HTMLFormElement>) => {
    e?.preventDefault();
    setBusy('look');
    setError(null);
    setSeen(null);
    setConfirmation('');
    try {
      const r = await bridge.probe(url);
      if (r.ok) {
        setSeen(r);
        setUrl(r.serverUrl);
      } else setError(r.message);
    } finally {
      setBusy(null);
    }
  };

  const connect = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!seen) return;
    setBusy('connect');
    setError(null);
    try {
      const r = await bridge.connect({ serverUrl: seen.serverUrl, fingerprint: seen.fingerprint, ...(seen.pin === 'changed' ? { confirmation } : {}) });
      // On success the shell replaces this window with the team server's sign-in.
      if (!r.ok) setError(r.message);
    } finally {
      setBusy(null);
    }
  };

  const runLocally = async () => {
    setBusy('local');
    try {
      await bridge.runLocally();
    } finally {
      setBusy(null);
    }
  };

  const refusal = state?.refusal ?? null;
  const current = state?.current ?? null;

  return (
    <div className="auth-page" data-testid="connect">
      <main className="auth-card connect-card" aria-busy={busy !== null}>
        <Brand />
        <h1 ref={headingRef} tabIndex={-1}>
          {seen ? (seen.pin === 'changed' ? "The team server's certificate has changed" : 'Check the team server') : 'Where does Compliance Console run?'}
        </h1>
        {refusal && !seen ? (
          <Alert tone="warning" title="Not connected to the team server" testId="connect-refusal">
            {refusal.message}
          </Alert>
        ) : null}

        {!seen ? (
          <>
            <p className="auth-intro">
              {current?.mode === 'local'
                ? 'This computer runs its own Compliance Console. You can keep it, or connect to your team’s server instead.'
                : 'Choose once; you can change it later from Settings.'}
            </p>
            <div className="connect-choices" role="radiogroup" aria-label="Where Compliance Console runs">
              <button
                type="button" role="radio" aria-checked={choice === 'local'} className={`member-choice-item${choice === 'local' ? ' member-choice-selected' : ''}`}
                onClick={() => setChoice('local')} data-testid="connect-choose-local"
              >
                <strong>Run on this computer</strong>
                <span className="muted">This computer keeps the organisation: its ledger, audit log, settings and credits. For one person, or for the computer that serves the team.</span>
              </button>
              <button
                type="button" role="radio" aria-checked={choice === 'team'} className={`member-choice-item${choice === 'team' ? ' member-choice-selected' : ''}`}
                onClick={() => setChoice('team')} data-testid="connect-choose-team"
              >
                <strong>Connect to my team’s server</strong>
                <span className="muted">Your administrator runs Compliance Console for the team. This computer keeps only the server’s address and its certificate fingerprint.</span>
              </button>
            </div>
            {choice === 'local' ? (
              <button type="button" className="btn btn-primary btn-block" onClick={() => void runLocally()} disabled={busy !== null} data-testid="connect-run-local">
                {busy === 'local' ? 'Starting…' : 'Run on this computer'}
              </button>
            ) : null}
            {choice === 'team' ? (
              <form className="form" onSubmit={(e) => void look(e)} noValidate>
                <Field
                  id={urlId} label="Team server address" value={url} onChange={(e) => setUrl(e.currentTarget.value)} required
                  placeholder="https://10.0.0.5:4443" autoComplete="url" spellCheck={false} inputMode="url" testId="connect-url"
                  hint="As your administrator sees it under Settings → Team server."
                  error={error ?? undefined}
                />
                <button type="submit" className="btn btn-primary btn-block" disabled={busy !== null || url.trim() === ''} data-testid="connect-look">
                  {busy === 'look' ? 'Looking at the server…' : refusal ? 'Try again' : 'Look at the server'}
                </button>
              </form>
            ) : null}
          </>
        ) : (
          <form className="form" onSubmit={(e) => void connect(e)} noValidate>
            <dl className="connect-facts">
              <dt>Server</dt>
              <dd className="mono" data-testid="connect-server">{seen.serverUrl}</dd>
              <dt>Certificate</dt>
              <dd>{seen.subject}, valid until {formatDate(seen.validTo)}</dd>
              <dt>Version</dt>
              <dd>{seen.version}</dd>
            </dl>
            {seen.pin === 'changed' ? (
              <>
                <Alert tone="warning" testId="connect-changed">
                  It may be a new certificate, or someone in between. Do not connect until an administrator has read you the new fingerprint from
                  Settings → Team server and it matches the one below.
                </Alert>
                <div className="connect-fp">
                  <span className="srv-label">Pinned on this computer</span>
                  <Fingerprint value={seen.pinnedFingerprint ?? ''} id={`${urlId}-pinned`} testId="connect-pinned-fingerprint" />
                </div>
                <div className="connect-fp">
                  <span className="srv-label">Presented now</span>
                  <Fingerprint value={seen.fingerprint} id={`${urlId}-fp`} testId="connect-fingerprint" />
                </div>
                <Field
                  label="New fingerprint, as your administrator reads it" value={confirmation} onChange={(e) => setConfirmation(e.currentTarget.value)}
                  className="connect-mono" autoComplete="off" spellCheck={false} testId="connect-confirmation" error={error ?? undefined}
                  hint="64 hexadecimal characters; colons and spaces may be left out."
                />
              </>
            ) : (
              <>
                <div className="connect-fp">
                  <span className="srv-label">Certificate fingerprint (SHA-256)</span>
                  <Fingerprint value={seen.fingerprint} id={`${urlId}-fp`} testId="connect-fingerprint" />
                </div>
                <p className="muted connect-note" data-testid="connect-pin-note">
                  {seen.pin === 'same'
                    ? 'This is the certificate this computer already trusts for this server.'
                    : 'Compare it with the fingerprint your administrator sees under Settings → Team server. Connect only if every group matches: this computer will then trust exactly this certificate.'}
                </p>
                {error ? <Alert testId="connect-error">{error}</Alert> : null}
              </>
            )}
            <div className="connect-actions">
              <button type="button" className="btn" onClick={() => { setSeen(null); setError(null); }} disabled={busy !== null} data-testid="connect-back">
                Back
              </button>
              <button type="submit" className="btn btn-primary" disabled={busy !== null || (seen.pin === 'changed' && confirmation.trim() === '')} data-testid="connect-submit">
                {busy === 'connect' ? 'Connecting…' : seen.pin === 'changed' ? 'Confirm and connect' : seen.pin === 'same' ? 'Connect' : 'Trust and connect'}
              </button>
            </div>
          </form>
        )}
      </main>
      <p className="auth-footer">Nothing of the organisation is kept on a computer that connects to a team server.</p>
    </div>
  );
}
