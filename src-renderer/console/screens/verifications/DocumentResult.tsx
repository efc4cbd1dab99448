// An identity or KYC-plus answer as an analyst reads it: the decision and why, the holder's
// screening (KYC-plus) with its report, the face match against its threshold, the fields left for
// review with both readings, what was read from the document, the MRZ line by line with each
// check digit, the printed fields against the MRZ, and every authenticity signal by name. The
// report PDF goes straight to a save (a download in a browser); its password is held by this
// component only.
import { useId, useState } from 'react';
import type { ComplianceResult, IdentityResult } from '../../../../src-shared/contracts/documents';
import { errorText } from '../../api/client';
import { saveFile } from '../../api/shell';
import { Alert } from '../../components/Alert';
import { Badge, type BadgeTone } from '../../components/Badge';
import { formatNumber } from '../../components/format';
import {
  AGREEMENT_LABEL, CHECK_RESULT, DOCUMENT_CHECK_LABEL, DOCUMENT_TYPE_LABEL, documentDate, MRZ_FIELD_LABEL, REASON_LABEL, SEX_LABEL,
} from './labels';
import { bytesOfBase64, verificationsApi } from './verifications-api';

type Body = IdentityResult | ComplianceResult;
type Screening = ComplianceResult['compliance_screening'];

const fieldLabel = (f: string) => (MRZ_FIELD_LABEL as Record<string, string | undefined>)[f] ?? f.replace(/_/g, ' ');
const score = (n: number) => n.toFixed(1);

function DocumentDecision({ body }: { body: Body }) {
  const review = body.failure_reason === 'screening_hit' || body.failure_reason === 'document_needs_review';
  const tone: BadgeTone = body.verified ? 'positive' : review ? 'warning' : 'negative';
  const reason = body.failure_reason ? (REASON_LABEL[body.failure_reason] ?? body.failure_reason) : null;
  // The service's sentence, unless it only repeats the reason's label.
  const why = body.error && !(reason && body.error.toLowerCase().startsWith(reason.toLowerCase())) ? body.error : null;
  return (
    <div className="try-decision-block" data-testid="try-decision" data-status={body.verified ? 'verified' : 'not_verified'} data-reason={body.failure_reason ?? ''}>
      <div className="try-decision">
        <Badge tone={tone}>{body.verified ? 'Verified' : review ? 'Review' : 'Not verified'}</Badge>
        {reason ? <strong>{reason}</strong> : null}
        <span>Confidence <strong>{score(body.confidence)}</strong></span>
        {body.simulated ? <Badge tone="info">Simulated</Badge> : null}
      </div>
      {why ? <p className="try-why" data-testid="try-why">{why}.</p> : null}
    </div>
  );
}

function FaceMatchBlock({ match }: { match: Body['face_match'] }) {
  const pct = (n: number) => `${Math.max(0, Math.min(100, n))}%`;
  return (
    <section className="try-section" aria-labelledby="try-face-heading" data-testid="try-face-match" data-match={match.is_match}>
      <h3 id="try-face-heading">Face match</h3>
      <div className="try-decision">
        <Badge tone={match.is_match ? 'positive' : 'negative'}>{match.is_match ? 'Same person' : 'Not the same person'}</Badge>
        <span>
          Similarity <strong data-testid="try-similarity">{score(match.similarity)}</strong>
          {match.threshold !== undefined ? (
            <>
              {' '}{match.similarity >= match.threshold ? 'at or above' : 'below'} the threshold <strong data-testid="try-threshold">{score(match.threshold)}</strong>
            </>
          ) : null}
        </span>
      </div>
      <div className="try-meter" aria-hidden="true">
        <div className={`try-meter-fill${match.is_match ? '' : ' try-meter-fill-low'}`} style={{ width: pct(match.similarity) }} />
        {match.threshold !== undefined ? <div className="try-meter-mark" style={{ left: pct(match.threshold) }} /> : null}
      </div>
      <p className="muted try-note">Selfie against the document portrait, 0–100.</p>
    </section>
  );
}

function DocumentDataBlock({ data }: { data: NonNullable<Body['document_data']> }) {
  return (
    <section className="try-section" aria-labelledby="try-doc-heading">
      <h3 id="try-doc-heading">Read from the document</h3>
      <dl className="try-scores try-document" data-testid="try-document">
        <dt>Name</dt><dd data-testid="try-doc-name">{data.name || '—'}</dd>
        <dt>Date of birth</dt><dd title={data.date_of_birth}>{documentDate(data.date_of_birth)}</dd>
        <dt>Document</dt><dd>{DOCUMENT_TYPE_LABEL[data.document_type] ?? data.document_type}</dd>
        <dt>Number</dt><dd className="mono">{data.document_number || '—'}</dd>
        <dt>Expires</dt><dd title={data.expiry_date}>{data.expiry_date ? documentDate(data.expiry_date) : 'No expiry date'}</dd>
        <dt>Issuing country</dt><dd className="mono">{data.issuing_country || '—'}</dd>
        <dt>Nationality</dt><dd className="mono">{data.nationality ?? '—'}</dd>
        <dt>Sex</dt><dd>{data.sex ? SEX_LABEL[data.sex] : '—'}</dd>
      </dl>
    </section>
  );
}

/** Fields the service left for the analyst: both readings side by side, to compare on the image. */
function ReviewSection({ flags }: { flags: NonNullable<Body['review']> }) {
  return (
    <section className="try-section" aria-labelledby="try-review-heading" data-testid="try-review">
      <h3 id="try-review-heading">For review</h3>
      <table className="try-checks">
        <caption className="visually-hidden">Fields the MRZ and the printed page disagree on</caption>
        <thead>
          <tr><th scope="col">Field</th><th scope="col">MRZ (answered)</th><th scope="col">Printed</th><th scope="col">Why</th></tr>
        </thead>
        <tbody>
          {flags.map((f) => (
            <tr key={`${f.field}-${f.reason}`} data-testid="try-review-flag" data-field={f.field} data-reason={f.reason}>
              <th scope="row">{fieldLabel(f.field)}</th>
              <td className="mono">{f.mrz}</td>
              <td className="mono">{f.printed ?? '—'}</td>
              <td className="try-detail">{f.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function MrzSection({ mrz }: { mrz: NonNullable<Body['mrz']> }) {
  return (
    <section className="try-section" aria-labelledby="try-mrz-heading">
      <h3 id="try-mrz-heading">
        Machine-readable zone <span className="muted try-heading-note">{mrz.format} · read in {formatNumber(mrz.read_ms)} ms</span>
      </h3>
      <pre className="try-mrz" data-testid="try-mrz" aria-label="The MRZ lines as read">
        {mrz.lines.map((line, i) => <span key={i} className="try-mrz-line" data-testid="try-mrz-line">{line}</span>)}
      </pre>
      <div className="try-pair">
        <table className="try-checks" data-testid="try-check-digits">
          <caption>Check digits</caption>
          <thead>
            <tr><th scope="col">Field</th><th scope="col">Result</th></tr>
          </thead>
          <tbody>
            {mrz.check_digits.map((d) => (
              <tr key={d.field} data-testid="try-check-digit" data-field={d.field} data-valid={d.valid}>
                <th scope="row">{fieldLabel(d.field)}</th>
                <td><Badge tone={d.valid ? 'positive' : 'negative'}>{d.valid ? 'Valid' : 'Invalid'}</Badge></td>
              </tr>
            ))}
          </tbody>
        </table>
        <table className="try-checks" data-testid="try-printed">
          <caption>Printed fields against the MRZ</caption>
          <thead>
            <tr><th scope="col">Field</th><th scope="col">Printed</th></tr>
          </thead>
          <tbody>
            {mrz.printed.map((p) => (
              <tr key={p.field} data-testid="try-printed-field" data-field={p.field} data-agreement={p.agreement}>
                <th scope="row">{fieldLabel(p.field)}</th>
                <td>
                  <Badge tone={p.agreement === 'match' ? 'positive' : p.agreement === 'mismatch' ? 'negative' : p.agreement === 'review' ? 'warning' : 'neutral'}>{AGREEMENT_LABEL[p.agreement]}</Badge>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function AuthenticitySection({ authenticity }: { authenticity: Body['authenticity'] }) {
  return (
    <section className="try-section" aria-labelledby="try-auth-heading" data-testid="try-authenticity" data-genuine={authenticity.is_genuine}>
      <h3 id="try-auth-heading">Document checks</h3>
      <div className="try-decision">
        <Badge tone={authenticity.is_genuine ? 'positive' : 'negative'}>{authenticity.is_genuine ? 'Consistent and current' : 'Not consistent or not current'}</Badge>
        <span>Confidence <strong>{score(authenticity.confidence)}</strong></span>
      </div>
      <p className="muted try-note">
        Every check must pass except the advisory ones, which only lower the confidence. They show the document is internally consistent and current; they are not a forensic examination.
      </p>
      {authenticity.checks.length > 0 ? (
        <table className="try-checks" data-testid="try-authenticity-checks">
          <caption className="visually-hidden">Document checks</caption>
          <thead>
            <tr><th scope="col">Check</th><th scope="col">Result</th><th scope="col">Detail</th></tr>
          </thead>
          <tbody>
            {authenticity.checks.map((c) => (
              <tr key={c.check} data-check={c.check} data-result={c.result} data-critical={c.critical}>
                <th scope="row">
                  {DOCUMENT_CHECK_LABEL[c.check]}
                  {c.critical ? null : <span className="muted try-advisory"> (advisory)</span>}
                </th>
                <td>
                  <Badge tone={c.result === 'pass' ? 'positive' : c.result === 'fail' ? (c.critical ? 'negative' : 'warning') : 'neutral'}>{CHECK_RESULT[c.result]}</Badge>
                </td>
                <td className="try-detail">{c.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

function ReportDownload({ verificationId }: { verificationId: string }) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const download = async () => {
    setBusy(true);
    setNotice(null);
    try {
      const r = await verificationsApi.tryReport({ verification_id: verificationId, ...(password ? { report_password: password } : {}) });
      const saved = await saveFile({ defaultName: r.filename, content: bytesOfBase64(r.pdf_base64), filters: [{ name: 'PDF', extensions: ['pdf'] }] });
      if (saved.saved) {
        const size = `${formatNumber(Math.max(1, Math.round(r.size_bytes / 1024)))} KB`;
        setNotice({ tone: 'success', text: `${r.filename} (${size}${r.encrypted ? ', encrypted' : ''}) ${saved.path ? `saved to ${saved.path}` : 'downloaded'}.` });
      }
    } catch (e) {
      setNotice({ tone: 'error', text: `Could not make the report: ${errorText(e)}` });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="try-report" data-testid="try-report">
      <div className="try-report-row">
        <div className="field try-report-password">
          <label htmlFor={`${id}-pw`}>Report password <span className="muted">(optional)</span></label>
          <input
            id={`${id}-pw`} type="password" autoComplete="new-password" maxLength={128} value={password}
            aria-describedby={`${id}-hint`} data-testid="try-report-password"
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
        </div>
        <button type="button" className="btn" disabled={busy} onClick={() => void download()} data-testid="try-report-download">
          {busy ? 'Making the report…' : 'Download report'}
        </button>
      </div>
      <div id={`${id}-hint`} className="field-hint">
        The KYC report PDF: screening results, the lists checked with their versions, and the identity checks with the face match's similarity; no images. With a password it is encrypted (AES-256). It can be made for 30 minutes after the check.
      </div>
      {notice ? <Alert tone={notice.tone} testId="try-report-notice">{notice.text}</Alert> : null}
    </div>
  );
}

function ScreeningSection({ screening, verificationId }: { screening: Screening; verificationId: string }) {
  const records = screening.found_records ?? [];
  return (
    <section className="try-section" aria-labelledby="try-screening-heading" data-testid="try-screening" data-status={screening.status}>
      <h3 id="try-screening-heading">Sanctions and PEP screening of the holder</h3>
      <div className="try-decision">
        <Badge tone={!screening.performed ? 'neutral' : screening.status === 'Cleared' ? 'positive' : 'warning'}>
          {screening.performed ? screening.status : 'Not screened'}
        </Badge>
        <span data-testid="try-hits">
          <strong>{formatNumber(screening.total_hits)}</strong> {screening.total_hits === 1 ? 'hit' : 'hits'}
        </span>
        <span className="muted">{screening.message}</span>
      </div>
      {records.length > 0 ? (
        <table className="try-checks" data-testid="try-hits-table">
          <caption>Potential matches (a signal for review, not a decision)</caption>
          <thead>
            <tr>
              <th scope="col">Listed name</th><th scope="col">Category</th><th scope="col">List</th>
              <th scope="col" className="numeric">Score</th><th scope="col">Why it matched</th>
            </tr>
          </thead>
          <tbody>
            {records.map((r, i) => (
              <tr key={i} data-testid="try-hit" data-category={r.category}>
                <th scope="row">{r.name}</th>
                <td><Badge tone={r.category === 'Sanctions' || r.category === 'Wanted' ? 'negative' : 'warning'}>{r.category}</Badge></td>
                <td>{r.list ?? '—'}</td>
                <td className="numeric">{Math.round(r.match_score)}</td>
                <td className="try-detail">{r.reasons?.length ? r.reasons.join('; ') : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {screening.performed ? <ReportDownload key={verificationId} verificationId={verificationId} /> : null}
    </section>
  );
}

export function DocumentResult({ body }: { body: Body }) {
  return (
    <>
      <DocumentDecision body={body} />
      {'compliance_screening' in body ? <ScreeningSection screening={body.compliance_screening} verificationId={body.verification_id} /> : null}
      <FaceMatchBlock match={body.face_match} />
      {body.review?.length ? <ReviewSection flags={body.review} /> : null}
      {body.document_data ? <DocumentDataBlock data={body.document_data} /> : null}
      {body.mrz ? <MrzSection mrz={body.mrz} /> : <p className="muted" data-testid="try-no-mrz">No machine-readable zone was read.</p>}
      <AuthenticitySection authenticity={body.authenticity} />
    </>
  );
}
