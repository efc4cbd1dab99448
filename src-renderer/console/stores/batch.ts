// The last batch rescreen: the imported rows, the run, its results and the analyst's
// dispositions. Memory only, on purpose: never persisted, cleared on sign-out and by "Discard
// results". The one store allowed to hold subject data, because the file it came from and the
// CSV it goes back to are the analyst's; the app keeps nothing once the window closes.
//
// Rows, issues and results are never changed in place: rows arriving (a chunk of the file, a
// paint's worth of answers) make a new array, and a decision makes a new entry object in a new
// array, so the grids' table model (react-table memoises on the array and caches each row's
// values) and every memo see the change. Answers are added a paint at a time (run-batch.ts), so
// 100,000 rows cost a few hundred new arrays, not 100,000.
import { create } from 'zustand';
import type { Environment } from '../../../src-shared/catalog';
import type { BatchRowResult } from '../../../src-shared/contracts/batch';
import type { Disposition, ReasonCode } from '../../../src-shared/contracts/review';
import type { ClearedMatch, ListVersion, PreviousResultSummary } from '../../../src-shared/contracts/screening';
import type { EncodingGuess, TextEncodingName } from '../../../src-shared/csv-text';
import type { FileDateOrder } from '../../../src-shared/dates';
import { holdsWork, useSession } from './session';

export { DISPOSITIONS, type Disposition } from '../../../src-shared/contracts/review';

/**
 * What a saved result says about the analyst's last review: a disposition, or a clearance that
 * was still waiting for its second person (it does not count as cleared).
 */
export type EarlierDisposition = Disposition | 'awaiting_approval';

/** The analyst's decision on one row, as the service recorded it. */
export interface DecisionRecord {
  disposition: Disposition;
  reason: ReasonCode | null;
  /** The analyst's note: in this window and the saved CSV only, never sent to the service. */
  note: string;
  decidedBy: string;
  decidedAt: string;
  /** Clearing a strong sanctions match with four-eyes on: counts once approved. */
  approval: { clearanceId: string; state: 'pending' | 'approved'; by: string | null; at: string | null } | null;
}

/**
 * An owner or admin sent the row's clearance back (approval queue): the row is undecided again.
 * Kept after the analyst decides again, so the detail still says why it came back.
 */
export interface SentBack {
  clearanceId: string;
  by: string;
  at: string;
  /** The approver's note, as the service held it for this batch; null once it let it go. */
  note: string | null;
}

/** What became of a waiting clearance, as the service tells the analyst's console. */
export type ClearanceSettled =
  | { state: 'approved'; by: string; at: string }
  | { state: 'sent_back'; by: string; at: string; note: string | null };

/** What the row counts as: a pending clearance is not a clearance yet. */
export function effectiveDisposition(d: DecisionRecord | undefined): EarlierDisposition | undefined {
  if (!d) return undefined;
  return d.approval?.state === 'pending' ? 'awaiting_approval' : d.disposition;
}

/** One valid CSV row, normalised: what is sent, and what is written back to the saved CSV. */
export interface ImportedRow {
  /** Spreadsheet row number: the header is row 1, the first subject row 2. */
  row: number;
  client_reference_id: string;
  first_name: string;
  middle_name: string;
  last_name: string;
  date_of_birth: string;
  gender: string;
  country: string;
  previous_screening_id: string;
  /** The result this run compares against (from previous_* or a saved CSV's output columns). */
  previous: Omit<PreviousResultSummary, 'cleared_matches'> | null;
  /** Matches cleared earlier, carried to the service so they stay cleared while unchanged. */
  cleared: ClearedMatch[];
  /** The analyst's last review of this customer, from a saved result; shown, never sent. */
  previous_disposition: EarlierDisposition | '';
}

/** How the analyst asked for the file to be read; a new file starts from the defaults. */
export interface ParseOptions {
  /** The encoding chosen instead of the detected one, or null for the detected one. */
  encoding: TextEncodingName | null;
  /** Read DD/MM/YYYY, DD.MM.YYYY and DD-MM-YYYY dates of birth as day, month, year. */
  dayFirst: boolean;
}

export const DEFAULT_PARSE_OPTIONS: ParseOptions = { encoding: null, dayFirst: false };

/** What the file's numeric dates of birth say of their order, with the first row that shows each. */
export interface DateEvidence {
  order: FileDateOrder;
  /** The first row whose date can only be day first (its first number is over 12). */
  dayFirstRow: number | null;
  /** The first row whose date can only be month first (its second number is over 12). */
  monthFirstRow: number | null;
}

/** A problem with one cell of the file. Never the cell's value: only where and why. */
export interface RowIssue {
  row: number;
  column: string;
  reason: string;
}

export interface ParseState {
  status: 'idle' | 'parsing' | 'done' | 'failed';
  /** The chosen file, kept (in memory) to be read again another way. */
  file: File | null;
  options: ParseOptions;
  /** The encoding the text was read in and what detection said, once the file's bytes are read. */
  text: { encoding: TextEncodingName; detected: EncodingGuess } | null;
  /** Known once the whole file is read. */
  dates: DateEvidence | null;
  fileName: string;
  fileBytes: number;
  bytesRead: number;
  /** Subject rows read (blank lines aside). */
  rowsRead: number;
  /** Rows with at least one issue; they are left out of the run. */
  invalidRows: number;
  /** Why the whole file cannot be used (no header, missing required columns). */
  error: string | null;
  /** Columns found in the header that this import does not use (shown, not an error). */
  ignoredColumns: string[];
  /** The file came from a previous run's saved results (its output columns were carried over). */
  fromResults: boolean;
}

export type RunStatus = 'starting' | 'running' | 'cancelling' | 'done' | 'cancelled' | 'failed';

export interface RunState {
  status: RunStatus;
  env: Environment;
  batchId: string | null;
  total: number;
  /** Rows the service has answered for (results and row errors). */
  processed: number;
  rowErrors: number;
  creditsCharged: number;
  /** performance.now() at Run, and at the end. */
  startedAt: number;
  endedAt: number | null;
  error: string | null;
  listsChecked: string[];
  /** The lists the run screens against, with their dates and stale flags (the batch's list_versions), and since when. */
  listVersions: ListVersion[];
  listsAsOf: string | null;
}

export interface BatchEntry {
  readonly input: ImportedRow;
  readonly result: BatchRowResult | null;
  /** The service refused this row (its message names the field, never the value). */
  readonly error: string | null;
  /** The analyst's decision on the row (the same record as `dispositions` holds for it). */
  readonly decision?: DecisionRecord;
}

export interface UndoStep {
  row: number;
  before: DecisionRecord | undefined;
}

interface BatchState {
  parse: ParseState;
  /** Valid rows of the import, in file order. */
  rows: readonly ImportedRow[];
  issues: readonly RowIssue[];
  run: RunState | null;
  /** Which run the entries belong to: a new run, a new import or a discard moves it on. */
  runId: number;
  /** Answered rows, in the order the service answered. */
  entries: readonly BatchEntry[];
  /** The decisions by row, for what counts or saves them; changed only with the entries they sit on. */
  dispositions: ReadonlyMap<number, DecisionRecord>;
  /** Rows whose clearance an owner or admin sent back, with their note. */
  sentBack: ReadonlyMap<number, SentBack>;
  undo: UndoStep[];
  /** Dispositions changed since the results were last saved. */
  unsaved: boolean;
  /** Review preference: single-key actions (C/E/N/U) on or off. */
  singleKeys: boolean;
  /** Stops the running batch (set by the runner while it runs). */
  stop: (() => void) | null;

  /** A file starts being read; read again (the same file), it keeps what was known of it until the new reading says. */
  startImport: (file: File, options: ParseOptions) => void;
  /** A chunk of the file was read: its valid rows and issues join the ones before. */
  addParsed: (rows: readonly ImportedRow[], issues: readonly RowIssue[], patch: Partial<ParseState>) => void;
  setParse: (patch: Partial<ParseState>) => void;
  /** Answers of run `runId` join its entries (nothing happens once another run, an import or a discard took over). */
  addEntries: (runId: number, added: readonly BatchEntry[]) => void;
  setRun: (patch: Partial<RunState>) => void;
  /** A decision the service recorded; `undoable` puts the one it replaces on the undo stack. */
  decide: (row: number, decision: DecisionRecord | undefined, undoable: boolean) => void;
  /** A second person approved the row's pending clearance. */
  approved: (row: number, clearanceId: string, by: string, at: string) => void;
  /**
   * A second person approved or sent back the row's clearance (read from the service). Only the
   * row's current clearance is settled: a newer decision of the analyst's stands.
   */
  settle: (row: number, clearanceId: string, outcome: ClearanceSettled) => void;
  /** Takes the last undo step off the stack (the caller records it with the service). */
  popUndo: () => UndoStep | null;
  pushUndo: (step: UndoStep) => void;
  markSaved: () => void;
  setSingleKeys: (on: boolean) => void;
  discard: () => void;
}

const IDLE_PARSE: ParseState = {
  status: 'idle', file: null, options: DEFAULT_PARSE_OPTIONS, text: null, dates: null, fileName: '', fileBytes: 0, bytesRead: 0,
  rowsRead: 0, invalidRows: 0, error: null, ignoredColumns: [], fromResults: false,
};

function empty() {
  return {
    parse: IDLE_PARSE,
    rows: [] as readonly ImportedRow[],
    issues: [] as readonly RowIssue[],
    run: null,
    entries: [] as readonly BatchEntry[],
    dispositions: new Map<number, DecisionRecord>(),
    sentBack: new Map<number, SentBack>(),
    undo: [] as UndoStep[],
    unsaved: false,
    stop: null,
  };
}

/** The entries with row `row`'s decision replaced (a new entry object in a new array). */
function withDecision(entries: readonly BatchEntry[], row: number, decision: DecisionRecord | undefined): readonly BatchEntry[] {
  const i = entries.findIndex((e) => e.input.row === row);
  const entry = entries[i];
  if (!entry) return entries;
  const next = entries.slice();
  next[i] = { input: entry.input, result: entry.result, error: entry.error, ...(decision ? { decision } : {}) };
  return next;
}

export const useBatch = create<BatchState>()((set, get) => ({
  ...empty(),
  runId: 0,
  singleKeys: true,

  startImport: (file, options) => {
    get().stop?.();
    const prev = get().parse;
    // The notices stay in place (and a control in them keeps focus) while the same file is read again.
    const kept = prev.file === file ? { text: prev.text, dates: prev.dates } : {};
    set({
      ...empty(),
      parse: { ...IDLE_PARSE, ...kept, status: 'parsing', file, options, fileName: file.name, fileBytes: file.size },
      runId: get().runId + 1,
    });
  },

  addParsed: (rows, issues, patch) => set((s) => ({
    rows: rows.length > 0 ? s.rows.concat(rows) : s.rows,
    issues: issues.length > 0 ? s.issues.concat(issues) : s.issues,
    parse: { ...s.parse, ...patch },
  })),

  setParse: (patch) => set((s) => ({ parse: { ...s.parse, ...patch } })),

  addEntries: (runId, added) => set((s) => (s.runId === runId && added.length > 0 ? { entries: s.entries.concat(added) } : {})),

  setRun: (patch) => set((s) => (s.run ? { run: { ...s.run, ...patch } } : {})),

  decide: (row, decision, undoable) => {
    const { dispositions, undo, entries } = get();
    const before = dispositions.get(row);
    const next = new Map(dispositions);
    if (decision) next.set(row, decision);
    else next.delete(row);
    set({
      dispositions: next, entries: withDecision(entries, row, decision), undo: undoable ? [...undo.slice(-199), { row, before }] : undo, unsaved: true,
    });
  },

  approved: (row, clearanceId, by, at) => {
    const current = get().dispositions.get(row);
    if (current?.approval?.clearanceId !== clearanceId) return;
    const decision: DecisionRecord = { ...current, approval: { clearanceId, state: 'approved', by, at } };
    const next = new Map(get().dispositions);
    next.set(row, decision);
    set({ dispositions: next, entries: withDecision(get().entries, row, decision), unsaved: true });
  },

  settle: (row, clearanceId, outcome) => {
    if (outcome.state === 'approved') {
      get().approved(row, clearanceId, outcome.by, outcome.at);
      return;
    }
    const current = get().dispositions.get(row);
    if (current?.approval?.clearanceId !== clearanceId || current.approval.state !== 'pending') return;
    const dispositions = new Map(get().dispositions);
    dispositions.delete(row);
    const sentBack = new Map(get().sentBack);
    sentBack.set(row, { clearanceId, by: outcome.by, at: outcome.at, note: outcome.note });
    set({ dispositions, sentBack, entries: withDecision(get().entries, row, undefined), unsaved: true });
  },

  popUndo: () => {
    const step = get().undo.at(-1);
    if (!step) return null;
    set({ undo: get().undo.slice(0, -1) });
    return step;
  },

  pushUndo: (step) => set({ undo: [...get().undo, step] }),

  markSaved: () => set({ unsaved: false }),

  setSingleKeys: (on) => set({ singleKeys: on }),

  discard: () => {
    get().stop?.();
    set((s) => ({ ...empty(), runId: s.runId + 1 }));
  },
}));

// Signing out, or leaving a locked session for the sign-in screen, drops every row and result at once.
useSession.subscribe((s, prev) => {
  // A locked session keeps it (the same person signs in again); leaving for the sign-in screen
  // does not, nor does a session that came back as another account.
  const ended = holdsWork(prev.status) && !holdsWork(s.status);
  const replaced = prev.session !== null && s.session !== null && prev.session.user.id !== s.session.user.id;
  if (ended || replaced) useBatch.getState().discard();
});

