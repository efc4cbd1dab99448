// GET /api/status/{verification_id}: the ledger row, for a key of the same organisation and
// environment. Any other id is "not found", so ids of other environments cannot be probed.
import { VerificationStatus } from '../../../../src-shared/contracts/status';
import { AppError } from '../../../../src-shared/errors';
import type { Router } from '../router';

export function statusRoutes({ route, services }: Router): void {
  route({
    method: 'GET', path: '/api/status/:verification_id', auth: { kind: 'key', scope: null, category: 'read' }, tags: ['verification'],
    summary: 'Status of a verification or screening attempt',
    responses: { 200: VerificationStatus },
    handler: async (c) => {
      const key = c.get('key');
      const row = await services.ledger.findForKey(c.req.param('verification_id') ?? '', key.orgId, key.env);
      if (!row) throw new AppError('verification_not_found');
      return c.json<VerificationStatus>({
        verification_id: row.id,
        status: row.status,
        confidence: row.confidence,
        created_at: row.created_at,
        completed_at: row.completed_at,
      });
    },
  });
}
