// GET /api/status/{verification_id}: the ledger row, for a key of the same organisation and
// environment. Any other id is "not found", so ids of other environments cannot be probed.
import { AppError } from '../../../../src-shared/errors';
import type { Router } from '../app';

export function statusRoutes({ route, services }: Router): void {
  route('GET', '/api/status/:verification_id', { kind: 'key', scope: null, category: 'read' }, (c) => {
    const key = c.get('key');
    const row = services.ledger.findForKey(c.req.param('verification_id') ?? '', key.orgId, key.env);
    if (!row) throw new AppError('verification_not_found');
    return c.json({
      verification_id: row.id,
      status: row.status,
      confidence: row.confidence,
      created_at: row.created_at,
      completed_at: row.completed_at,
    });
  });
}
