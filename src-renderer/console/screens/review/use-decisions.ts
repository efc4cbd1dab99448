// Setting a row's disposition goes through the service, which records it in the audit log:
// it counts once the service has answered. Requests go one at a time, in the order the analyst
// made them, so fast single-key work cannot arrive out of order.
import { useState } from 'react';
import {
  ANALYST_NOTE_MAX, evidenceOf, hasStrongSanctionsMatch, reasonContradiction, type Contradiction, type DispositionRequest, type ReasonCode, type SeenByAnalyst,
} from '../../../../src-shared/contracts/review';
import { errorText } from '../../api/client';
import { useBatch, type BatchEntry, type DecisionRecord, type Disposition } from '../../stores/batch';
import { fullName, openMatches } from '../../components/batch/labels';
import { reviewApi } from './review-api';

export interface Choice {
  disposition: Disposition;
  reason: ReasonCode | null;
  /**
   * Stays in this window and the saved CSV; a clearing that may wait for a second person also
   * sends it (with what the analyst saw) for the approver, held in service memory only.
   */
  note: string;
  /** The reason contradicts the match evidence and the note is the analyst's override (always waits for approval). */
  override?: boolean;
}

/** What the evidence of the row's open matches says against a reason: the same rule the service applies. */
export function contradictionFor(entry: BatchEntry, reason: ReasonCode | null): Contradiction | null {
  if (!entry.result) return null;
  return reasonContradiction(reason, openMatches(entry.result).map((m) => ({ evidence: evidenceOf(m) })));
}

/** Clearing this row takes a reason (and maybe a second person): it has a strong sanctions match. */
export function needsReason(entry: BatchEntry): boolean {
  return entry.result !== null && hasStrongSanctionsMatch(openMatches(entry.result));
}

/** A value cut to the contract's bound (a long list entry must not refuse the decision itself). */
const clip = (v: string, max: number) => v.slice(0, max);
const orNull = (v: string, max: number) => (v.trim() === '' ? null : clip(v.trim(), max));

/**
 * What the analyst sees of the row, for the approver of a clearing that may wait (a strong
 * sanctions match, or a reason the evidence contradicts): the customer, the listed people, the note.
 */
function seenFor(entry: BatchEntry, choice: Choice | null): SeenByAnalyst | null {
  if (!entry.result || choice?.disposition !== 'cleared_false_positive' || !(needsReason(entry) || choice.override)) return null;
  const i = entry.input;
  return {
    customer: {
      name: clip(fullName(i), 300) || `Row ${i.row}`, date_of_birth: orNull(i.date_of_birth, 32), country: orNull(i.country, 64),
      client_reference_id: orNull(i.client_reference_id, 200),
    },
    listed: openMatches(entry.result).slice(0, 5).map((m) => ({
      entity_id: m.entity_id, name: clip(m.name, 500), source: clip(m.source, 100), programs: m.programs.slice(0, 20).map((p) => clip(p, 300)),
      dates_of_birth: m.dates_of_birth.slice(0, 10).map((d) => clip(d, 32)), countries: m.countries.slice(0, 20).map((c) => clip(c, 64)),
      listed_on: m.listed_on === null ? null : clip(m.listed_on, 32),
    })),
    note: orNull(choice.note, ANALYST_NOTE_MAX),
  };
}

function requestFor(batchId: string, entry: BatchEntry, choice: Choice | null): DispositionRequest {
  const r = entry.result!;
  return {
    batch_id: batchId, row: r.row, screening_id: r.id, review_token: r.review_token, client_reference_id: r.client_reference_id,
    matches: openMatches(r).map((m) => ({ entity_id: m.entity_id, record_hash: m.record_hash, score: m.score, list: m.list, evidence: evidenceOf(m) })),
    disposition: choice?.disposition ?? null,
    reason_code: choice?.reason ?? null,
    has_note: choice !== null && choice.note.trim() !== '',
    override_note: choice?.override === true && choice.note.trim() !== '',
    seen: seenFor(entry, choice),
  };
}

let queue: Promise<unknown> = Promise.resolve();

export type Submitted = { ok: true; record: DecisionRecord | undefined } | { ok: false };

export function useDecisions() {
  const [error, setError] = useState<string | null>(null);

  const submit = (entry: BatchEntry, choice: Choice | null, undoable = true): Promise<Submitted> => {
    const runAtStart = useBatch.getState().runId;
    const run = async (): Promise<Submitted> => {
      const batchId = useBatch.getState().run?.batchId;
      if (!entry.result || !batchId) {
        setError(`Row ${entry.input.row} was not screened, so there is nothing to decide.`);
        return { ok: false };
      }
      try {
        const res = await reviewApi.decide(requestFor(batchId, entry, choice));
        // Discarded or replaced by a new run meanwhile: the answer belongs to results that are gone.
        if (useBatch.getState().runId !== runAtStart) return { ok: false };
        const record: DecisionRecord | undefined = choice && res.disposition
          ? {
              disposition: res.disposition, reason: res.reason_code, note: choice.note.trim(), decidedBy: res.decided_by, decidedAt: res.decided_at,
              approval: res.clearance ? { clearanceId: res.clearance.id, state: 'pending', by: null, at: null } : null,
            }
          : undefined;
        useBatch.getState().decide(entry.input.row, record, undoable);
        setError(null);
        return { ok: true, record };
      } catch (e) {
        setError(`Row ${entry.input.row}: the disposition was not recorded. ${errorText(e)}`);
        return { ok: false };
      }
    };
    const p = queue.then(run);
    queue = p.catch(() => undefined);
    return p;
  };

  /** Undoes the last change by recording the disposition it replaced. */
  const undo = async (entries: readonly BatchEntry[]): Promise<number | null> => {
    const step = useBatch.getState().popUndo();
    if (!step) return null;
    const entry = entries.find((e) => e.input.row === step.row);
    if (!entry) return null;
    const before = step.before;
    const r = await submit(entry, before ? { disposition: before.disposition, reason: before.reason, note: before.note } : null, false);
    if (!r.ok) useBatch.getState().pushUndo(step);
    return r.ok ? step.row : null;
  };

  return { submit, undo, error, clearError: () => setError(null) };
}
