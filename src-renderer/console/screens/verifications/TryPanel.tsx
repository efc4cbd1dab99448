// "Try it" (test mode): an image from disk, a drop or the camera through liveness or age, and the
// answer as an analyst reads it: the face box on the image, each rule with its value and limit,
// the scores, and the raw JSON. The image stays in this page's memory: an object URL revoked when
// replaced or when the panel goes, never stored.
import { useEffect, useRef, useState, type DragEvent } from 'react';
import type { AgeSelfieResponse } from '../../../../src-shared/contracts/age';
import type { FaceAnalysisBlock, LivenessResult } from '../../../../src-shared/contracts/faces';
import { errorText } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Badge } from '../../components/Badge';
import { checkValue, POLICY_LABEL, REASON_LABEL } from './labels';
import { verificationsApi } from './verifications-api';

type Product = 'liveness' | 'age';
type Result = { product: 'liveness'; body: LivenessResult } | { product: 'age'; body: AgeSelfieResponse };
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

function FaceFigure({ url, analysis }: { url: string; analysis: FaceAnalysisBlock | undefined }) {
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
      <figcaption className="muted">
        {analysis ? `${analysis.faces_found} face${analysis.faces_found === 1 ? '' : 's'} found; analysed at ${w} × ${h} px` : 'Simulated: no model ran.'}
      </figcaption>
    </figure>
  );
}

function Decision({ result }: { result: Result }) {
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
          Estimated age <strong>{r.estimated_age}</strong> (80% range {r.age_range.Low}–{r.age_range.High}); minimum {r.min_age}
        </span>
      ) : null}
      {r.reason ? <span>{REASON_LABEL[r.reason] ?? r.reason}</span> : null}
    </div>
  );
}

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
        <dt>Detector score</dt><dd>{analysis.detection_score?.toFixed(2) ?? '—'}</dd>
        <dt>Anti-spoofing (advisory)</dt><dd>{analysis.antispoof?.toFixed(2) ?? '—'}</dd>
        <dt>Liveness model (advisory)</dt><dd>{analysis.liveness?.toFixed(2) ?? '—'}</dd>
        <dt>Head pose</dt>
        <dd>{analysis.pose ? `yaw ${analysis.pose.yaw.toFixed(0)}°, pitch ${analysis.pose.pitch.toFixed(0)}°, roll ${analysis.pose.roll.toFixed(0)}°` : '—'}</dd>
      </dl>
    </>
  );
}

export function TryPanel({ onRecorded }: { onRecorded: () => void }) {
  const [file, setFile] = useState<Blob | null>(null);
  // Only pictures the page can show get a preview; anything else goes to the service as it is
  // (which names what is wrong with it).
  const url = useObjectUrl(file && ACCEPT.split(',').includes(file.type) ? file : null);
  const [product, setProduct] = useState<Product>('liveness');
  const [minAge, setMinAge] = useState(18);
  const [camera, setCamera] = useState(false);
  const [hasCamera, setHasCamera] = useState(false);
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    navigator.mediaDevices?.enumerateDevices?.().then(
      (d) => setHasCamera(d.some((x) => x.kind === 'videoinput')),
      () => setHasCamera(false),
    );
  }, []);

  const choose = (b: Blob | null | undefined) => {
    if (!b) return;
    setFile(b);
    setResult(null);
    setError(null);
    setCamera(false);
  };
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    choose(e.dataTransfer.files[0]);
  };
  const run = async () => {
    if (!file) return;
    setRunning(true);
    setError(null);
    try {
      setResult(product === 'liveness'
        ? { product, body: await verificationsApi.tryLiveness(file) }
        : { product, body: await verificationsApi.tryAge(file, minAge) });
      onRecorded();
    } catch (e) {
      setResult(null);
      setError(errorText(e));
    } finally {
      setRunning(false);
    }
  };

  return (
    <section className="panel try-panel" aria-labelledby="try-heading" data-testid="try-panel">
      <div className="panel-header">
        <h2 id="try-heading">Try it</h2>
        <span className="muted">Test mode: free, recorded in the test ledger without a key. The image stays in this window.</span>
      </div>
      <div className="try-body">
        <div className="try-input">
          <div
            className={`try-drop${dragging ? ' try-drop-active' : ''}`} data-testid="try-drop"
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            {url ? (
              <FaceFigure url={url} analysis={result?.body.analysis} />
            ) : (
              <p className="muted">{file ? `A ${file.type || 'file'} of ${file.size} bytes is chosen (no preview).` : 'Drop a JPEG, PNG or WebP image here'}</p>
            )}
            <label className="btn">
              Choose an image…
              <input
                type="file" accept={ACCEPT} className="visually-hidden" data-testid="try-file"
                onChange={(e) => choose(e.currentTarget.files?.[0])}
              />
            </label>
            {hasCamera && !camera ? <button type="button" className="btn" onClick={() => setCamera(true)}>Use the camera</button> : null}
          </div>
          {camera ? <Camera onCapture={choose} onClose={() => setCamera(false)} /> : null}
          <fieldset className="try-options">
            <legend>Check</legend>
            <label><input type="radio" name="try-product" checked={product === 'liveness'} onChange={() => setProduct('liveness')} data-testid="try-liveness" /> Liveness</label>
            <label><input type="radio" name="try-product" checked={product === 'age'} onChange={() => setProduct('age')} data-testid="try-age" /> Age by selfie</label>
            {product === 'age' ? (
              <label className="try-min-age">
                Minimum age
                <input type="number" min={13} max={99} value={minAge} onChange={(e) => setMinAge(Number(e.currentTarget.value) || 18)} data-testid="try-min-age" />
              </label>
            ) : null}
          </fieldset>
          <button type="button" className="btn btn-primary" disabled={!file || running} onClick={() => void run()} data-testid="try-run">
            {running ? 'Analysing…' : 'Analyse'}
          </button>
        </div>
        <div className="try-result" aria-live="polite">
          {error ? <Alert testId="try-error" title="Not analysed.">{error}</Alert> : null}
          {result ? (
            <>
              <Decision result={result} />
              {result.body.analysis ? <Signals analysis={result.body.analysis} /> : null}
              <details className="try-json">
                <summary>Raw JSON</summary>
                <pre data-testid="try-json">{JSON.stringify(result.body, null, 2)}</pre>
              </details>
            </>
          ) : !error ? <p className="muted">Choose an image and a check, then Analyse.</p> : null}
        </div>
      </div>
    </section>
  );
}
