// Document products' routes (spec: Identity, Compliance, report); the products are use cases
// (core/app/identity.ts).
import { ComplianceRequest, ComplianceResult, IdentityRequest, IdentityResult, ReportRequest, ReportResult } from '../../../../src-shared/contracts/documents';
import { identity, kycPlus, kycReport } from '../../core/app/identity';
import { callOf, reply } from '../call';
import type { Router } from '../router';
import { THREE_IMAGES_JSON } from '../uploads';

export function documentRoutes({ route, services }: Router): void {
  route({
    method: 'POST', path: '/api/identity/v1/submit',
    auth: { kind: 'key', scope: 'identity', category: 'verification', product: 'identity' }, tags: ['identity'],
    summary: 'Identity: a selfie matched to the portrait of an ID document, and the document read and checked (30 credits)',
    description:
      'The document\'s MRZ (TD1, TD2 or TD3) is read and checked digit by digit; printed fields are compared with it; the portrait is matched to the selfie. ' +
      '`authenticity.checks` names every signal. Claimed `name` and `date_of_birth` (YYYY-MM-DD or MM/DD/YYYY) are compared and reported in `claims`, never echoed. ' +
      'A name the MRZ and the printed page disagree on (names carry no check digit) is listed in `review` with both readings and makes `verified` false (`document_needs_review`). ' +
      'A card\'s MRZ may be on its back: send `id_back_b64`.',
    request: { body: IdentityRequest, maxBytes: THREE_IMAGES_JSON },
    responses: { 200: IdentityResult },
    handler: async (c, input) => reply(c, await identity(services, callOf(c), await input.body(), await input.text())),
  });

  route({
    method: 'POST', path: '/api/kyc/v1/submit_plus',
    auth: { kind: 'key', scope: 'compliance', category: 'verification', product: 'compliance' }, tags: ['identity'],
    summary: 'KYC-plus: identity, then sanctions, PEP and watchlist screening of the document holder (50 credits)',
    description:
      'The identity check, then the name, date of birth and nationality read from the document are screened against the shipped lists. ' +
      'With hits, `verified` is false and `compliance_screening.status` is `Potential Match`: a screening signal for review, not a decision. ' +
      'A report PDF can be made with /api/kyc/v1/generate_report for 30 minutes after (held in memory only).',
    request: { body: ComplianceRequest, maxBytes: THREE_IMAGES_JSON },
    responses: { 200: ComplianceResult },
    handler: async (c, input) => reply(c, await kycPlus(services, callOf(c), await input.body(), await input.text())),
  });

  route({
    method: 'POST', path: '/api/kyc/v1/generate_report',
    auth: { kind: 'key', scope: 'compliance', category: 'read' }, tags: ['identity'],
    summary: 'The KYC report PDF of a KYC-plus verification (screening results only; optionally AES-256 encrypted)',
    description:
      'Screening results; each list checked by title, version date and checksum; the identity checks, every failed one named, with the face match\'s similarity against its threshold; who ran the verification and who asked for the report. ' +
      'Never images or raw biometric data. With `report_password` the PDF is encrypted with AES-256. ' +
      'Available for 30 minutes after the verification (results are held in memory only); then 404 REPORT_UNAVAILABLE.',
    request: { body: ReportRequest },
    responses: { 200: ReportResult },
    handler: async (c, input) => c.json<ReportResult>(await kycReport(services, callOf(c), await input.body())),
  });
}
