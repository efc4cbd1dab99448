// Risk review: the last batch's rows whose risk went up or down or that have new matches,
// keyboard-first. J/K move, Enter or O opens the match explanation, C/E/N set a disposition
// (cleared as false positive, escalated, needs info) and U undoes; the single keys can be
// switched off, Esc closes. Each disposition is recorded in the service's audit log (ids and
// codes); the rows, notes and dispositions themselves live in memory and go out in the saved CSV.
// Clearing a strong sanctions match asks for a reason, and with four-eyes on waits for a second
// person: an owner or admin approves it or sends it back with a note in their Approvals queue
// (this screen learns the outcome while any wait), or signs in here to approve it at this desk.
import { useEffect, useEffectEvent, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { api } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { href } from '../../app/router';
import { Alert } from '../../components/Alert';
import { Badge } from '../../components/Badge';
import { DataGrid, useGridModel, type GridColumn, type SortingState } from '../../components/DataGrid';
import { formatNumber } from '../../components/format';
import { ScreenHeader } from '../../components/ScreenHeader';
import { CHANGE_INFO, LEVEL_LABEL, LEVEL_TONE } from '../../components/screening-labels';
import { useBatch, type BatchEntry, type DecisionRecord, type Disposition, type SentBack } from '../../stores/batch';
import { DISPOSITION_INFO, EARLIER_LABEL, fullName, REASON_INFO } from '../../components/batch/labels';
import { TopMatchCell } from '../../components/batch/result-cells';
import { byDecision, byName, byRisk, byRiskChange } from '../../components/batch/compare';
import { countEntries } from '../../components/batch/summary';
import { useDiscardGuard } from '../../components/batch/use-discard-guard';
import { useSaveResults } from '../../components/batch/use-save-results';
import { ApproveDialog } from './ApproveDialog';
import { ClearReasonDialog } from './ClearReasonDialog';
import { ReviewDetail } from './ReviewDetail';
import { FILTER_LABEL, FILTERS, inFilter, isReviewFilter, matchesQuery, type ReviewFilter } from './review-filter';
import { needsReason, useDecisions, type Choice } from './use-decisions';
import { useClearanceOutcomes, type Settled } from './use-clearance-outcomes';
import './review.css';

const KEY_TO_DISPOSITION: Record<string, Disposition> = { c: 'cleared_false_positive', e: 'escalated', n: 'needs_info' };
const DEFAULT_SORT: SortingState = [{ id: 'risk', desc: true }];

function RiskMove({ entry }: { entry: BatchEntry }) {
  const r = entry.result;
  if (!r) return <Badge tone="neutral">Not screened</Badge>;
  const prev = entry.input.previous;
  return (
    <span className="rev-move" data-testid="review-risk" data-score={r.risk.score} data-level={r.risk.level}>
      {prev ? (
        <>
          <span className="muted">{LEVEL_LABEL[prev.risk_level]} {prev.risk_score}</span>
          <span aria-label="to" className="muted"> → </span>
        </>
      ) : null}
      <Badge tone={LEVEL_TONE[r.risk.level]}>{LEVEL_LABEL[r.risk.level]}</Badge>
      <span className="bat-score">{r.risk.score}</span>
    </span>
  );
}

export function ReviewScreen() {
  const entries = useBatch((s) => s.entries);
  const runId = useBatch((s) => s.runId);
  const run = useBatch((s) => s.run);
  const fileName = useBatch((s) => s.parse.fileName);
  const dispositions = useBatch((s) => s.dispositions);
  const sentBack = useBatch((s) => s.sentBack);
  const singleKeys = useBatch((s) => s.singleKeys);
  const setSingleKeys = useBatch((s) => s.setSingleKeys);
  const approvedInStore = useBatch((s) => s.approved);
  const discard = useBatch((s) => s.discard);
  const canUndo = useBatch((s) => s.undo.length > 0);
  const { save, saving, notice } = useSaveResults();
  const { guard, dialog: discardDialog } = useDiscardGuard(save);

  const decisions = useDecisions();
  const settings = useResource((signal) => api.settings(signal), []);
  const [asking, setAsking] = useState<{ entry: BatchEntry; advance: boolean } | null>(null);
  const [approving, setApproving] = useState<BatchEntry | null>(null);
  const [filter, setFilter] = useState<ReviewFilter>('increased');
  const [sorting, setSorting] = useState<SortingState>(DEFAULT_SORT);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [expanded, setExpanded] = useState<number | null>(null);
  const [focusSignal, setFocusSignal] = useState(0);
  const [announce, setAnnounce] = useState('');
  const gridBox = useRef<HTMLDivElement>(null);
  const [outcomeNotice, setOutcomeNotice] = useState<string | null>(null);

  // Clearances waiting for a second person: the service is asked what became of them.
  const waiting = useMemo(() => [...dispositions.values()].some((d) => d.approval?.state === 'pending'), [dispositions]);
  useClearanceOutcomes(run?.batchId ?? null, waiting, (done: Settled[]) => {
    const nameOf = (row: number) => {
      const e = entries.find((x) => x.input.row === row);
      return e ? `Row ${row}, ${fullName(e.input)}` : `Row ${row}`;
    };
    const text = done.map(({ row, outcome }) => (outcome.state === 'approved'
      ? `${nameOf(row)}: clearance approved by ${outcome.by}.`
      : `${nameOf(row)}: clearance sent back by ${outcome.by}${outcome.note ? `: “${outcome.note}”` : ''}. Decide it again.`)).join(' ');
    setOutcomeNotice(text);
    setAnnounce(text);
  });

  const counts = useMemo(() => countEntries(entries), [entries]);
  const filterCount: Record<ReviewFilter, number> = {
    increased: counts.increased, decreased: counts.decreased, new: counts.newMatches, all: entries.length,
  };

  // The review opens on the first tab that has rows (increases first), and moves off an empty
  // tab as rows arrive; a tab the analyst picked stays picked.
  const [picked, setPicked] = useState(false);
  const opening = picked || filterCount[filter] > 0 ? null : (FILTERS.find((f) => filterCount[f] > 0) ?? null);
  useEffect(() => {
    if (opening) setFilter(opening);
  }, [opening]);
  const pickFilter = (f: ReviewFilter) => {
    setPicked(true);
    setFilter(f);
  };
  /** Left/Right (wrapping), Home and End select and focus another tab (automatic activation). */
  const onTabKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = FILTERS.indexOf(filter);
    const to = e.key === 'ArrowRight' ? (at + 1) % FILTERS.length
      : e.key === 'ArrowLeft' ? (at - 1 + FILTERS.length) % FILTERS.length
        : e.key === 'Home' ? 0 : e.key === 'End' ? FILTERS.length - 1 : -1;
    if (to < 0) return;
    e.preventDefault();
    e.stopPropagation();
    const next = FILTERS[to]!;
    pickFilter(next);
    document.getElementById(`review-tab-${next}`)?.focus();
  };

  // A new filter, order, search or run starts at the top with nothing open (a decision does not).
  useEffect(() => {
    setActive(0);
    setExpanded(null);
  }, [filter, sorting, query, runId]);

  const toggle = (entry: BatchEntry | undefined) => {
    if (!entry) return;
    setExpanded((cur) => (cur === entry.input.row ? null : entry.input.row));
  };

  const columns: GridColumn<BatchEntry>[] = [
    {
      id: 'row', header: 'Row', width: '92px',
      cell: (e) => (
        <button
          type="button"
          className="rev-toggle"
          aria-expanded={expanded === e.input.row}
          aria-label={`${expanded === e.input.row ? 'Hide' : 'Show'} the match explanation for row ${e.input.row}`}
          onClick={() => toggle(e)}
          data-testid="review-toggle"
        >
          <span className="rev-chevron" aria-hidden="true" />
          <span>{e.input.row}</span>
        </button>
      ),
    },
    {
      id: 'name', header: 'Customer', width: 'minmax(0, 1.5fr)', compare: byName, filter: matchesQuery,
      cell: (e) => (
        <span className="cell-stack">
          <span className="cell-strong bat-ellipsis" data-testid="review-name">{fullName(e.input)}</span>
          <span className="muted bat-ellipsis mono">{e.input.client_reference_id || '—'}</span>
        </span>
      ),
    },
    { id: 'risk', header: 'Risk', width: '196px', compare: byRisk, firstSort: 'descending', cell: (e) => <RiskMove entry={e} /> },
    {
      id: 'change', header: 'Change', width: '150px', compare: byRiskChange, firstSort: 'descending',
      filter: (e, f) => isReviewFilter(f) && inFilter(e, f),
      cell: (e) => {
        if (!e.result) return <span className="muted">—</span>;
        const info = CHANGE_INFO[e.result.risk_change];
        return (
          <span data-testid="review-change" data-change={e.result.risk_change}>
            <Badge tone={info.tone}>{info.arrow ? `${info.arrow} ` : ''}{info.label}</Badge>
          </span>
        );
      },
    },
    { id: 'match', header: 'Top match', width: 'minmax(0, 1.8fr)', cell: (e) => <TopMatchCell entry={e} /> },
    {
      id: 'disposition', header: 'Disposition', width: '250px', compare: byDecision,
      cell: (e) => <DispositionCell entry={e} decision={e.decision} sentBack={sentBack.get(e.input.row)} onApprove={() => setApproving(e)} />,
    },
  ];

  // The table model sorts and filters; `rows` is what the grid shows, in its order (J/K walk it).
  const model = useGridModel({
    rows: entries,
    columns,
    getRowKey: (e) => e.input.row,
    sorting,
    onSortingChange: setSorting,
    filters: { change: filter === 'all' ? '' : filter, name: query },
  });
  const rows = model.rows;
  const reviewed = useMemo(() => rows.reduce((n, e) => n + (e.decision ? 1 : 0), 0), [rows]);
  const current = rows[Math.min(active, rows.length - 1)];
  const indexOf = (entry: BatchEntry) => rows.findIndex((e) => e.input.row === entry.input.row);

  const goTo = (index: number) => {
    const next = Math.max(0, Math.min(rows.length - 1, index));
    // An open explanation follows the reader from row to row.
    if (expanded !== null && rows[next]) setExpanded(rows[next].input.row);
    setActive(next);
    setFocusSignal((n) => n + 1);
  };

  // A dialog puts focus back where it was when it closes, which makes that row active again;
  // a move asked for by the dialog waits until that has happened.
  const [moveTo, setMoveTo] = useState<number | null>(null);
  const moveNow = useEffectEvent((index: number) => goTo(index));
  useEffect(() => {
    if (moveTo === null) return;
    setMoveTo(null);
    moveNow(moveTo);
  }, [moveTo]);

  const record = async (entry: BatchEntry, choice: Choice | null): Promise<boolean> => {
    const had = useBatch.getState().dispositions.has(entry.input.row);
    const r = await decisions.submit(entry, choice);
    if (!r.ok) return false;
    const label = !r.record
      ? 'no disposition'
      : r.record.approval?.state === 'pending'
        ? 'cleared, awaiting approval'
        : DISPOSITION_INFO[r.record.disposition].label.toLowerCase();
    const reviewedNow = reviewed + (r.record && !had ? 1 : !r.record && had ? -1 : 0);
    setAnnounce(`Row ${entry.input.row}, ${fullName(entry.input)}: ${label}. ${reviewedNow} reviewed of ${rows.length}.`);
    return true;
  };

  const setDisposition = (entry: BatchEntry, d: Disposition | undefined, advance: boolean) => {
    if (!entry.result) {
      setAnnounce(`Row ${entry.input.row} was not screened: there is nothing to decide.`);
      return;
    }
    // A strong sanctions match is cleared only with a reason: the dialog asks for it.
    if (d === 'cleared_false_positive' && needsReason(entry)) {
      decisions.clearError();
      setAsking({ entry, advance });
      return;
    }
    void record(entry, d ? { disposition: d, reason: null, note: '' } : null);
    const index = indexOf(entry);
    if (advance && index >= 0 && index < rows.length - 1) goTo(index + 1);
  };

  const undo = async () => {
    const row = await decisions.undo(entries);
    if (row === null) return;
    const index = rows.findIndex((e) => e.input.row === row);
    setAnnounce(`Undone: row ${row}.`);
    if (index >= 0) goTo(index);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const t = e.target as HTMLElement;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (t.closest('dialog') || t.matches('input, select, textarea')) return;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (key === 'Escape') {
      if (expanded !== null) {
        e.preventDefault();
        setExpanded(null);
        // Once the detail has collapsed and the list re-measured its rows (a tall detail shifts
        // them), focus goes back to the row: asking in the same render finds the old row element.
        requestAnimationFrame(() => setFocusSignal((n) => n + 1));
      }
      return;
    }
    if (rows.length === 0) return;
    if (key === 'j' || key === 'k') {
      e.preventDefault();
      // From outside the list the first press lands on the current row; then it moves.
      if (!gridBox.current?.contains(t)) setFocusSignal((n) => n + 1);
      else goTo(active + (key === 'j' ? 1 : -1));
    } else if (key === 'o') {
      e.preventDefault();
      toggle(current);
    } else if (singleKeys && current && KEY_TO_DISPOSITION[key]) {
      e.preventDefault();
      const d = KEY_TO_DISPOSITION[key];
      const same = current.decision?.disposition === d;
      setDisposition(current, same ? undefined : d, !same);
    } else if (singleKeys && key === 'u') {
      e.preventDefault();
      void undo();
    }
  };


  if (!run) {
    return (
      <>
        <ScreenHeader title="Risk review" summary="Work through what changed in a batch rescreen: risk increases, decreases and new matches, with the reasons behind each." />
        <section className="panel placeholder" data-testid="review-empty">
          <h2>No batch results to review</h2>
          <p>
            Run a <a href={href('rescreen')}>batch rescreen</a> first. Its results stay in this window only (the app keeps no copy), so they are
            gone after you sign out or discard them.
          </p>
        </section>
      </>
    );
  }

  const running = run.status === 'starting' || run.status === 'running' || run.status === 'cancelling';
  const approvingDecision = approving ? entries.find((e) => e.input.row === approving.input.row)?.decision : undefined;

  return (
    <div className="rev-screen" onKeyDown={onKeyDown}>
      <ScreenHeader
        title="Risk review"
        summary={
          <>
            The last batch rescreen{fileName ? <> of <strong className="text-body">{fileName}</strong></> : null}:{' '}
            {formatNumber(entries.length)} rows screened. Dispositions stay in this window until you save the results.
          </>
        }
        actions={
          <>
            <button type="button" className="btn" onClick={() => void save()} disabled={saving || running} data-testid="review-save">
              {saving ? 'Saving…' : 'Save results…'}
            </button>
            <button type="button" className="btn btn-danger-quiet" onClick={() => guard('Discard results', discard)} disabled={running} data-testid="review-discard">
              Discard results
            </button>
          </>
        }
      />
      {running ? <Alert tone="info" testId="review-running">The batch is still running; rows appear here as they are screened.</Alert> : null}
      {notice ? <Alert tone={notice.tone} testId="review-save-notice">{notice.text}</Alert> : null}
      {decisions.error ? <Alert testId="review-decision-error">{decisions.error}</Alert> : null}
      {outcomeNotice ? (
        <Alert tone="info" testId="review-outcome-notice">
          {outcomeNotice}{' '}
          <button type="button" className="btn btn-small" onClick={() => setOutcomeNotice(null)} data-testid="review-outcome-dismiss">Dismiss</button>
        </Alert>
      ) : null}

      <section className="panel" aria-labelledby="review-heading">
        <div className="panel-header rev-toolbar">
          <h2 id="review-heading" className="visually-hidden">Rows to review</h2>
          {/* WAI-ARIA tabs: one tab in the Tab order (the selected one), arrows move between them. */}
          <div className="rev-filters" role="tablist" aria-label="Show" onKeyDown={onTabKey}>
            {FILTERS.map((f) => (
              <button
                key={f}
                id={`review-tab-${f}`}
                type="button"
                role="tab"
                aria-selected={filter === f}
                aria-controls="review-tabpanel"
                tabIndex={filter === f ? 0 : -1}
                className={`rev-filter${filter === f ? ' rev-filter-on' : ''}`}
                onClick={() => pickFilter(f)}
                data-testid={`review-filter-${f}`}
              >
                {FILTER_LABEL[f]} <span className="rev-filter-count">{formatNumber(filterCount[f])}</span>
              </button>
            ))}
          </div>
          <input
            type="search"
            className="rev-search"
            placeholder="Filter by name, reference or match"
            aria-label="Filter rows by name, reference or match"
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && query) {
                e.stopPropagation();
                setQuery('');
              }
            }}
            data-testid="review-search"
          />
        </div>
        <div className="rev-statusbar">
          <span data-testid="review-progress" data-reviewed={reviewed} data-total={rows.length}>
            <strong>{formatNumber(reviewed)}</strong> reviewed of <strong>{formatNumber(rows.length)}</strong>
          </span>
          <label className="rev-switch">
            <input type="checkbox" checked={singleKeys} onChange={(e) => setSingleKeys(e.currentTarget.checked)} data-testid="review-single-keys" />
            <span>Single-key actions</span>
          </label>
          <span className="muted rev-keys" data-testid="review-keys-help">
            <kbd>J</kbd>/<kbd>K</kbd> next/previous · <kbd>Enter</kbd> or <kbd>O</kbd> explanation · <kbd>Esc</kbd> close
            {singleKeys ? (
              <>
                {' '}· <kbd>C</kbd> cleared (false positive) · <kbd>E</kbd> escalated · <kbd>N</kbd> needs info · <kbd>U</kbd> undo
              </>
            ) : null}
          </span>
          {!singleKeys && canUndo ? (
            <button type="button" className="btn btn-small" onClick={() => void undo()} data-testid="review-undo">
              Undo
            </button>
          ) : null}
        </div>
        <div ref={gridBox} id="review-tabpanel" role="tabpanel" aria-labelledby={`review-tab-${filter}`}>
          <DataGrid
            label={`${FILTER_LABEL[filter]}: rows to review`}
            model={model}
            estimateRowHeight={56}
            maxHeight={620}
            activeIndex={active}
            onActiveIndexChange={setActive}
            focusSignal={focusSignal}
            onOpenRow={(e) => toggle(e)}
            isExpanded={(e) => e.input.row === expanded}
            renderExpanded={(e) => (
              <ReviewDetail
                entry={e}
                decision={e.decision}
                sentBack={sentBack.get(e.input.row)}
                singleKeys={singleKeys}
                onDispose={(d) => setDisposition(e, d, false)}
                onApprove={() => setApproving(e)}
                onClose={() => {
                  setExpanded(null);
                  setFocusSignal((n) => n + 1);
                }}
              />
            )}
            rowClassName={(e) => (e.decision ? 'rev-row-done' : undefined)}
            rowAttributes={(e) => ({ 'data-row': e.input.row, 'data-change': e.result?.risk_change ?? 'error' })}
            testId="review-grid"
            rowTestId="review-row"
            empty={
              query ? 'No rows match the filter.' : filter === 'all' ? 'No rows were screened.' : `No rows with ${FILTER_LABEL[filter].toLowerCase()}.`
            }
          />
        </div>
        <p className="visually-hidden" role="status" aria-live="polite" data-testid="review-announce">{announce}</p>
      </section>

      {discardDialog}
      {asking ? (
        <ClearReasonDialog
          entry={asking.entry}
          fourEyes={settings.data?.four_eyes ?? false}
          error={decisions.error}
          onClose={() => {
            const index = indexOf(asking.entry);
            setAsking(null);
            if (index >= 0) setMoveTo(index);
          }}
          onConfirm={async (choice) => {
            const { entry, advance } = asking;
            if (!(await record(entry, choice))) return false;
            setAsking(null);
            const index = indexOf(entry);
            if (index >= 0) setMoveTo(advance && index < rows.length - 1 ? index + 1 : index);
            return true;
          }}
        />
      ) : null}
      {approving && approvingDecision?.approval?.state === 'pending' ? (
        <ApproveDialog
          entry={approving}
          decision={approvingDecision}
          onClose={() => setApproving(null)}
          onApproved={(by, at) => {
            approvedInStore(approving.input.row, approvingDecision.approval!.clearanceId, by, at);
            setAnnounce(`Row ${approving.input.row}: clearance approved by ${by}.`);
            setApproving(null);
          }}
        />
      ) : null}
    </div>
  );
}

interface DispositionCellProps {
  entry: BatchEntry;
  decision: DecisionRecord | undefined;
  sentBack: SentBack | undefined;
  onApprove: () => void;
}

function DispositionCell({ entry, decision, sentBack, onApprove }: DispositionCellProps) {
  const pending = decision?.approval?.state === 'pending';
  return (
    <span
      className="cell-stack"
      data-testid="review-disposition"
      data-disposition={decision?.disposition ?? ''}
      data-approval={decision?.approval?.state ?? (sentBack ? 'sent_back' : '')}
    >
      {decision ? (
        <>
          <span className="rev-decision">
            {pending ? (
              <Badge tone="warning">Awaiting approval</Badge>
            ) : (
              <Badge tone={DISPOSITION_INFO[decision.disposition].tone}>{DISPOSITION_INFO[decision.disposition].label}</Badge>
            )}
            {pending ? (
              <button type="button" className="btn btn-small" onClick={onApprove} data-testid="review-approve">
                Approve…
              </button>
            ) : null}
          </span>
          {decision.reason ? <span className="muted rev-small">{REASON_INFO[decision.reason].label}</span> : null}
          {decision.approval?.state === 'approved' ? <span className="muted rev-small" data-testid="review-approved-by">Approved by {decision.approval.by}</span> : null}
        </>
      ) : sentBack ? (
        <>
          <span className="rev-decision"><Badge tone="warning">Sent back</Badge></span>
          <span className="muted rev-small bat-ellipsis" data-testid="review-sent-back-by" title={sentBack.note ?? undefined}>
            By {sentBack.by}{sentBack.note ? `: “${sentBack.note}”` : ''}
          </span>
        </>
      ) : entry.input.previous_disposition ? (
        <span className="muted rev-small" data-testid="review-earlier">Earlier: {EARLIER_LABEL[entry.input.previous_disposition]}</span>
      ) : (
        <span className="muted">—</span>
      )}
    </span>
  );
}
