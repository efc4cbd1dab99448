// The age product. Init is free and records nothing; the steps arrive with the face models.
import { AgeInitRequest, type AgeInitResponse } from '../../../../src-shared/contracts/age';
import { agePolicy } from '../../core/age/policy';
import type { Router } from '../app';
import { parseJson } from '../validate';

export function ageRoutes({ route }: Router): void {
  route('POST', '/api/v1/verify-age/init', { kind: 'key', scope: 'age', category: 'verification', product: 'age' }, async (c) => {
    const body = await parseJson(c, AgeInitRequest);
    const p = agePolicy(body.use_case, body.min_age, body.state_code);
    return c.json<AgeInitResponse>({ success: true, ...p });
  });
}
