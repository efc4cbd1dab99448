// Document products (spec: Identity, Compliance, report): identity by selfie and ID document (30
// credits), KYC-plus (identity and sanctions/PEP screening of the name, date of birth and
// nationality read from the document, 50 credits, legacy compliance.* events), and the KYC report
// PDF, made from what is held in memory for 30 minutes after a KYC-plus verification. One ledger
// row per verification holds the outcome, never a name, a date or an image.
import {
  DOCUMENT_CHECK_LABEL, type ComplianceRequest, type ComplianceResult, type DocumentData, type IdentityRequest, type IdentityResult, type ReportRequest,
  type ReportResult,
} from '../../../../src-shared/contracts/documents';
import type { ScreeningResponse } from '../../../../src-shared/contracts/screening';
import { formatIsoDate, parseClaimedDate } from '../../../../src-shared/dates';
import { AppError } from '../../../../src-shared/errors';
import type { Accounts } from '../accounts/accounts';
import type { Clock } from '../clock';
import type { Keys } from '../keys/keys';
import { compareClaims } from '../documents/assess';
import { checkIdentity, identityAnswer, type IdentityCheck, type IdentityImages } from '../documents/identity';
import { nationalityAlpha2 } from '../documents/mrz';
import { encryptPdf, renderKycReport, type ReportActor } from '../documents/report-pdf';
import type { DocumentReader } from '../documents/pool';
import { reportLists, type HeldReport, type ReportStore } from '../documents/report-store';
import { THRESHOLD_SIMILARITY } from '../faces/match';
import type { FacePool } from '../faces/pool';
import { DEMO_CONFIDENCE, demoAnalysis } from '../faces/selfie';
import { bytesOfBase64 } from '../media/image';
import { hitCategories, SCREENING_HIT } from '../screening/hits';
import type { ScreenPool } from '../screening/pool';
import type { Screening } from '../screening/service';
import type { Ledger } from '../verification/ledger';
import type { Webhooks } from '../webhooks/webhooks';
import type { Organization } from '../accounts/organization';
import { bill, creditsAfter, type Answer, type Call, type ChargeDeps } from './call';
import { clipRequired } from './liveness';

/** What identity uses: the face workers and the document reader, the organisation's liveness setting, billing. */
export interface IdentityDeps extends ChargeDeps {
  clock: Clock;
  faces: FacePool;
  documents: DocumentReader;
  organization: Organization;
}

/** What KYC-plus adds: the loaded lists and their worker, the report held for the PDF, and the paying key's name for it. */
export interface KycDeps extends IdentityDeps {
  screening: Screening;
  pool: ScreenPool;
  kycReports: ReportStore;
  keys: Keys;
}

/** What the KYC report PDF uses. */
export interface KycReportDeps {
  clock: Clock;
  kycReports: ReportStore;
  ledger: Ledger;
  accounts: Accounts;
  keys: Keys;
  webhooks: Webhooks;
}

type Images = { selfie_b64: string; id_front_b64: string; id_back_b64?: string | undefined };

/** The images' bytes, decoded from base64 once (a malformed field is refused before anything is billed). */
function imagesOf(body: Images): IdentityImages {
  return {
    selfie: { field: 'selfie_b64', bytes: bytesOfBase64('selfie_b64', body.selfie_b64) },
    front: { field: 'id_front_b64', bytes: bytesOfBase64('id_front_b64', body.id_front_b64) },
    back: body.id_back_b64 !== undefined ? { field: 'id_back_b64', bytes: bytesOfBase64('id_back_b64', body.id_back_b64) } : undefined,
  };
}

/** The specimen a demo key's simulated answer describes. */
const DEMO_DOCUMENT: DocumentData = {
  name: 'ERIKA MUSTERMANN', date_of_birth: '08/12/1964', document_type: 'passport', document_number: 'C01X00T47',
  expiry_date: '10/31/2030', issuing_country: 'D', nationality: 'D', sex: 'F',
};

function demoIdentity() {
  return {
    success: true, verified: true, confidence: DEMO_CONFIDENCE, simulated: true,
    face_match: { similarity: DEMO_CONFIDENCE, is_match: true, threshold: THRESHOLD_SIMILARITY },
    document_data: DEMO_DOCUMENT,
    authenticity: { is_genuine: true, confidence: DEMO_CONFIDENCE, checks: [] },
    mrz: null,
    review: [],
    selfie_analysis: demoAnalysis(),
  };
}

/**
 * Who acts, for the report: the paying key by its name and public prefix (never the key itself),
 * else the signed-in analyst (console try), else a keyless hosted link.
 */
async function actorOf(s: { keys: Keys }, call: Call): Promise<ReportActor> {
  const payer = call.payer;
  if (payer.id) {
    const k = await s.keys.get(payer.id);
    return { kind: 'api_key', name: k?.name ?? payer.id, prefix: k?.prefix ?? '' };
  }
  return call.analyst ? { kind: 'analyst', email: call.analyst.email } : { kind: 'hosted_link' };
}

function identityRun(s: Pick<IdentityDeps, 'faces' | 'documents' | 'clock'>, images: IdentityImages): Promise<IdentityCheck> {
  return checkIdentity(s.faces, s.documents, images, new Date(s.clock.now()));
}

/** Identity for a payer: an API key, the console's try panel (test, free) or a hosted session. */
export async function identity(s: IdentityDeps, call: Call, body: IdentityRequest, text: string): Promise<Answer<IdentityResult>> {
  const key = call.payer;
  if (body.date_of_birth !== undefined && !parseClaimedDate(body.date_of_birth)) {
    throw new AppError('invalid_parameters', { message: 'date_of_birth must be YYYY-MM-DD or MM/DD/YYYY', fields: [{ field: 'date_of_birth', issue: 'invalid_date' }] });
  }
  const images = imagesOf(body);
  await clipRequired(s, call, images.selfie.field, images.selfie.bytes);
  const billed = await bill<Omit<IdentityResult, 'credits_consumed' | 'credits_remaining'>>(
    s, call, { operation: 'identity', idPrefix: 'idv', bodyText: text },
    async (ctx) => {
      const stamp = { verification_id: ctx.verificationId, timestamp: new Date(ctx.createdAt).toISOString() };
      if (key.demo) return { status: 'PASS', confidence: DEMO_CONFIDENCE, billable: false, httpStatus: 200, result: { ...demoIdentity(), ...stamp } };
      const r = await identityRun(s, images);
      const { body: answer, failure, confidence } = identityAnswer(r, compareClaims(r.assessment, body));
      return {
        status: failure ? 'FAIL' : 'PASS', confidence, billable: true, httpStatus: 200, errorCode: failure?.code ?? null, livenessEvidence: r.selfie.evidence,
        result: { ...answer, ...stamp },
      };
    },
  );
  return { body: { ...billed.outcome.result, credits_consumed: billed.charged, credits_remaining: await creditsAfter(s, call, billed) }, replayed: billed.replayed };
}

/** The report PDF of a KYC-plus verification held for this organisation and environment. */
export async function kycReport(s: KycReportDeps, call: Call, body: ReportRequest): Promise<ReportResult> {
  const key = call.payer;
  const held = s.kycReports.take(body.verification_id, key.orgId, key.env);
  if (!held) {
    const row = await s.ledger.findForKey(body.verification_id, key.orgId, key.env);
    throw new AppError(row && row.product === 'compliance' ? 'report_unavailable' : 'verification_not_found');
  }
  const org = await s.accounts.organization();
  let pdf = await renderKycReport({
    ...held, organisation: org?.name ?? 'Compliance Console', generatedAt: new Date(s.clock.now()).toISOString(), generatedBy: await actorOf(s, call),
  });
  if (body.report_password !== undefined) pdf = await encryptPdf(pdf, body.report_password);
  await s.webhooks.emit(key.orgId, key.env, { type: 'compliance.report_ready', fields: { verification_id: body.verification_id, encrypted: body.report_password !== undefined } });
  return {
    success: true, pdf_base64: Buffer.from(pdf).toString('base64'), size_bytes: pdf.length, encrypted: body.report_password !== undefined,
    filename: `kyc_report_${body.verification_id}.pdf`,
  };
}

type KycResult = Omit<ComplianceResult, 'credits_consumed' | 'credits_remaining'>;

/** KYC-plus for a payer: an API key, the console's try panel (test, free) or a hosted session. */
export async function kycPlus(s: KycDeps, call: Call, body: ComplianceRequest, text: string): Promise<Answer<ComplianceResult>> {
  const key = call.payer;
  const images = imagesOf(body);
  await clipRequired(s, call, images.selfie.field, images.selfie.bytes);
  const ready = key.demo ? null : await s.screening.ready();
  if (!key.demo && !ready) throw s.screening.unavailable();
  let held: HeldReport | null = null;
  const billed = await bill<KycResult>(
    s, call, {
      operation: 'compliance', idPrefix: 'kyc', bodyText: text,
      // Legacy events: ids, statuses and counts only.
      events: ({ verificationId, outcome }) => {
        const hits = outcome.result.compliance_screening.total_hits;
        const fields = { verification_id: verificationId, verified: outcome.result.verified, screening_status: outcome.result.compliance_screening.status, total_hits: hits };
        return hits > 0
          ? [{ type: 'compliance.completed', fields }, { type: 'compliance.hit_detected', fields }]
          : [{ type: 'compliance.completed', fields }];
      },
      alsoRecord: ({ verificationId }) => {
        if (held) s.kycReports.hold(verificationId, key.orgId, key.env, { ...held, verificationId });
      },
    },
    async (ctx) => {
      const stamp = { verification_id: ctx.verificationId, timestamp: new Date(ctx.createdAt).toISOString() };
      const screenedAt = new Date(ctx.createdAt).toISOString();
      if (key.demo) {
        return {
          status: 'PASS', confidence: DEMO_CONFIDENCE, billable: false, httpStatus: 200, hitCategories: '',
          result: {
            ...demoIdentity(), ...stamp,
            compliance_screening: { performed: true, status: 'Cleared', total_hits: 0, message: 'Simulated: no matches (demo key)', timestamp: screenedAt },
          },
        };
      }
      const r = await identityRun(s, images);
      const { body: answer, failure, confidence } = identityAnswer(r, []);
      // The names as settled against the printed page (a name left for review is screened as the MRZ reads it).
      const m = r.assessment.mrz;
      let screening: ScreeningResponse | null = null;
      if (m && m.surname) {
        const birth = r.assessment.birth;
        const country = nationalityAlpha2(m.nationality);
        screening = await s.pool.screenOne(ready!, {
          id: ctx.verificationId, created: ctx.createdAt, livemode: key.env === 'live', staleWindows: await s.organization.listFreshness(key.orgId),
          subject: {
            type: 'individual', first_name: m.givenNames || m.surname, last_name: m.surname,
            ...(birth ? { date_of_birth: formatIsoDate(birth) } : {}),
            ...(country ? { country } : {}),
          },
        });
      }
      const hits = screening ? screening.matches.filter((x) => !x.cleared) : [];
      const found = hits.map((h) => ({
        name: h.name, category: h.list === 'pep' ? 'PEP' : h.list === 'sanctions' ? 'Sanctions' : h.list === 'rca' ? 'RCA' : 'Wanted',
        match_score: h.score, list: h.source_list, reasons: [h.explanation.summary],
      }));
      const compliance_screening = {
        performed: screening !== null,
        status: hits.length ? ('Potential Match' as const) : ('Cleared' as const),
        total_hits: hits.length,
        message: !screening
          ? 'Not screened: the document could not be read'
          : hits.length ? `${hits.length} potential match${hits.length === 1 ? '' : 'es'} for review` : 'No matches on the lists checked',
        ...(hits.length ? { found_records: found } : {}),
        timestamp: screenedAt,
      };
      const verified = !failure && screening !== null && hits.length === 0;
      if (screening && r.assessment.fullName) {
        const a = r.assessment;
        const selfieFailure = r.selfie.verdict.failure;
        held = {
          verificationId: ctx.verificationId, environment: key.env, verifiedAt: screenedAt, verifiedBy: await actorOf(s, call),
          subject: { name: r.assessment.fullName, dateOfBirth: a.birth ? formatIsoDate(a.birth) : null, nationality: m?.nationality ?? null },
          screening: {
            status: compliance_screening.status, totalHits: hits.length, screenedAt,
            listsChecked: reportLists(screening.screening.list_versions, ready!.catalog),
            records: found.map((f) => ({ name: f.name, category: f.category, matchScore: f.match_score, list: f.list, reasons: f.reasons })),
          },
          identity: {
            verified: !failure, documentType: a.documentData?.document_type ?? null, issuingCountry: m?.issuingState ?? null,
            documentExpiry: a.expiry ? formatIsoDate(a.expiry) : null,
            reason: failure?.text ?? null,
            // Compared only when both faces were found (otherwise matchFaces answers a certain non-match).
            faceMatch: r.selfie.verdict.face && r.portrait
              ? { similarity: r.match.face_match_confidence, threshold: r.match.threshold, isMatch: r.match.face_match }
              : null,
            checks: [
              { name: 'Selfie accepted', result: selfieFailure ? 'fail' : 'pass', detail: r.selfie.verdict.failureText ?? undefined },
              ...a.authenticity.checks.map((x) => ({ name: DOCUMENT_CHECK_LABEL[x.check], result: x.result })),
            ],
          },
        };
      }
      const hitFailure = !failure && hits.length ? { error: 'Potential watchlist match: review required', failure_reason: 'screening_hit' } : {};
      return {
        status: verified ? 'PASS' : 'FAIL', confidence, billable: true, httpStatus: 200,
        errorCode: failure?.code ?? (hits.length ? SCREENING_HIT : screening ? null : 'document_unreadable'),
        hitCategories: screening ? hitCategories(hits) : null, livenessEvidence: r.selfie.evidence,
        result: { ...answer, ...hitFailure, verified, ...stamp, compliance_screening },
      };
    },
  );
  return { body: { ...billed.outcome.result, credits_consumed: billed.charged, credits_remaining: await creditsAfter(s, call, billed) }, replayed: billed.replayed };
}
