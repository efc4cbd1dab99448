// Risk review of a batch rescreen: each disposition is recorded (ids and codes; the analyst's note
// stays in the console), and a cleared strong sanctions match waiting for four-eyes approval is
// approved at the analyst's desk by a second person signing in with their own credentials.
import { ApproveRequest, ApproveResponse, DispositionRequest, DispositionResponse } from '../../../../src-shared/contracts/review';
import { AppError, isAppError } from '../../../../src-shared/errors';
import type { Router } from '../router';
import { setRateHeaders } from '../auth';

/** Failed approvals per signed-in analyst: 5, then one more every 3 minutes (a desk guessing a password). */
export const APPROVAL_FAILURES = { rps: 1 / 180, burst: 5 } as const;

export function reviewRoutes({ route, services }: Router): void {
  const TAGS = ['review'];

  route({
    method: 'POST', path: '/api/review/dispositions', auth: { kind: 'session' }, tags: TAGS,
    summary: 'Record (or take away) the disposition of a batch result row',
    request: { body: DispositionRequest },
    responses: { 200: DispositionResponse },
    handler: async (c, input) => {
      const body = await input.body();
      return c.json<DispositionResponse>(services.review.decide(c.get('session'), body));
    },
  });

  route({
    method: 'POST', path: '/api/review/clearances/:id/approve', auth: { kind: 'session' }, tags: TAGS,
    summary: 'A second owner or admin approves a pending clearance at the analyst\'s desk',
    request: { body: ApproveRequest },
    responses: { 200: ApproveResponse },
    handler: async (c, input) => {
      const session = c.get('session');
      const bucket = `approve:${session.user.id}`;
      const d = services.limiter.peek(bucket, APPROVAL_FAILURES);
      if (!d.allowed) {
        setRateHeaders(c, d);
        throw new AppError('too_many_attempts');
      }
      const body = await input.body();
      try {
        const clearance = await services.review.approve(session, c.req.param('id') ?? '', body.email, body.password);
        return c.json<ApproveResponse>({ clearance });
      } catch (e) {
        if (isAppError(e) && (e.code === 'invalid_approver' || e.code === 'approver_not_allowed')) {
          services.limiter.take(bucket, APPROVAL_FAILURES);
          services.logger.info('approval_refused', { user_id: session.user.id, code: e.code });
        }
        throw e;
      }
    },
  });
}
