// Risk review of a batch rescreen: each disposition is recorded (ids and codes; the analyst's note
// stays in the console). A cleared strong sanctions match waiting for four-eyes approval is
// approved or sent back with a note by an owner or admin in the approval queue, in their own
// session; the analyst's console reads what became of its clearances. The earlier way, a second
// person's credentials typed at the analyst's desk, still works (docs/decisions.md).
import {
  ApprovalQueue, ApproveRequest, ApproveResponse, ClearanceOutcomes, ClearanceOutcomesQuery, DispositionRequest, DispositionResponse, SendBackRequest,
  SendBackResponse,
} from '../../../../src-shared/contracts/review';
import { AppError, isAppError } from '../../../../src-shared/errors';
import type { Router } from '../router';
import { setRateHeaders } from '../auth';

/** Failed approvals per signed-in analyst: 5, then one more every 3 minutes (a desk guessing a password). */
export const APPROVAL_FAILURES = { rps: 1 / 180, burst: 5 } as const;

const APPROVERS = { kind: 'session', act: 'review.approve' } as const;

export function reviewRoutes({ route, services }: Router): void {
  const TAGS = ['review'];

  route({
    method: 'POST', path: '/api/review/dispositions', auth: { kind: 'session' }, tags: TAGS,
    summary: 'Record (or take away) the disposition of a batch result row',
    request: { body: DispositionRequest },
    responses: { 200: DispositionResponse },
    handler: async (c, input) => {
      const body = await input.body();
      return c.json<DispositionResponse>(await services.review.decide(c.get('session'), body));
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
      const d = await services.limiter.peek(bucket, APPROVAL_FAILURES);
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
          await services.limiter.take(bucket, APPROVAL_FAILURES);
          services.logger.info('approval_refused', { user_id: session.user.id, code: e.code });
        }
        throw e;
      }
    },
  });

  route({
    method: 'GET', path: '/api/review/approvals', auth: APPROVERS, tags: TAGS,
    summary: 'The approval queue: clearances of the organisation waiting for a second person (owners and admins)',
    description: 'Oldest first, at most 500; `waiting` counts them all (the number Home shows). Ids, codes, scores and evidence flags from the database and, while the analyst\'s batch is open, what the analyst saw (customer, listed people, note) from service memory, never stored; `seen` is null once that batch has ended. `yours` marks the viewer\'s own clearances, which another owner or admin must approve. Sent with `Cache-Control: no-store`.',
    responses: { 200: ApprovalQueue },
    handler: async (c) => c.json<ApprovalQueue>(await services.review.queue(c.get('session'))),
  });

  route({
    method: 'POST', path: '/api/review/approvals/:id/approve', auth: APPROVERS, tags: TAGS,
    summary: 'Approve a waiting clearance in one\'s own session (never one\'s own)',
    description: '404 for a clearance of another organisation, 403 for one\'s own, 409 once it is no longer waiting.',
    responses: { 200: ApproveResponse },
    handler: async (c) => c.json<ApproveResponse>({ clearance: await services.review.approveInSession(c.get('session'), c.req.param('id') ?? '') }),
  });

  route({
    method: 'POST', path: '/api/review/approvals/:id/send-back', auth: APPROVERS, tags: TAGS,
    summary: 'Send a waiting clearance back to its analyst with a note; the row is undecided again',
    description: 'The note is held in service memory for the analyst\'s batch and never stored; the audit log records that it was sent back. 404 for a clearance of another organisation, 403 for one\'s own, 409 once it is no longer waiting.',
    request: { body: SendBackRequest },
    responses: { 200: SendBackResponse },
    handler: async (c, input) => {
      const body = await input.body();
      return c.json<SendBackResponse>(await services.review.sendBack(c.get('session'), c.req.param('id') ?? '', body.note));
    },
  });

  route({
    method: 'GET', path: '/api/review/clearances', auth: { kind: 'session' }, tags: TAGS,
    summary: 'What became of the clearances one asked for in a batch: waiting, approved or sent back (with the note)',
    description: 'Only the caller\'s own clearances; another analyst\'s batch answers an empty list. A sent-back note is read from service memory (null once it is gone).',
    request: { query: ClearanceOutcomesQuery },
    responses: { 200: ClearanceOutcomes },
    handler: async (c, input) => c.json<ClearanceOutcomes>({ clearances: await services.review.outcomes(c.get('session'), input.query().batch_id) }),
  });
}
