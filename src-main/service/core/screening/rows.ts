// Screening of batch rows: validation, the engine and risk, and the output line for each row.
// Runs in the batch worker (or in-process as a fallback); pure apart from random ids.
import { BATCH_LIMITS, BatchRow, type BatchRowError, type BatchRowResult } from '../../../../src-shared/contracts/batch';
import type { ListKind, RESCREEN_REASONS } from '../../../../src-shared/contracts/screening';
import { firstIssueMessage, nestedTooDeep } from '../../../../src-shared/validation';
import { newId } from '../ids';
import { evidenceOf } from '../../../../src-shared/contracts/review';
import { reviewToken } from '../review/token';
import { runScreening, type LoadedIndex } from './service';
import { hitCategories } from './hits';

export interface RowJob {
  /** The chunk's NDJSON lines, as sent: parsed here (in the worker), not on the HTTP thread. */
  lines: string[];
  lists: ListKind[] | undefined;
  reason: (typeof RESCREEN_REASONS)[number];
  livemode: boolean;
  now: number;
  /** Signs each result for the review: the batch and the review key (hex, derived from the install secret). */
  review: { batchId: string; key: string };
}

export interface RowOutcome {
  row: number;
  /** The finished NDJSON line (without newline). */
  line: string;
  /** Set for screened rows: what the ledger records. */
  screened?: { id: string; confidence: number; latencyMs: number; hits: string };
}

/** One NDJSON line as a row to validate, or a mark saying why it cannot be one. */
function parseLine(line: string): unknown {
  // A line nested thousands deep is not a row: refused before it is parsed.
  if (nestedTooDeep(line)) return { row: 0, too_deep: true };
  try {
    return JSON.parse(line);
  } catch {
    return { row: 0, invalid_json: true };
  }
}

export function screenRows(loaded: LoadedIndex, job: RowJob): RowOutcome[] {
  const out: RowOutcome[] = [];
  const reviewKey = Buffer.from(job.review.key, 'hex');
  for (const line of job.lines) {
    const raw = parseLine(line);
    const rowNo = typeof (raw as { row?: unknown })?.row === 'number' ? (raw as { row: number }).row : 0;
    const parsed = BatchRow.safeParse(raw);
    if (!parsed.success) {
      const marks = raw as { invalid_json?: unknown; too_deep?: unknown } | null;
      const message = marks?.too_deep === true ? 'Line is nested too deeply to be a row'
        : marks?.invalid_json === true ? 'Line is not valid JSON'
        : firstIssueMessage(parsed.error);
      const err: BatchRowError = { row: rowNo, error: { type: 'invalid_request', code: 'invalid_subject', message } };
      out.push({ row: rowNo, line: JSON.stringify(err) });
      continue;
    }
    const r = parsed.data;
    const started = performance.now();
    const sid = newId('scr');
    const resp = runScreening(loaded, {
      id: sid, created: job.now, livemode: job.livemode, subject: r.subject, lists: job.lists,
      clientReferenceId: r.client_reference_id,
      rescreen: { previous_screening_id: r.previous_screening_id ?? '', reason: job.reason, summary: r.previous_result_summary },
    });
    const matches = resp.matches.slice(0, BATCH_LIMITS.matchesPerRow);
    const result: BatchRowResult = {
      row: r.row, id: sid, client_reference_id: r.client_reference_id ?? null,
      previous_screening_id: r.previous_screening_id ?? null, risk: resp.risk, flags: resp.flags,
      risk_change: resp.rescreen!.risk_change,
      ...(resp.rescreen!.matcher_changed !== undefined ? { matcher_changed: resp.rescreen!.matcher_changed } : {}),
      matches,
      review_token: reviewToken(reviewKey, {
        batch_id: job.review.batchId, row: r.row, screening_id: sid, client_reference_id: r.client_reference_id ?? null,
        matches: matches.filter((m) => !m.cleared).map((m) => ({ ...m, evidence: evidenceOf(m) })),
      }),
    };
    out.push({ row: r.row, line: JSON.stringify(result), screened: { id: sid, confidence: resp.risk.score, latencyMs: Math.round(performance.now() - started), hits: hitCategories(resp.matches) } });
  }
  return out;
}
