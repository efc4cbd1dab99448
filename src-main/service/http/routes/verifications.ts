// The console's view of the verification ledger, and its try panel: an image from the analyst's
// disk or camera through liveness or age, on the same code path as the API products, in the test
// environment (free), recorded as one ledger row without a key.
import { ENVIRONMENTS } from '../../../../src-shared/catalog';
import { AgeSelfieResponse } from '../../../../src-shared/contracts/age';
import {
  ComplianceRequest, ComplianceResult, IdentityRequest, IdentityResult, ReportRequest, ReportResult,
} from '../../../../src-shared/contracts/documents';
import { LivenessResult } from '../../../../src-shared/contracts/faces';
import { TryAgeQuery, VerificationPage, VerificationQuery } from '../../../../src-shared/contracts/verifications';
import { ageBySelfie } from '../../core/app/age';
import { orgPayer, uploadDigest, type Call } from '../../core/app/call';
import { actorOf } from '../../core/audit/audit';
import { identity, kycPlus, kycReport } from '../../core/app/identity';
import { liveness } from '../../core/app/liveness';
import { callOf, reply } from '../call';
import type { Router } from '../router';
import type { AppEnv } from '../types';
import type { Context } from 'hono';
import { fileOf, THREE_IMAGES_JSON, UPLOAD_MAX_BYTES } from '../uploads';

const UPLOAD = { contentType: 'multipart/form-data', description: 'Field `file`: a JPEG, PNG or WebP image (at most 10 MB).' } as const;

/** The try panel works in test only: free, and never mixed into live figures. */
const tryCall = (c: Context<AppEnv>): Call => callOf(c, orgPayer(c.get('session').org.id, ENVIRONMENTS[0]));

export function verificationRoutes({ route, services }: Router): void {
  route({
    method: 'GET', path: '/api/verifications', auth: { kind: 'session' }, tags: ['verification'],
    summary: 'A page of the organisation\'s verification ledger in one environment, newest first',
    request: { query: VerificationQuery },
    responses: { 200: VerificationPage },
    handler: async (c, input) => c.json<VerificationPage>(await services.ledger.page(c.get('session').org.id, input.query())),
  });

  route({
    method: 'POST', path: '/api/console/try/liveness', auth: { kind: 'session', product: 'human' }, tags: ['verification'],
    summary: 'Try liveness on an image from the console (test environment, free)',
    request: { body: UPLOAD, maxBytes: UPLOAD_MAX_BYTES },
    responses: { 200: LivenessResult },
    handler: async (c, input) => reply(c, await liveness(services, tryCall(c), await fileOf(await input.form()))),
  });

  route({
    method: 'POST', path: '/api/console/try/age', auth: { kind: 'session', product: 'age' }, tags: ['verification'],
    summary: 'Try age by selfie on an image from the console (test environment, free)',
    request: { query: TryAgeQuery, body: UPLOAD, maxBytes: UPLOAD_MAX_BYTES },
    responses: { 200: AgeSelfieResponse },
    handler: async (c, input) => {
      const { min_age } = input.query();
      const bytes = await fileOf(await input.form());
      const body = { image_selfie_b64: { field: 'file', bytes }, min_age, use_case: 'custom' as const };
      return reply(c, await ageBySelfie(services, tryCall(c), body, uploadDigest(bytes)));
    },
  });

  route({
    method: 'POST', path: '/api/console/try/identity', auth: { kind: 'session', product: 'identity' }, tags: ['verification'],
    summary: 'Try identity (selfie + ID document) from the console (test environment, free)',
    request: { body: IdentityRequest, maxBytes: THREE_IMAGES_JSON },
    responses: { 200: IdentityResult },
    handler: async (c, input) => reply(c, await identity(services, tryCall(c), await input.body(), await input.text())),
  });

  route({
    method: 'POST', path: '/api/console/try/kyc', auth: { kind: 'session', product: 'compliance' }, tags: ['verification'],
    summary: 'Try KYC-plus (identity and screening of the document holder) from the console (test environment, free)',
    request: { body: ComplianceRequest, maxBytes: THREE_IMAGES_JSON },
    responses: { 200: ComplianceResult },
    handler: async (c, input) => reply(c, await kycPlus(services, tryCall(c), await input.body(), await input.text())),
  });

  route({
    method: 'POST', path: '/api/console/try/report', auth: { kind: 'session' }, tags: ['verification'],
    summary: 'The KYC report PDF of a console KYC-plus try, within its 30-minute window (test environment)',
    description: 'Audited (`kyc_report.generated`) with the verification id and whether the PDF is encrypted: the PDF is made and handed over in this one answer.',
    request: { body: ReportRequest },
    responses: { 200: ReportResult },
    handler: async (c, input) => {
      const call = tryCall(c);
      const body = await input.body();
      const report = await kycReport(services, call, body);
      const { org, user } = c.get('session');
      await services.audit.record({
        orgId: org.id, actor: actorOf(user), action: 'kyc_report.generated', env: call.payer.env, objectId: body.verification_id,
        to: report.encrypted ? 'encrypted' : 'not_encrypted',
      });
      return c.json<ReportResult>(report);
    },
  });
}
