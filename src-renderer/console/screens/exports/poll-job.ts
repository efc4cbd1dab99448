// Watches one export job while it is queued or running (spec rule 7: polling GET
// /api/reports/exports/{id} is how a job is monitored). Asks again every second at first, then
// less often for long jobs; stops when the job is done, when the caller stops it (the screen went
// away) and, after a few failures in a row, with the last error.
import type { ExportJob } from '../../../../src-shared/contracts/reports';
import { isActive } from '../../components/reports/export-labels';

export interface PollOptions {
  get: (id: number, signal: AbortSignal) => Promise<ExportJob>;
  onJob: (job: ExportJob) => void;
  onGiveUp?: (error: unknown) => void;
  /** First delay; each later one is 1.5 times longer, up to `maxDelayMs`. */
  delayMs?: number;
  maxDelayMs?: number;
  /** Failures in a row before giving up. */
  maxFailures?: number;
}

export const POLL_DELAY_MS = 1000;
export const POLL_MAX_DELAY_MS = 5000;

/** Starts watching; the returned function stops it (and aborts a request in flight). */
export function pollJob(id: number, opts: PollOptions): () => void {
  const { get, onJob, onGiveUp, delayMs = POLL_DELAY_MS, maxDelayMs = POLL_MAX_DELAY_MS, maxFailures = 3 } = opts;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay = delayMs;
  let failures = 0;

  const schedule = () => {
    timer = setTimeout(() => void tick(), delay);
    delay = Math.min(maxDelayMs, Math.round(delay * 1.5));
  };

  const tick = async () => {
    try {
      const job = await get(id, controller.signal);
      if (controller.signal.aborted) return;
      failures = 0;
      onJob(job);
      if (isActive(job.status)) schedule();
    } catch (e) {
      if (controller.signal.aborted) return;
      failures += 1;
      if (failures >= maxFailures) onGiveUp?.(e);
      else schedule();
    }
  };

  schedule();
  return () => {
    controller.abort();
    if (timer !== undefined) clearTimeout(timer);
  };
}
