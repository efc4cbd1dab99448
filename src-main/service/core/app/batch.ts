// The console's batch rescreen, as an analyst acts on it: open, cancel and finish their own
// batch, each with its audit row (ids and counts only); owners and admins list every open batch
// of the organisation and end anyone's (audited as who ended whose). Rows are screened by
// `batches.processChunk` in the workers; an idle batch's expiry is audited by `auditExpiry`.
import type { z } from 'zod';
import type { BatchInfo, CreateBatchRequest, OpenBatchList } from '../../../../src-shared/contracts/batch';
import { BATCH_LIMITS } from '../../../../src-shared/contracts/batch';
import type { Accounts, SessionContext } from '../accounts/accounts';
import type { Organization } from '../accounts/organization';
import { actorOf, type Audit } from '../audit/audit';
import type { Review } from '../review/review';
import type { BatchOwner, Batches, EndedBatch } from '../screening/batch';
import type { Screening } from '../screening/service';
import type { Storage } from '../storage/storage';

/** What the batch use cases use: the batches in memory, the lists loaded, the audit log, the review queue's batch links, and who a user is. */
export interface BatchDeps {
  batches: Batches;
  screening: Screening;
  audit: Audit;
  review: Review;
  organization: Organization;
  accounts: Accounts;
  storage: Storage;
}

const counts = (info: BatchInfo) => ({ total: info.total_rows, done: info.processed, failed: info.errors });

/** The analyst signed in: a batch is theirs alone. */
export const ownerOf = (session: SessionContext): BatchOwner => ({ orgId: session.org.id, userId: session.user.id });

/** Opens the analyst's batch rescreen (one each) against the lists loaded now. */
export async function openBatch(s: BatchDeps, session: SessionContext, body: z.output<typeof CreateBatchRequest>): Promise<BatchInfo> {
  // A batch is billable work: not taken on while the disk is below its reserve (507).
  s.storage.require();
  const loaded = await s.screening.ready();
  if (!loaded) throw s.screening.unavailable();
  const info = await s.batches.create(ownerOf(session), body, loaded, await s.organization.listFreshness(session.org.id));
  // The console replaces the last batch's results with this one's: notes sent back about those go.
  s.review.batchOpened(session.org.id, session.user.id, info.id);
  await s.audit.record({ orgId: session.org.id, actor: actorOf(session.user), action: 'batch.created', batchId: info.id, env: info.env, counts: { total: info.total_rows } });
  return info;
}

/** Cancels the analyst's batch (rows already screened stay charged); audited when it was open. */
export async function cancelBatch(s: BatchDeps, session: SessionContext, id: string): Promise<BatchInfo> {
  const wasOpen = (await s.batches.info(ownerOf(session), id, null)).state === 'open';
  const info = await s.batches.cancel(ownerOf(session), id, s.screening.current());
  if (wasOpen) await s.audit.record({ orgId: session.org.id, actor: actorOf(session.user), action: 'batch.cancelled', batchId: info.id, env: info.env, counts: counts(info) });
  return info;
}

/** Finishes the analyst's batch, freeing their batch slot whatever the run's end; the row says how it ended. */
export async function finishBatch(s: BatchDeps, session: SessionContext, id: string): Promise<BatchInfo> {
  const info = await s.batches.finish(ownerOf(session), id, s.screening.current());
  await s.audit.record({
    orgId: session.org.id, actor: actorOf(session.user), action: 'batch.finished', batchId: info.id, env: info.env, counts: counts(info), to: info.state,
  });
  return info;
}

/** Every open batch of the organisation with whose it is (owners and admins: the route's act). */
export async function listOpenBatches(s: BatchDeps, session: SessionContext): Promise<OpenBatchList> {
  return {
    // One batch per analyst: each user is looked up once.
    batches: await Promise.all((await s.batches.open(session.org.id)).map(async ({ user_id, ...b }) => {
      const u = await s.accounts.userById(user_id);
      return { ...b, user: { user_id, email: u?.email ?? null, name: u?.name ?? null } };
    })),
    limit: BATCH_LIMITS.openPerOrganization,
  };
}

/**
 * An owner or admin ends an open batch of the organisation, their own or another analyst's. The
 * audit row (`batch.cancelled`, the target being whose batch it was) is written first: a batch
 * is never ended unaudited.
 */
export async function endBatch(s: BatchDeps, session: SessionContext, id: string): Promise<BatchInfo> {
  const target = await s.batches.whose(session.org.id, id);
  const ended: BatchInfo = { ...target.info, state: 'cancelled', ended_by: 'administrator' };
  await s.audit.record({
    orgId: session.org.id, actor: actorOf(session.user), action: 'batch.cancelled', batchId: id, env: ended.env, counts: counts(ended),
    targetUserId: target.userId,
  });
  return s.batches.end(session.org.id, id).info;
}

/** The audit row of an idle batch's expiry: nobody did it, so the actor is the service itself. */
export async function auditExpiry(audit: Audit, e: EndedBatch): Promise<void> {
  await audit.record({
    orgId: e.orgId, actor: { kind: 'system' }, action: 'batch.expired', batchId: e.info.id, env: e.info.env, counts: counts(e.info),
    targetUserId: e.userId,
  });
}
