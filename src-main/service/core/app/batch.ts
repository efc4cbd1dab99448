// The console's batch rescreen, as an analyst acts on it: open, cancel and finish, each with its
// audit row (ids and counts only). Rows are screened by `batches.processChunk` in the workers.
import type { z } from 'zod';
import type { BatchInfo, CreateBatchRequest } from '../../../../src-shared/contracts/batch';
import { AppError } from '../../../../src-shared/errors';
import type { Services } from '../../compose';
import type { SessionContext } from '../accounts/accounts';
import { actorOf } from '../audit/audit';

const counts = (info: BatchInfo) => ({ total: info.total_rows, done: info.processed, failed: info.errors });

/** Opens a batch rescreen (one per organisation) against the lists loaded now. */
export async function openBatch(s: Services, session: SessionContext, body: z.output<typeof CreateBatchRequest>): Promise<BatchInfo> {
  // A batch is billable work: not taken on while the disk is below its reserve (507).
  s.storage.require();
  const loaded = await s.screening.ready();
  if (!loaded) throw new AppError('provider_unavailable');
  const info = s.batches.create(session.org.id, body, loaded, s.organization.listFreshness(session.org.id));
  s.audit.record({ orgId: session.org.id, actor: actorOf(session.user), action: 'batch.created', batchId: info.id, env: info.env, counts: { total: info.total_rows } });
  return info;
}

/** Cancels a batch (rows already screened stay charged); audited when it was open. */
export async function cancelBatch(s: Services, session: SessionContext, id: string): Promise<BatchInfo> {
  const wasOpen = (await s.batches.info(session.org.id, id, null)).state === 'open';
  const info = s.batches.cancel(session.org.id, id, s.screening.current());
  if (wasOpen) s.audit.record({ orgId: session.org.id, actor: actorOf(session.user), action: 'batch.cancelled', batchId: info.id, env: info.env, counts: counts(info) });
  return info;
}

/** Finishes a batch, freeing the organisation's batch slot whatever the run's end; the row says how it ended. */
export async function finishBatch(s: Services, session: SessionContext, id: string): Promise<BatchInfo> {
  const info = await s.batches.finish(session.org.id, id, s.screening.current());
  s.audit.record({
    orgId: session.org.id, actor: actorOf(session.user), action: 'batch.finished', batchId: info.id, env: info.env, counts: counts(info), to: info.state,
  });
  return info;
}
