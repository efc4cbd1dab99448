// The hosted verification page: reads its token from the path (or, on a published flow's stable
// URL, asks for a fresh session and moves to its token's path), asks the service what to show,
// walks the person through the product's steps, completes the session and shows the outcome
// (then follows the redirect the service chose, if any). Subject data lives in this component's
// state only, and is dropped once the session is completed.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { HostedCompleteRequest, HostedCompleteResponse, HostedPage } from '../../src-shared/contracts/hosted';
import { localToday } from '../../src-shared/dates';
import { completeSession, flowSlugFromPath, HostedError, loadSession, startFlow, tokenFromPath, type FieldIssue } from './api';
import type { Photo } from './images';
import { PhotoStep, type PhotoKind } from './photo-step';
import { t } from './strings';

type Step = 'dob' | PhotoKind;
type Phase =
  | { kind: 'loading' }
  | { kind: 'closed'; notFound: boolean; message: string; flowClosed?: boolean }
  | { kind: 'fault'; message: string }
  | { kind: 'steps' }
  | { kind: 'checking' }
  | { kind: 'result'; result: HostedCompleteResponse };

interface StepError {
  message: string;
  fields: FieldIssue[];
}

/** The service asked for another attempt (issue 26: any product): why, the step to take again, how many are left. */
interface Retry {
  /** The challenge's rule missed (liveness), else null. */
  failed: string | null;
  /** The failure code. */
  reason: string | null;
  step: Step;
  attemptsLeft: number;
}

/** Failure codes about the document: that picture is taken again; every other code is about the selfie. */
const DOCUMENT_REASONS = new Set(['document_unreadable', 'no_face_on_document', 'document_expired', 'document_inconsistent', 'document_needs_review']);

/** What to tell the person about a failure: the challenge's rule, else the failure code, in words. */
function whyOf(failed: string | null | undefined, reason: string | null | undefined): string | null {
  return (failed ? t.challengeWhy[failed] : undefined) ?? (reason ? t.failureWhy[reason] : undefined) ?? null;
}

const REDIRECT_DELAY_MS = 1500;
const FIELD_STEP: Record<string, Step> = { date_of_birth: 'dob', selfie_b64: 'selfie', id_front_b64: 'id_front', id_back_b64: 'id_back' };

function stepsFor(page: HostedPage, idMode: boolean, idOnLoad: boolean): Step[] {
  switch (page.product) {
    case 'human':
      return ['selfie'];
    case 'age':
      if (idOnLoad) return ['selfie', 'id_front'];
      return idMode ? ['dob', 'selfie', 'id_front'] : ['dob', 'selfie'];
    default:
      return ['selfie', 'id_front', 'id_back'];
  }
}

/** Field codes in the service's words replaced by the names the person saw. */
function plain(message: string): string {
  return Object.entries(t.fields).reduce((m, [code, label]) => m.split(code).join(label), message);
}

/** A redirect the page may follow: never a script or data URL, whatever the service said. */
function safeRedirect(url: string | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return ['javascript:', 'data:', 'vbscript:', 'file:', 'blob:'].includes(u.protocol) ? null : u.href;
  } catch {
    return null;
  }
}

export function App() {
  const [token, setToken] = useState(() => tokenFromPath(window.location.pathname));
  const [flowSlug] = useState(() => flowSlugFromPath(window.location.pathname));
  const [page, setPage] = useState<HostedPage | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [status, setStatus] = useState<string>(t.loading);
  const [stepIndex, setStepIndex] = useState(0);
  const [idMode, setIdMode] = useState(false);
  const [idOnLoad, setIdOnLoad] = useState(false);
  const [dob, setDob] = useState('');
  const [photos, setPhotos] = useState<Partial<Record<PhotoKind, Photo>>>({});
  const [stepError, setStepError] = useState<StepError | null>(null);
  const [dobProblem, setDobProblem] = useState<string | null>(null);
  const [retry, setRetry] = useState<Retry | null>(null);
  const [retryCount, setRetryCount] = useState(0);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const closed = useCallback((e: HostedError) => {
    setPhotos({});
    setPhase({ kind: 'closed', notFound: e.kind === 'not_found', message: e.message });
    setStatus(e.kind === 'not_found' ? t.notFoundTitle : t.closedTitle);
  }, []);

  // A published flow: one fresh session per visit. The address becomes the session's own, so a
  // reload continues this session instead of starting another.
  const flowStarted = useRef(false);
  useEffect(() => {
    // Once per visit, also where effects run twice (React's StrictMode in development).
    if (token || !flowSlug || flowStarted.current) return;
    flowStarted.current = true;
    startFlow(flowSlug).then(
      (s) => {
        window.history.replaceState(null, '', `/hosted/v/${encodeURIComponent(s.token)}`);
        setToken(s.token);
      },
      (e: unknown) => {
        if (e instanceof HostedError && e.kind === 'closed') {
          setPhase({ kind: 'closed', notFound: false, message: '', flowClosed: true });
          setStatus(t.flowClosedTitle);
        } else if (e instanceof HostedError && e.kind === 'not_found') {
          closed(e);
        } else {
          setPhase({ kind: 'fault', message: e instanceof HostedError && e.kind === 'network' ? t.networkError : t.unexpected });
        }
      },
    );
  }, [token, flowSlug, closed]);

  useEffect(() => {
    if (!token) {
      if (flowSlug) return;
      setPhase({ kind: 'closed', notFound: true, message: '' });
      setStatus(t.notFoundTitle);
      return;
    }
    loadSession(token).then(
      (p) => {
        setPage(p);
        document.title = p.page_title ?? t.defaultTitle[p.product];
        if (p.state !== 'created' && p.state !== 'opened') {
          setPhase({ kind: 'closed', notFound: false, message: t.closedBecause[p.state] ?? '' });
          setStatus(t.closedTitle);
          return;
        }
        setIdOnLoad(p.needs_id);
        setPhase({ kind: 'steps' });
        setStatus('');
      },
      (e: unknown) => {
        if (e instanceof HostedError && (e.kind === 'not_found' || e.kind === 'closed')) return closed(e);
        setPhase({ kind: 'fault', message: e instanceof HostedError && e.kind === 'network' ? t.networkError : t.unexpected });
      },
    );
  }, [token, flowSlug, closed]);

  // A new step, a result or a closed page: its heading takes the focus, so a screen reader starts there.
  useEffect(() => {
    if (phase.kind !== 'loading') headingRef.current?.focus();
  }, [phase.kind, stepIndex]);

  const result = phase.kind === 'result' ? phase.result : null;
  const redirect = safeRedirect(result?.redirect_url ?? null);
  useEffect(() => {
    if (!redirect) return;
    const timer = window.setTimeout(() => window.location.assign(redirect), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [redirect]);

  if (!page || !token) {
    return (
      <Shell page={page} status={status}>
        {phase.kind === 'closed' ? <Closed notFound={phase.notFound} flowClosed={phase.flowClosed ?? false} headingRef={headingRef} message={phase.message} /> : null}
        {phase.kind === 'fault' ? <Fault headingRef={headingRef} message={phase.message} /> : null}
        {phase.kind === 'loading' ? <p className="loading" aria-busy="true">{t.loading}</p> : null}
      </Shell>
    );
  }

  const steps = stepsFor(page, idMode, idOnLoad);
  const step = steps[Math.min(stepIndex, steps.length - 1)]!;
  const last = stepIndex >= steps.length - 1;
  const progress = t.stepOf(stepIndex + 1, steps.length);

  const submit = async () => {
    const body: HostedCompleteRequest = {};
    if (photos.selfie) body.selfie_b64 = photos.selfie.b64;
    if (steps.includes('id_front') && photos.id_front) body.id_front_b64 = photos.id_front.b64;
    if (steps.includes('id_back') && photos.id_back) body.id_back_b64 = photos.id_back.b64;
    if (steps.includes('dob') && !(idMode && page.product === 'age')) body.date_of_birth = dob;
    setStepError(null);
    setPhase({ kind: 'checking' });
    setStatus(t.checking);
    try {
      const r = await completeSession(token, body);
      if (r.status === 'retry') {
        // The session stays open: back to the picture to take again, with why in words and the attempts left.
        const failed = r.challenge?.failed ?? null;
        const why = whyOf(failed, r.reason) ?? r.message;
        const left = r.attempts_left;
        const target: Step = r.reason && DOCUMENT_REASONS.has(r.reason) && steps.includes('id_front') ? 'id_front' : 'selfie';
        setPhotos((all) => ({ ...all, [target]: undefined }));
        setRetry({ failed, reason: r.reason, step: target, attemptsLeft: left });
        setRetryCount((n) => n + 1);
        setStepIndex(steps.indexOf(target));
        setPhase({ kind: 'steps' });
        setStatus(failed ? `${t.challengeRetryTitle}. ${why} ${t.attemptsLeft(left)}` : `${t.retryTitle}. ${why} ${t.triesLeft(left)}`);
        return;
      }
      setRetry(null);
      if (r.status === 'id_required') {
        setIdMode(true);
        setStepIndex(stepsFor(page, true, idOnLoad).indexOf('id_front'));
        setStepError(null);
        setPhase({ kind: 'steps' });
        setStatus(t.idRequiredNote);
        return;
      }
      setPhotos({});
      setDob('');
      setPhase({ kind: 'result', result: r });
      setStatus(`${r.status === 'passed' ? t.passedTitle : t.failedTitle}. ${r.message}`);
    } catch (e) {
      if (e instanceof HostedError && (e.kind === 'not_found' || e.kind === 'closed')) return closed(e);
      const err = e instanceof HostedError ? e : new HostedError('unexpected', '');
      const message = err.kind === 'network' ? t.networkError : err.message ? plain(err.message) : t.unexpected;
      setStepError({ message, fields: err.fields });
      const target = err.fields.map((f) => FIELD_STEP[f.field]).find((s): s is Step => !!s && steps.includes(s));
      if (target) setStepIndex(steps.indexOf(target));
      setPhase({ kind: 'steps' });
      setStatus(message);
    }
  };

  const forward = () => {
    if (last) void submit();
    else {
      setStepIndex(stepIndex + 1);
      setStatus('');
    }
  };
  const back = stepIndex > 0 && !(idMode && step === 'id_front') ? () => setStepIndex(stepIndex - 1) : undefined;

  let body;
  if (phase.kind === 'closed') body = <Closed notFound={phase.notFound} flowClosed={phase.flowClosed ?? false} headingRef={headingRef} message={phase.message} />;
  else if (phase.kind === 'fault') body = <Fault headingRef={headingRef} message={phase.message} />;
  else if (phase.kind === 'checking') {
    body = (
      <section className="step checking" aria-busy="true" data-testid="checking">
        <div className="spinner" aria-hidden="true" />
        <h2 ref={headingRef} tabIndex={-1}>{t.checking}</h2>
        <p className="hint">{t.checkingHint}</p>
      </section>
    );
  } else if (phase.kind === 'result') {
    const r = phase.result;
    const passed = r.status === 'passed';
    body = (
      <section className={`step result ${passed ? 'passed' : 'failed'}`} data-testid="result" data-status={r.status}>
        <div className="result-mark" aria-hidden="true">{passed ? '✓' : '✕'}</div>
        <h2 ref={headingRef} tabIndex={-1}>{passed ? t.passedTitle : t.failedTitle}</h2>
        <p className="message" data-testid="result-message">{r.message}</p>
        {!passed && whyOf(r.challenge?.failed, r.reason) && (
          <p className="hint" data-testid="result-why" data-reason={r.reason ?? ''}>{whyOf(r.challenge?.failed, r.reason)}</p>
        )}
        {redirect ? (
          <p>
            {t.redirecting} <a href={redirect} data-testid="continue-link">{t.continueNow}</a>
          </p>
        ) : (
          <p className="hint">{t.closeHint}</p>
        )}
      </section>
    );
  } else {
    const notice = (
      <>
        {idMode && step === 'id_front' && <p className="note" data-testid="id-required">{t.idRequiredNote}</p>}
        {retry && step === retry.step && (
          <div className="problem" role="alert" data-testid={retry.failed ? 'challenge-retry' : 'retry'} data-rule={retry.failed ?? ''} data-reason={retry.reason ?? ''}>
            <p><strong>{retry.failed ? t.challengeRetryTitle : t.retryTitle}</strong></p>
            <p data-testid="retry-why">{whyOf(retry.failed, retry.reason) ?? t.fixAndRetry}</p>
            <p data-testid="retry-left">{retry.failed ? t.attemptsLeft(retry.attemptsLeft) : t.triesLeft(retry.attemptsLeft)}</p>
          </div>
        )}
        {stepError && <ErrorBox error={stepError} />}
      </>
    );
    if (step === 'dob') {
      body = (
        <form
          className="step"
          data-testid="step-dob"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const problem = !dob ? t.dobMissing : dob > localToday() ? t.dobFuture : null;
            setDobProblem(problem);
            if (problem) setStatus(problem);
            else forward();
          }}
        >
          <p className="progress">{progress}</p>
          <h2 ref={headingRef} tabIndex={-1}>{t.dobTitle}</h2>
          {notice}
          <label className="field" htmlFor="dob">{t.dobLabel}</label>
          <input
            id="dob"
            type="date"
            value={dob}
            max={localToday()}
            min="1900-01-01"
            autoComplete="bday"
            required
            aria-invalid={dobProblem ? true : undefined}
            aria-describedby="dob-hint dob-problem"
            onChange={(e) => {
              setDob(e.currentTarget.value);
              setDobProblem(null);
            }}
            data-testid="dob"
          />
          <p id="dob-hint" className="hint">{t.dobHint(page.min_age ?? 18)}</p>
          <p id="dob-problem" className="problem" role="alert" hidden={!dobProblem}>{dobProblem}</p>
          <div className="nav">
            <button type="submit" className="primary" data-testid="continue">{t.next}</button>
          </div>
        </form>
      );
    } else {
      const texts = {
        selfie: { title: t.selfieTitle, hint: t.selfieHint },
        id_front: { title: t.idFrontTitle, hint: t.idFrontHint },
        id_back: { title: t.idBackTitle, hint: t.idBackHint },
      }[step];
      body = (
        <PhotoStep
          key={`${step}-${retryCount}`}
          kind={step}
          title={texts.title}
          hint={texts.hint}
          progress={progress}
          headingRef={headingRef}
          photo={photos[step] ?? null}
          onPhoto={(p) => setPhotos((all) => ({ ...all, [step]: p ?? undefined }))}
          announce={setStatus}
          notice={notice}
          continueLabel={last ? t.submit : t.next}
          onContinue={forward}
          challenge={!!page.challenge && step === 'selfie'}
          {...(page.challenge ? { clipMs: Math.round(page.challenge.clip_seconds * 1000) } : {})}
          again={!!retry && step === retry.step}
          {...(step === 'id_back' ? { onSkip: forward } : {})}
          {...(back ? { onBack: back } : {})}
        />
      );
    }
  }

  return (
    <Shell page={page} status={status}>
      {phase.kind === 'steps' && stepIndex === 0 && !idMode && <p className="intro" data-testid="intro">{(page.challenge ? t.introClip : t.intro)[page.product]}</p>}
      {body}
    </Shell>
  );
}

function Shell({ page, status, children }: { page: HostedPage | null; status: string; children: React.ReactNode }) {
  return (
    <div className="page">
      {page?.test_mode && (
        <div className="test-banner" role="note" data-testid="test-banner">{t.testBanner}</div>
      )}
      <header className="header">
        {page && (
          <p className="brand" data-testid="org-brand">
            {page.organization.logo_url && <img className="brand-logo" src={page.organization.logo_url} alt="" data-testid="org-logo" />}
            <span data-testid="org-name">{page.organization.name}</span>
          </p>
        )}
        <h1 data-testid="page-title">{page ? (page.page_title ?? t.defaultTitle[page.product]) : t.fallbackTitle}</h1>
      </header>
      <main className="main">{children}</main>
      <p className="sr-only" role="status" aria-live="polite" data-testid="status">{status}</p>
    </div>
  );
}

function Closed({ notFound, flowClosed, message, headingRef }: {
  notFound: boolean; flowClosed: boolean; message: string; headingRef: React.RefObject<HTMLHeadingElement | null>;
}) {
  return (
    <section className="step closed" data-testid="closed" data-closed={flowClosed ? 'flow' : notFound ? 'not_found' : 'closed'}>
      <h2 ref={headingRef} tabIndex={-1}>{flowClosed ? t.flowClosedTitle : notFound ? t.notFoundTitle : t.closedTitle}</h2>
      {message && <p data-testid="closed-reason">{message}</p>}
      <p className="hint">{flowClosed ? t.flowClosedHint : t.closedHint}</p>
    </section>
  );
}

function Fault({ message, headingRef }: { message: string; headingRef: React.RefObject<HTMLHeadingElement | null> }) {
  return (
    <section className="step" data-testid="fault">
      <h2 ref={headingRef} tabIndex={-1}>{t.errorTitle}</h2>
      <p role="alert">{message}</p>
      <button type="button" className="primary" onClick={() => window.location.reload()}>{t.tryAgain}</button>
    </section>
  );
}

function ErrorBox({ error }: { error: StepError }) {
  return (
    <div className="problem" role="alert" data-testid="step-error">
      <p>{error.message}</p>
      {error.fields.length > 0 && (
        <ul>
          {error.fields.map((f) => (
            <li key={f.field}>{t.fields[f.field] ?? f.field}: {t.issues[f.issue] ?? f.issue.replaceAll('_', ' ')}</li>
          ))}
        </ul>
      )}
      <p>{t.fixAndRetry}</p>
    </div>
  );
}
