// With four-eyes, an owner or admin approves or sends back the analyst's clearances in their own
// Approvals queue, in their own session. While any clearance of this batch waits, the review asks
// the service every few seconds what became of them and settles the rows: approved, or sent back
// (undecided again) with the approver's note. `onSettled` words each outcome for the screen.
import { useEffect, useRef } from 'react';
import type { ClearanceOutcome } from '../../../../src-shared/contracts/review';
import { useBatch, type ClearanceSettled } from '../../stores/batch';
import { reviewApi } from './review-api';

export const OUTCOME_POLL_MS = 4000;

export interface Settled {
  row: number;
  outcome: ClearanceSettled;
}

function settledOf(c: ClearanceOutcome): ClearanceSettled | null {
  if (c.state === 'approved') return { state: 'approved', by: c.approved_by ?? 'an approver', at: c.approved_at ?? c.requested_at };
  if (c.state === 'sent_back') return { state: 'sent_back', by: c.sent_back_by ?? 'an approver', at: c.sent_back_at ?? c.requested_at, note: c.note };
  return null;
}

export function useClearanceOutcomes(batchId: string | null, waiting: boolean, onSettled: (s: Settled[]) => void): void {
  const report = useRef(onSettled);
  report.current = onSettled;

  useEffect(() => {
    if (!batchId || !waiting) return;
    const controller = new AbortController();
    const poll = async () => {
      let answer;
      try {
        answer = await reviewApi.outcomes(batchId, controller.signal);
      } catch {
        return; // Asked again at the next tick; the rows stay waiting meanwhile.
      }
      if (controller.signal.aborted || useBatch.getState().run?.batchId !== batchId) return;
      const byClearance = new Map(answer.clearances.map((c) => [c.id, c]));
      const done: Settled[] = [];
      for (const [row, d] of useBatch.getState().dispositions) {
        if (d.approval?.state !== 'pending') continue;
        const c = byClearance.get(d.approval.clearanceId);
        const outcome = c ? settledOf(c) : null;
        if (!outcome) continue;
        useBatch.getState().settle(row, d.approval.clearanceId, outcome);
        done.push({ row, outcome });
      }
      if (done.length) report.current(done);
    };
    void poll();
    const timer = setInterval(() => void poll(), OUTCOME_POLL_MS);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [batchId, waiting]);
}
