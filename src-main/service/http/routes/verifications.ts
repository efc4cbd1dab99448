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
import type { Payer } from '../../core/verification/billing';
import type { Router } from '../router';
import type { AppEnv } from '../types';
import type { Context } from 'hono';
import { selfieStep } from './age';
import { identity, kycPlus, report, THREE_IMAGES_JSON } from './documents';
import { fileOf, runLiveness, sha256, UPLOAD_MAX_BYTES } from './faces';

const UPLOAD = { contentType: 'multipart/form-data', description: 'Field `file`: a JPEG, PNG or WebP image (at most 10 MB).' } as const;

/** The try panel works in test only: free, and never mixed into live figures. */
const testPayer = (c: Context<AppEnv>): Payer => ({ id: null, orgId: c.get('session').org.id, env: ENVIRONMENTS[0], demo: false });

export function verificationRoutes({ route, services }: Router): void {
  route({
    method: 'GET', path: '/api/verifications', auth: { kind: 'session' }, tags: ['verification'],
    summary: 'A page of the organisation\'s verification ledger in one environment, newest first',
    request: { query: VerificationQuery },
    responses: { 200: VerificationPage },
    handler: (c, input) => c.json<VerificationPage>(services.ledger.page(c.get('session').org.id, input.query())),
  });

  route({
    method: 'POST', path: '/api/console/try/liveness', auth: { kind: 'session', product: 'human' }, tags: ['verification'],
    summary: 'Try liveness on an image from the console (test environment, free)',
    request: { body: UPLOAD, maxBytes: UPLOAD_MAX_BYTES },
    responses: { 200: LivenessResult },
    handler: async (c, input) => runLiveness(c, services, testPayer(c), fileOf(await input.form())),
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
      return selfieStep(c, services, body, sha256(bytes), testPayer(c));
    },
  });

  route({
    method: 'POST', path: '/api/console/try/identity', auth: { kind: 'session', product: 'identity' }, tags: ['verification'],
    summary: 'Try identity (selfie + ID document) from the console (test environment, free)',
    request: { body: IdentityRequest, maxBytes: THREE_IMAGES_JSON },
    responses: { 200: IdentityResult },
    handler: async (c, input) => identity(c, services, testPayer(c), await input.body(), await input.text()),
  });

  route({
    method: 'POST', path: '/api/console/try/kyc', auth: { kind: 'session', product: 'compliance' }, tags: ['verification'],
    summary: 'Try KYC-plus (identity and screening of the document holder) from the console (test environment, free)',
    request: { body: ComplianceRequest, maxBytes: THREE_IMAGES_JSON },
    responses: { 200: ComplianceResult },
    handler: async (c, input) => kycPlus(c, services, testPayer(c), await input.body(), await input.text()),
  });

  route({
    method: 'POST', path: '/api/console/try/report', auth: { kind: 'session' }, tags: ['verification'],
    summary: 'The KYC report PDF of a console KYC-plus try, within its 30-minute window (test environment)',
    request: { body: ReportRequest },
    responses: { 200: ReportResult },
    handler: async (c, input) => report(c, services, testPayer(c), await input.body()),
  });
}
