// How the batch's grids order answered rows: ascending comparators for the table model's
// sortable columns (ties keep the order the rows were answered in). Each reads only its row.
import type { BatchEntry } from '../../stores/batch';

const collator = new Intl.Collator(undefined, { sensitivity: 'base' });

export function byRow(a: BatchEntry, b: BatchEntry): number {
  return a.input.row - b.input.row;
}

/** Last name, then first name, as people read them (case and accents aside). */
export function byName(a: BatchEntry, b: BatchEntry): number {
  return collator.compare(a.input.last_name, b.input.last_name) || collator.compare(a.input.first_name, b.input.first_name);
}

/** The new risk score; a row the service refused sorts below every score. */
export function byRisk(a: BatchEntry, b: BatchEntry): number {
  return (a.result?.risk.score ?? -1) - (b.result?.risk.score ?? -1);
}

function delta(e: BatchEntry): number {
  if (!e.result) return Number.NEGATIVE_INFINITY;
  return e.result.risk.score - (e.input.previous?.risk_score ?? 0);
}

/** How far the score moved since the previous result (a row with no previous result moved from 0). */
export function byRiskChange(a: BatchEntry, b: BatchEntry): number {
  const da = delta(a);
  const db = delta(b);
  return da === db ? 0 : da < db ? -1 : 1;
}

// Undecided rows first, then the work still open (needs info, escalated, awaiting approval), then
// the rows that are settled (cleared).
function decisionRank(e: BatchEntry): number {
  const d = e.decision;
  if (!d) return 0;
  if (d.disposition === 'needs_info') return 1;
  if (d.disposition === 'escalated') return 2;
  return d.approval?.state === 'pending' ? 3 : 4;
}

/** Undecided first, cleared last. */
export function byDecision(a: BatchEntry, b: BatchEntry): number {
  return decisionRank(a) - decisionRank(b);
}
