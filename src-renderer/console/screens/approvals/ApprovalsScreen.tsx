// Approvals (owners and admins): the organisation's cleared strong sanctions matches waiting for a
// second person, oldest first, read again every few seconds. Each is approved (it then counts as
// cleared) or sent back to its analyst with a note (the row is theirs to decide again), each after
// a confirmation, in the approver's own session. One's own clearance is shown but another owner or
// admin decides it. The queue shows what the service keeps (ids, codes, scores and evidence flags)
// and, while the analyst's batch is open, what the analyst saw: the customer, the listed people and
// their note, which the service holds in memory only; once that batch has ended it says so.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { CONTRADICTION_TEXT, SEND_BACK_NOTE_MAX, type ApprovalItem } from '../../../../src-shared/contracts/review';
import { may } from '../../../../src-shared/policy';
import { errorText } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { Badge } from '../../components/Badge';
import { REASON_INFO } from '../../components/batch/labels';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { Dialog } from '../../components/Dialog';
import { formatDateTime, formatNumber } from '../../components/format';
import { FormFooter } from '../../components/FormFooter';
import { LoadError } from '../../components/LoadError';
import { ScreenHeader } from '../../components/ScreenHeader';
import { KIND_SHORT } from '../../components/screening-labels';
import { TextArea } from '../../components/TextArea';
import { useSession } from '../../stores/session';
import { approvalsApi } from './approvals-api';
import { customerDetails, evidenceText, listedDetails, listedFor, NOT_HELD_TEXT, requester } from './approval-labels';
import './approvals.css';

const REFRESH_MS = 5000;

type Acting = { item: ApprovalItem; act: 'approve' | 'send_back' };

function Summary({ item }: { item: ApprovalItem }) {
  const listed = item.seen?.listed.map((l) => l.name).join('; ');
  return (
    <>
      <p>
        {item.seen ? <><strong>{item.seen.customer.name}</strong> ({customerDetails(item.seen.customer)}), row {item.row}</> : <>Row {item.row}</>} of batch{' '}
        <span className="mono">{item.batch_id}</span>{listed ? <> against <strong>{listed}</strong></> : null}, cleared by <strong>{requester(item)}</strong> on{' '}
        {formatDateTime(item.requested_at)} because: <strong>{REASON_INFO[item.reason_code].label}</strong>.
        {item.override ? <> The analyst overrode the evidence: {CONTRADICTION_TEXT[item.override]}.</> : null}
      </p>
      {item.seen?.note ? <p className="apr-note">Analyst’s note: {item.seen.note}</p> : null}
      {item.seen ? null : <p className="muted">{NOT_HELD_TEXT}.</p>}
    </>
  );
}

function ApproveDialog({ item, onClose, onDone }: { item: ApprovalItem; onClose: () => void; onDone: () => void }) {
  const formId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await approvalsApi.approve(item.id);
      onDone();
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };
  return (
    <Dialog
      title="Approve this clearance?"
      onClose={onClose}
      busy={busy}
      testId="approvals-approve-dialog"
      description={<Summary item={item} />}
      footer={<FormFooter formId={formId} busy={busy} onCancel={onClose} submitLabel="Approve" busyLabel="Approving…" submitTestId="approvals-approve-confirm" />}
    >
      <form id={formId} className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {error ? <Alert testId="approvals-approve-error">{error}</Alert> : null}
        <p className="muted">
          Once you approve it, the match counts as cleared (a false positive) in {requester(item)}’s review, and the audit log records that you approved it.
        </p>
      </form>
    </Dialog>
  );
}

function SendBackDialog({ item, onClose, onDone }: { item: ApprovalItem; onClose: () => void; onDone: (kept: boolean) => void }) {
  const formId = useId();
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (note.trim() === '') {
      setNoteError('Say why it goes back: the analyst reads this note.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const r = await approvalsApi.sendBack(item.id, note.trim());
      onDone(r.note_kept);
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };
  return (
    <Dialog
      title="Send this clearance back?"
      onClose={onClose}
      busy={busy}
      testId="approvals-send-back-dialog"
      description={<Summary item={item} />}
      footer={<FormFooter formId={formId} busy={busy} onCancel={onClose} submitLabel="Send back" busyLabel="Sending back…" submitTestId="approvals-send-back-confirm" />}
    >
      <form id={formId} className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {error ? <Alert testId="approvals-send-back-error">{error}</Alert> : null}
        <TextArea
          id={`${formId}-note`} label="Note for the analyst" value={note} rows={4} maxLength={SEND_BACK_NOTE_MAX} error={noteError} testId="approvals-send-back-note"
          onChange={(v) => {
            setNote(v);
            setNoteError(undefined);
          }}
          hint={<>The row is undecided again in {requester(item)}’s review, with your note beside it. The service holds the note in memory for their batch only: it is never saved, and the audit log records only that you sent it back.</>}
        />
      </form>
    </Dialog>
  );
}

export function ApprovalsScreen() {
  const user = useSession((s) => s.session?.user);
  const allowed = may(user?.role, 'review.approve');
  const queue = useResource((signal) => (allowed ? approvalsApi.list(signal) : Promise.resolve(null)), [allowed]);
  const [acting, setActing] = useState<Acting | null>(null);
  const [notice, setNotice] = useState<{ tone: 'success' | 'warning'; text: string } | null>(null);
  const { reload } = queue;

  useEffect(() => {
    if (!allowed) return;
    const t = setInterval(reload, REFRESH_MS);
    return () => clearInterval(t);
  }, [allowed, reload]);

  if (!allowed) {
    return (
      <>
        <ScreenHeader title="Approvals" />
        <section className="panel placeholder" data-testid="approvals-not-allowed">
          <h2>Only owners and admins approve clearances</h2>
          <p>When four-eyes is on, a strong sanctions match you clear waits for an owner or admin; your Risk review shows what they decided.</p>
        </section>
      </>
    );
  }

  const list = queue.data?.clearances ?? [];
  const done = (text: string, tone: 'success' | 'warning' = 'success') => {
    setActing(null);
    setNotice({ tone, text });
    reload();
  };

  const columns: GridColumn<ApprovalItem>[] = [
    {
      id: 'requested', header: 'Cleared by', width: 'minmax(180px, 1.3fr)',
      cell: (c) => (
        <span className="cell-stack">
          <span className="cell-strong" data-testid="approvals-requester">
            {requester(c)} {c.yours ? <Badge tone="info">You</Badge> : null}
          </span>
          <time className="muted" dateTime={c.requested_at} title={c.requested_at}>{formatDateTime(c.requested_at)}</time>
        </span>
      ),
    },
    {
      id: 'customer', header: 'Customer', width: 'minmax(200px, 1.5fr)',
      cell: (c) => (
        <span className="cell-stack">
          {c.seen ? (
            <>
              <span className="cell-strong" data-testid="approvals-customer">{c.seen.customer.name}</span>
              <span className="muted apr-small" data-testid="approvals-customer-details">{customerDetails(c.seen.customer)}</span>
            </>
          ) : (
            <span className="muted apr-small" data-testid="approvals-not-held" title="The service held the customer's details in memory only while the analyst's batch was open">
              {NOT_HELD_TEXT}
            </span>
          )}
          <span className="muted apr-small apr-ellipsis" title={c.batch_id}>Row {formatNumber(c.row)} · <span className="mono">{c.batch_id}</span></span>
        </span>
      ),
    },
    {
      id: 'reason', header: 'Reason', width: 'minmax(200px, 1.4fr)',
      cell: (c) => (
        <span className="cell-stack">
          <span data-testid="approvals-reason" data-reason={c.reason_code}>{REASON_INFO[c.reason_code].label}</span>
          <span className="apr-tags">
            {c.override ? <Badge tone="negative" title={CONTRADICTION_TEXT[c.override]}>Overrides the evidence</Badge> : null}
            {c.has_note && !c.seen?.note ? <span className="muted">with a note (no longer held)</span> : null}
          </span>
          {c.seen?.note ? <span className="apr-note" data-testid="approvals-note">“{c.seen.note}”</span> : null}
        </span>
      ),
    },
    {
      id: 'matches', header: 'Matches cleared', width: 'minmax(260px, 2fr)',
      cell: (c) => (
        <ul className="apr-matches" data-testid="approvals-matches">
          {c.matches.map((m) => {
            const listed = listedFor(c, m);
            return (
              <li key={m.entity_id} data-entity-id={m.entity_id}>
                {listed ? (
                  <span className="apr-listed">
                    <strong data-testid="approvals-listed-name">{listed.name}</strong> <span className="muted apr-small">{listedDetails(listed)}</span>
                  </span>
                ) : <span className="mono apr-small">{m.entity_id}</span>}
                <span><strong>{m.list ? KIND_SHORT[m.list] : 'List'} {m.score ?? '?'}</strong> <span className="muted">{evidenceText(m)}</span></span>
              </li>
            );
          })}
        </ul>
      ),
    },
    // One control per cell: the grid's arrow keys reach each (DataGrid focuses a cell's first control).
    {
      id: 'approve', header: <span className="visually-hidden">Approve</span>, width: '118px', nowrap: true,
      cell: (c) => (c.yours ? (
        <span className="muted apr-small" data-testid="approvals-yours" title="Another owner or admin decides a clearance you asked for">Yours</span>
      ) : (
        <button type="button" className="btn btn-small btn-primary" onClick={() => setActing({ item: c, act: 'approve' })} data-testid="approvals-approve"
          aria-label={`Approve row ${c.row}, cleared by ${requester(c)}`}>
          Approve…
        </button>
      )),
    },
    {
      id: 'send-back', header: <span className="visually-hidden">Send back</span>, width: '128px', nowrap: true,
      cell: (c) => (c.yours ? null : (
        <button type="button" className="btn btn-small" onClick={() => setActing({ item: c, act: 'send_back' })} data-testid="approvals-send-back"
          aria-label={`Send back row ${c.row}, cleared by ${requester(c)}`}>
          Send back…
        </button>
      )),
    },
  ];

  return (
    <>
      <ScreenHeader
        title="Approvals"
        summary="Cleared strong sanctions matches waiting for a second person. Approve one to make it count, or send it back to its analyst with a note."
      />
      {notice ? <Alert tone={notice.tone} testId="approvals-notice">{notice.text}</Alert> : null}
      <section className="panel" aria-labelledby="approvals-heading" aria-busy={queue.loading} data-testid="approvals">
        <div className="panel-header">
          <h2 id="approvals-heading">Waiting for approval</h2>
          <span className="muted" data-testid="approvals-count" data-count={queue.data ? queue.data.waiting : ''}>
            {queue.data ? `${formatNumber(queue.data.waiting)} waiting${queue.data.waiting > list.length ? ` (the oldest ${formatNumber(list.length)} shown)` : ''}` : 'Loading…'}
          </span>
        </div>
        <LoadError testId="approvals-error" title="Could not load the clearances waiting for approval." error={queue.error} onRetry={reload} />
        <DataGrid
          label="Clearances waiting for approval"
          rows={list}
          columns={columns}
          getRowKey={(c) => c.id}
          testId="approvals-table"
          rowTestId="approvals-row"
          rowAttributes={(c) => ({ 'data-clearance': c.id, 'data-row': c.row, 'data-yours': c.yours })}
          empty={queue.loading && !queue.data ? 'Loading…' : <span data-testid="approvals-empty">Nothing is waiting for approval.</span>}
        />
        <p className="muted apr-footnote">
          The service keeps ids, the reason, scores and evidence flags of each clearance. The customer, the listed people and the analyst’s note are what
          the analyst saw: the service holds them in memory only, never on disk, while the analyst’s batch is open (until they start another batch or
          sign out, for at most 12 hours).
        </p>
      </section>
      {acting?.act === 'approve' ? (
        <ApproveDialog
          item={acting.item}
          onClose={() => setActing(null)}
          onDone={() => done(`Approved: row ${acting.item.row} of ${requester(acting.item)}’s batch now counts as cleared.`)}
        />
      ) : null}
      {acting?.act === 'send_back' ? (
        <SendBackDialog
          item={acting.item}
          onClose={() => setActing(null)}
          onDone={(kept) => (kept
            ? done(`Sent back: row ${acting.item.row} is undecided again in ${requester(acting.item)}’s review, with your note.`)
            : done(`Sent back: row ${acting.item.row} is undecided again, but ${requester(acting.item)} has started another batch since, so your note was not kept for them.`, 'warning'))}
        />
      ) : null}
    </>
  );
}
