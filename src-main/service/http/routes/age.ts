// The age product. Init is free and records nothing; the steps arrive with the face models.
import { AgeInitRequest, AgeInitResponse } from '../../../../src-shared/contracts/age';
import { agePolicy } from '../../core/age/policy';
import type { Router } from '../router';

export function ageRoutes({ route }: Router): void {
  route({
    method: 'POST', path: '/api/v1/verify-age/init', auth: { kind: 'key', scope: 'age', category: 'verification', product: 'age' }, tags: ['age'],
    summary: 'Start an age verification: the policy for a use case and state (free)',
    request: { body: AgeInitRequest },
    responses: { 200: AgeInitResponse },
    handler: async (c, input) => {
      const body = await input.body();
      const p = agePolicy(body.use_case, body.min_age, body.state_code);
      return c.json<AgeInitResponse>({ success: true, ...p });
    },
  });
}
