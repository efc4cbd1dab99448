// Open batches (owners and admins): every batch rescreen open in the organisation, whoever runs
// it, with its progress and last activity, read again every few seconds; End stops one after a
// confirmation (audited; its analyst is told an administrator ended it). Members never see it:
// the Batch screen leaves it out and the service refuses them its routes.
import { useEffect, useMemo, useState } from 'react';
import type { OpenBatch } from '../../../../src-shared/contracts/batch';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { ConfirmRemoveDialog } from '../../components/ConfirmRemoveDialog';
import { DataGrid } from '../../components/DataGrid';
import { formatNumber } from '../../components/format';
import { LoadError } from '../../components/LoadError';
import { batchApi } from './batch-api';
import { analystName, openBatchColumns } from './open-batch-columns';

const REFRESH_MS = 5000;

export function OpenBatchesPanel({ viewerId }: { viewerId: number }) {
  const batches = useResource((signal) => batchApi.open(signal), []);
  const [ending, setEnding] = useState<OpenBatch | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { reload } = batches;

  useEffect(() => {
    const t = setInterval(reload, REFRESH_MS);
    return () => clearInterval(t);
  }, [reload]);

  const columns = useMemo(() => openBatchColumns(viewerId, setEnding), [viewerId]);
  const list = batches.data?.batches ?? [];
  const end = async (b: OpenBatch) => {
    await batchApi.end(b.id);
    setEnding(null);
    setNotice(`The batch of ${analystName(b)} was ended after ${formatNumber(b.processed)} of ${formatNumber(b.total_rows)} rows. They are told an administrator ended it.`);
    reload();
  };

  return (
    <section className="panel" aria-labelledby="open-batches-heading" aria-busy={batches.loading} data-testid="open-batches">
      <div className="panel-header">
        <h2 id="open-batches-heading">Open batches</h2>
        <span className="muted" data-testid="open-batches-count" data-count={batches.data ? list.length : ''}>
          {batches.data ? `${list.length} open · at most ${batches.data.limit} at once, one per analyst` : 'Loading…'}
        </span>
      </div>
      {notice ? <Alert tone="success" testId="open-batches-notice">{notice}</Alert> : null}
      <LoadError testId="open-batches-error" title="Could not load the open batches." error={batches.error} onRetry={reload} />
      <DataGrid
        label="Open batches"
        rows={list}
        columns={columns}
        getRowKey={(b) => b.id}
        testId="open-batches-table"
        rowTestId="open-batch-row"
        rowAttributes={(b) => ({ 'data-batch': b.id, 'data-user': b.user.user_id })}
        empty={batches.loading && !batches.data ? 'Loading open batches…' : 'No batch is running in your organization.'}
      />
      {ending ? (
        <ConfirmRemoveDialog
          title="End this batch?"
          body={
            <>
              The {ending.env === 'live' ? 'live' : 'test'} batch of {analystName(ending)} stops now, after {formatNumber(ending.processed)} of{' '}
              {formatNumber(ending.total_rows)} rows{ending.env === 'live' ? ' (the rows screened so far stay charged)' : ''}. Their console says an
              administrator ended it; the audit log records that you did.
            </>
          }
          keepLabel="Keep it running"
          confirmLabel="End batch"
          busyLabel="Ending…"
          onConfirm={() => end(ending)}
          onClose={() => setEnding(null)}
          testId="batch"
        />
      ) : null}
    </section>
  );
}
