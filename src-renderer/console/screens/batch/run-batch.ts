// Runs the imported rows through the service: open a batch, send chunks one after another,
// read each chunk's answers as they stream in, finish. Lives outside any component so a run
// keeps going while the analyst moves to Risk review. Answers wait in a list of their own and
// join the store's entries (a new array) at most every PAINT_MS and at each chunk's end, so
// 100,000 rows cost a few hundred renders, not 100,000.
import { BATCH_ENDED_TEXT, BATCH_LIMITS, type BatchRow } from '../../../../src-shared/contracts/batch';
import type { Environment } from '../../../../src-shared/catalog';
import { errorText } from '../../api/client';
import { useBatch, type BatchEntry, type ImportedRow } from '../../stores/batch';
import { batchApi, sendRows } from './batch-api';

const CHUNK = BATCH_LIMITS.rowsPerChunk;
const PAINT_MS = 250;

export function toBatchRow(r: ImportedRow): BatchRow {
  const subject: BatchRow['subject'] = { type: 'individual', first_name: r.first_name, last_name: r.last_name };
  if (r.middle_name) subject.middle_name = r.middle_name;
  if (r.date_of_birth) subject.date_of_birth = r.date_of_birth;
  if (r.gender) subject.gender = r.gender;
  if (r.country) subject.country = r.country;
  const out: BatchRow = { row: r.row, subject };
  if (r.client_reference_id) out.client_reference_id = r.client_reference_id;
  if (r.previous_screening_id) out.previous_screening_id = r.previous_screening_id;
  if (r.previous) {
    out.previous_result_summary = r.cleared.length > 0 ? { ...r.previous, cleared_matches: r.cleared } : { ...r.previous };
  }
  return out;
}

export function isRunning(): boolean {
  const status = useBatch.getState().run?.status;
  return status === 'starting' || status === 'running' || status === 'cancelling';
}

/** Runs every valid row of the current import. `confirmCredits` is the live cost the analyst confirmed. */
export async function runBatch(env: Environment, confirmCredits?: number): Promise<void> {
  if (isRunning()) return;
  const rows = useBatch.getState().rows;
  const byRow = new Map(rows.map((r) => [r.row, r]));
  let pending: BatchEntry[] = [];
  const controller = new AbortController();
  let cancelled = false;
  let batchId: string | null = null;

  // This run owns the store while the store's runId is its own; a discard, an import or a new run ends that.
  const runId = useBatch.getState().runId + 1;
  const alive = () => useBatch.getState().runId === runId;
  const flush = () => {
    if (pending.length === 0) return;
    useBatch.getState().addEntries(runId, pending);
    pending = [];
  };
  const setRun = (patch: Parameters<ReturnType<typeof useBatch.getState>['setRun']>[0]) => {
    if (alive()) useBatch.getState().setRun(patch);
  };

  const stop = () => {
    if (cancelled) return;
    cancelled = true;
    setRun({ status: 'cancelling' });
    // Ask the service to stop first (it stops between slices of 250 rows), then stop reading.
    const ask = batchId ? batchApi.cancel(batchId).catch(() => undefined) : Promise.resolve();
    void ask.finally(() => controller.abort());
  };

  useBatch.setState({
    run: {
      status: 'starting', env, batchId: null, total: rows.length, processed: 0, rowErrors: 0, creditsCharged: 0,
      startedAt: performance.now(), endedAt: null, error: null, listsChecked: [], listVersions: [], listsAsOf: null,
    },
    runId,
    entries: [],
    dispositions: new Map(),
    sentBack: new Map(),
    undo: [],
    unsaved: false,
    stop,
  });

  let processed = 0;
  let rowErrors = 0;
  let charged = 0;
  let outcome: { status: 'done' | 'cancelled' | 'failed'; error: string | null } = { status: 'done', error: null };
  try {
    const info = await batchApi.create(
      env === 'live' ? { env, total_rows: rows.length, confirm_credits: confirmCredits ?? -1 } : { env, total_rows: rows.length },
    );
    batchId = info.id;
    if (cancelled) throw new DOMException('cancelled', 'AbortError');
    setRun({ status: 'running', batchId, listsChecked: info.lists_checked, listVersions: info.list_versions, listsAsOf: info.created_at });
    let lastPaint = 0;
    for (let i = 0; i < rows.length && !cancelled; i += CHUNK) {
      const chunk: BatchRow[] = [];
      for (let k = i; k < Math.min(rows.length, i + CHUNK); k++) chunk.push(toBatchRow(rows[k]!));
      const end = await sendRows(batchId, chunk, controller.signal, (lines) => {
        for (const line of lines) {
          const input = byRow.get(line.row);
          if (!input) continue;
          if ('error' in line) {
            rowErrors++;
            pending.push({ input, result: null, error: line.error.message });
          } else {
            pending.push({ input, result: line, error: null });
          }
        }
        processed += lines.length;
        const now = performance.now();
        if (now - lastPaint >= PAINT_MS) {
          lastPaint = now;
          flush();
          setRun({ processed, rowErrors });
        }
      });
      flush();
      charged = end.credits_charged;
      if (end.state !== 'open') {
        // Not our cancel: the service stops a live batch whose credits ran out.
        if (!cancelled) {
          outcome = {
            status: 'cancelled',
            error: env === 'live'
              ? 'The service stopped the run: the credit balance does not cover more rows. Add credits, then run the rows without a result again.'
              : 'The service stopped the run.',
          };
        }
        break;
      }
    }
    if (cancelled) outcome = { status: 'cancelled', error: null };
  } catch (e) {
    outcome = cancelled || (e instanceof DOMException && e.name === 'AbortError')
      ? { status: 'cancelled', error: null }
      : { status: 'failed', error: errorText(e) };
  }
  // Free the analyst's batch slot whatever happened (a cancel reaches the service first), before
  // the screen offers another run. The finished batch says whether an owner or admin, or the idle
  // expiry, ended it: the run says that (mid-chunk or at the next chunk), not a bare error.
  if (batchId) {
    if (cancelled) await batchApi.cancel(batchId).catch(() => undefined);
    const finished = await batchApi.finish(batchId).catch(() => null);
    if (finished?.ended_by && !cancelled && outcome.status !== 'done') outcome = { status: 'cancelled', error: BATCH_ENDED_TEXT[finished.ended_by] };
  }
  flush();
  if (alive()) useBatch.setState({ stop: null });
  setRun({ ...outcome, processed, rowErrors, creditsCharged: charged, endedAt: performance.now() });
}
