// "Try it" (test mode): an image from disk, a drop or the camera through liveness or age, or a
// selfie and an ID document through identity or KYC-plus, and the answer as an analyst reads it:
// the face box on the image, each rule with its value and limit, the scores, the document as read
// (DocumentResult.tsx), and the raw JSON. The images stay in this page's memory: object URLs
// revoked when replaced or when the panel goes, base64 only for the request, never stored.
import { useEffect, useRef, useState, type DragEvent, type ReactNode } from 'react';
import type { AgeSelfieResponse } from '../../../../src-shared/contracts/age';
import type { ComplianceResult, IdentityResult } from '../../../../src-shared/contracts/documents';
import type { FaceAnalysisBlock, LivenessResult } from '../../../../src-shared/contracts/faces';
import { errorText } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Badge } from '../../components/Badge';
import { usePlan } from '../../stores/session';
import { DocumentResult } from './DocumentResult';
import { checkValue, POLICY_LABEL, REASON_LABEL } from './labels';
import { verificationsApi } from './verifications-api';
import { planIncludes } from '../../../../src-shared/policy';

type Product = 'liveness' | 'age' | 'identity' | 'kyc';
type Result =
  | { product: 'liveness'; body: LivenessResult }
  | { product: 'age'; body: AgeSelfieResponse }
  | { product: 'identity'; body: IdentityResult }
  | { product: 'kyc'; body: ComplianceResult };
type FaceResult = Extract<Result, { product: 'liveness' | 'age' }>;
const withDocument = (p: Product): p is 'identity' | 'kyc' => p === 'identity' || p === 'kyc';
const ACCEPT = 'image/jpeg,image/png,image/webp';

function useObjectUrl(blob: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return setUrl(null);
    const u = URL.createObjectURL(blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [blob]);
  return url;
}

function Camera({ onCapture, onClose }: { onCapture: (b: Blob) => void; onClose: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let stream: MediaStream | null = null;
    let stopped = false;
    navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user' }, audio: false }).then(
      (s) => {
        if (stopped) return s.getTracks().forEach((t) => t.stop());
        stream = s;
        if (video.current) video.current.srcObject = s;
      },
      () => setError('The camera could not be opened. Check the permission and that no other program uses it.'),
    );
    return () => {
      stopped = true;
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, []);
  const capture = () => {
    const v = video.current;
    if (!v || v.videoWidth === 0) return;
    const canvas = document.createElement('canvas');
    canvas.width = v.videoWidth;
    canvas.height = v.videoHeight;
    canvas.getContext('2d')?.drawImage(v, 0, 0);
    canvas.toBlob((b) => b && onCapture(b), 'image/jpeg', 0.92);
  };
  return (
    <div className="try-camera">
      {error ? <Alert>{error}</Alert> : <video ref={video} autoPlay playsInline muted aria-label="Camera preview" />}
      <div className="try-actions">
        <button type="button" className="btn btn-primary" onClick={capture} disabled={!!error}>Take the picture</button>
        <button type="button" className="btn" onClick={onClose}>Close the camera</button>
      </div>
    </div>
  );
}

/** The chosen picture with the face box; the caption once the service has answered (`analysed`). */
function FaceFigure({ url, analysis, analysed }: { url: string; analysis: FaceAnalysisBlock | undefined; analysed: boolean }) {
  const box = analysis?.box;
  const w = analysis?.image.width ?? 1;
  const h = analysis?.image.height ?? 1;
  return (
    <figure className="try-figure" data-testid="try-figure">
      <div className="try-image">
        <img src={url} alt="The image analysed" />
        {box ? (
          <div
            className="try-box" data-testid="try-box" aria-hidden="true"
            style={{ left: `${(100 * box.x) / w}%`, top: `${(100 * box.y) / h}%`, width: `${(100 * box.width) / w}%`, height: `${(100 * box.height) / h}%` }}
          />
        ) : null}
      </div>
      {analysed ? (
        <figcaption className="muted">
          {analysis ? `${analysis.faces_found} face${analysis.faces_found === 1 ? '' : 's'} found; analysed at ${w} × ${h} px` : 'Simulated: no model ran.'}
        </figcaption>
      ) : null}
    </figure>
  );
}

function Decision({ result }: { result: FaceResult }) {
  if (result.product === 'liveness') {
    const r = result.body;
    return (
      <div className="try-decision" data-testid="try-decision" data-status={r.status}>
        <Badge tone={r.status === 'PASS' ? 'positive' : 'negative'}>{r.status}</Badge>
        <span>Confidence <strong>{r.confidence.toFixed(1)}</strong></span>
        {r.status === 'PASS' ? <span>{r.is_real_face ? 'Real face' : 'Face found; realness not established'}</span> : null}
        {r.error ? <span>{r.error}</span> : null}
      </div>
    );
  }
  const r = result.body;
  return (
    <div className="try-decision" data-testid="try-decision" data-status={r.status}>
      <Badge tone={r.verified ? 'positive' : 'warning'}>{r.verified ? 'Verified by selfie' : 'ID needed'}</Badge>
      {r.estimated_age !== null && r.age_range ? (
        <span>
          Estimated age <strong>{r.estimated_age}</strong> (range {r.age_range.Low}–{r.age_range.High}); minimum {r.min_age}
        </span>
      ) : null}
      {r.reason ? <span>{REASON_LABEL[r.reason] ?? r.reason}</span> : null}
    </div>
  );
}

/** What a selfie's liveness rested on (issue 37), as the analyst reads it. */
const EVIDENCE_TEXT: Record<NonNullable<FaceAnalysisBlock['evidence']>['kind'], string> = {
  still_photo: 'Still photo', video_clip: 'Clip without the head turn', head_turn_clip: 'Head-turn clip',
};

function Signals({ analysis }: { analysis: FaceAnalysisBlock }) {
  return (
    <>
      <table className="try-checks" data-testid="try-checks">
        <caption>Rules</caption>
        <thead>
          <tr><th scope="col">Rule</th><th scope="col">Measured</th><th scope="col">Limit</th><th scope="col">Result</th></tr>
        </thead>
        <tbody>
          {analysis.checks.map((c) => (
            <tr key={c.policy} data-policy={c.policy} data-passed={c.passed}>
              <th scope="row">{POLICY_LABEL[c.policy].name}<span className="muted"> ({POLICY_LABEL[c.policy].rule})</span></th>
              <td className="numeric">{checkValue(c)}</td>
              <td className="numeric">{checkValue({ ...c, value: c.limit })}</td>
              <td><Badge tone={c.passed ? 'positive' : 'negative'}>{c.passed ? 'Met' : 'Missed'}</Badge></td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="try-scores" data-testid="try-scores">
        {analysis.evidence ? (
          <>
            <dt>Evidence</dt>
            <dd data-testid="try-evidence" data-kind={analysis.evidence.kind}>
              {EVIDENCE_TEXT[analysis.evidence.kind]}{analysis.evidence.note ? <span className="muted"> — {analysis.evidence.note}</span> : null}
            </dd>
          </>
        ) : null}
        <dt>Detector score</dt><dd>{analysis.detection_score?.toFixed(2) ?? '—'}</dd>
        <dt>Anti-spoofing (advisory)</dt><dd>{analysis.antispoof?.toFixed(2) ?? '—'}</dd>
        <dt>Liveness model (advisory)</dt><dd>{analysis.liveness?.toFixed(2) ?? '—'}</dd>
        <dt>Head pose</dt>
        <dd>{analysis.pose ? `yaw ${analysis.pose.yaw.toFixed(0)}°, pitch ${analysis.pose.pitch.toFixed(0)}°, roll ${analysis.pose.roll.toFixed(0)}°` : '—'}</dd>
      </dl>
    </>
  );
}

const isPicture = (b: Blob | null): b is Blob => b !== null && ACCEPT.split(',').includes(b.type);

interface ImageDropProps {
  file: Blob | null;
  onChoose: (b: Blob | null | undefined) => void;
  /** Test ids `${testId}-drop` and `${testId}-file`. */
  testId: string;
  title?: string | undefined;
  hint?: string | undefined;
  chooseLabel: string;
  emptyText: string;
  preview: (url: string) => ReactNode;
  actions?: ReactNode;
  compact?: boolean;
}

/** A drop zone with a file picker; a preview of a picture the page can show (an object URL revoked when it goes). */
function ImageDrop({ file, onChoose, testId, title, hint, chooseLabel, emptyText, preview, actions, compact }: ImageDropProps) {
  const [dragging, setDragging] = useState(false);
  // Only pictures the page can show get a preview; anything else goes to the service as it is
  // (which names what is wrong with it).
  const url = useObjectUrl(isPicture(file) ? file : null);
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    onChoose(e.dataTransfer.files[0]);
  };
  return (
    <div
      className={`try-drop${compact ? ' try-drop-compact' : ''}${dragging ? ' try-drop-active' : ''}`} data-testid={`${testId}-drop`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      {title ? (
        <p className="try-drop-title">
          <strong>{title}</strong>
          {hint ? <span className="muted"> {hint}</span> : null}
        </p>
      ) : null}
      {url ? preview(url) : (
        <p className="muted">{file ? `A ${file.type || 'file'} of ${file.size} bytes is chosen (no preview).` : emptyText}</p>
      )}
      <div className="try-drop-actions">
        <label className="btn">
          {chooseLabel}
          <input
            type="file" accept={ACCEPT} className="visually-hidden" data-testid={`${testId}-file`}
            onChange={(e) => {
              onChoose(e.currentTarget.files?.[0]);
              // The same file can be chosen again after a removal.
              e.currentTarget.value = '';
            }}
          />
        </label>
        {actions}
      </div>
    </div>
  );
}

function DocumentFigure({ url, side }: { url: string; side: string }) {
  return (
    <figure className="try-figure">
      <div className="try-image try-image-document">
        <img src={url} alt={`The ID document, ${side}`} />
      </div>
    </figure>
  );
}

const HINT: Record<Product, string> = {
  liveness: 'Choose an image and a check, then Analyse.',
  age: 'Choose an image and a check, then Analyse.',
  identity: 'Choose a selfie and the ID document, then Analyse.',
  kyc: 'Choose a selfie and the ID document, then Analyse: the holder read from the document is screened against the lists.',
};

export function TryPanel({ onRecorded }: { onRecorded: () => void }) {
  const [file, setFile] = useState<Blob | null>(null);
  const [front, setFront] = useState<Blob | null>(null);
  const [back, setBack] = useState<Blob | null>(null);
  const [product, setProduct] = useState<Product>('liveness');
  // KYC-plus screens the holder: the compliance product, on the Pro and Enterprise plans only.
  const kycAllowed = planIncludes(usePlan(), 'compliance');
  const [minAge, setMinAge] = useState(18);
  const [camera, setCamera] = useState(false);
  const [hasCamera, setHasCamera] = useState(false);
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    navigator.mediaDevices?.enumerateDevices?.().then(
      (d) => setHasCamera(d.some((x) => x.kind === 'videoinput')),
      () => setHasCamera(false),
    );
  }, []);

  const chooser = (set: (b: Blob | null) => void) => (b: Blob | null | undefined) => {
    if (b === undefined) return;
    set(b);
    setResult(null);
    setError(null);
  };
  const choose = chooser((b) => {
    if (!b) return;
    setFile(b);
    setCamera(false);
  });
  const chooseFront = chooser(setFront);
  const chooseBack = chooser(setBack);
  const documents = withDocument(product);
  const ready = file !== null && (!documents || front !== null);

  const run = async () => {
    if (!file) return;
    setRunning(true);
    setError(null);
    try {
      if (product === 'liveness') setResult({ product, body: await verificationsApi.tryLiveness(file) });
      else if (product === 'age') setResult({ product, body: await verificationsApi.tryAge(file, minAge) });
      else if (front) {
        const images = { selfie: file, front, back };
        setResult(product === 'identity'
          ? { product, body: await verificationsApi.tryIdentity(images) }
          : { product, body: await verificationsApi.tryKyc(images) });
      }
      onRecorded();
    } catch (e) {
      setResult(null);
      setError(errorText(e));
    } finally {
      setRunning(false);
    }
  };

  const analysis = !result ? undefined : result.product === 'liveness' || result.product === 'age' ? result.body.analysis : result.body.selfie_analysis;
  const selfieMissed = analysis?.checks.some((c) => !c.passed) ?? false;

  return (
    <section className="panel try-panel" aria-labelledby="try-heading" data-testid="try-panel">
      <div className="panel-header">
        <h2 id="try-heading">Try it</h2>
        <span className="muted">Test mode: free, recorded in the test ledger without a key. The images stay in this window.</span>
      </div>
      <div className="try-body">
        <div className="try-input">
          <fieldset className="try-options">
            <legend>Check</legend>
            <label><input type="radio" name="try-product" checked={product === 'liveness'} onChange={() => setProduct('liveness')} data-testid="try-liveness" /> Liveness</label>
            <label><input type="radio" name="try-product" checked={product === 'age'} onChange={() => setProduct('age')} data-testid="try-age" /> Age by selfie</label>
            <label><input type="radio" name="try-product" checked={product === 'identity'} onChange={() => setProduct('identity')} data-testid="try-identity" /> Identity</label>
            <label className={kycAllowed ? undefined : 'try-option-locked'} title={kycAllowed ? undefined : 'KYC plus is part of the Pro and Enterprise plans.'}>
              <input type="radio" name="try-product" checked={product === 'kyc'} disabled={!kycAllowed} onChange={() => setProduct('kyc')} data-testid="try-kyc" /> KYC plus
              {kycAllowed ? null : <span className="muted"> (Pro and Enterprise plans)</span>}
            </label>
            {product === 'age' ? (
              <label className="try-min-age">
                Minimum age
                <input type="number" min={13} max={99} value={minAge} onChange={(e) => setMinAge(Number(e.currentTarget.value) || 18)} data-testid="try-min-age" />
              </label>
            ) : null}
          </fieldset>
          <ImageDrop
            file={file} onChoose={choose} testId="try"
            title={documents ? 'Selfie' : undefined}
            chooseLabel={documents ? 'Choose a selfie…' : 'Choose an image…'}
            emptyText={documents ? 'Drop a selfie here (JPEG, PNG or WebP)' : 'Drop a JPEG, PNG or WebP image here'}
            preview={(url) => <FaceFigure url={url} analysis={analysis} analysed={result !== null} />}
            actions={hasCamera && !camera ? <button type="button" className="btn" onClick={() => setCamera(true)}>Use the camera</button> : null}
          />
          {camera ? <Camera onCapture={choose} onClose={() => setCamera(false)} /> : null}
          {documents ? (
            <div className="try-documents">
              <ImageDrop
                file={front} onChoose={chooseFront} testId="try-front" compact
                title="ID document" hint="photo page or card front" chooseLabel="Choose the front…" emptyText="Drop the front here"
                preview={(url) => <DocumentFigure url={url} side="front" />}
              />
              <ImageDrop
                file={back} onChoose={chooseBack} testId="try-back" compact
                title="Back" hint="optional: cards with the MRZ on the back" chooseLabel="Choose the back…" emptyText="Drop the back here"
                preview={(url) => <DocumentFigure url={url} side="back" />}
                actions={back ? <button type="button" className="btn" onClick={() => chooseBack(null)} data-testid="try-back-remove">Remove</button> : null}
              />
            </div>
          ) : null}
          <button type="button" className="btn btn-primary" disabled={!ready || running} onClick={() => void run()} data-testid="try-run">
            {running ? (documents ? 'Reading the document…' : 'Analysing…') : 'Analyse'}
          </button>
        </div>
        <div className="try-result" aria-live="polite">
          {error ? <Alert testId="try-error" title="Not analysed.">{error}</Alert> : null}
          {result ? (
            <>
              {result.product === 'liveness' || result.product === 'age' ? (
                <>
                  <Decision result={result} />
                  {result.body.analysis ? <Signals analysis={result.body.analysis} /> : null}
                </>
              ) : (
                <>
                  <DocumentResult body={result.body} />
                  {result.body.selfie_analysis ? (
                    <details className="try-more" open={selfieMissed}>
                      <summary>Selfie rules and scores</summary>
                      <Signals analysis={result.body.selfie_analysis} />
                    </details>
                  ) : null}
                </>
              )}
              <details className="try-json">
                <summary>Raw JSON</summary>
                <pre data-testid="try-json">{JSON.stringify(result.body, null, 2)}</pre>
              </details>
            </>
          ) : !error ? <p className="muted">{HINT[product]}</p> : null}
        </div>
      </div>
    </section>
  );
}
