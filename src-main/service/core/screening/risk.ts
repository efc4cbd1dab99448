// From matches to the spec's risk block: score 0-100, level/decision by the spec's bands,
// upper-case flags and lower-case reasons. Signals, not decisions: the words approved,
// rejected, pass and fail never appear here.
import { RISK_BANDS } from '../../../../src-shared/catalog';
import type { ListKind, PreviousResultSummary, RiskChange } from '../../../../src-shared/contracts/screening';

export interface RiskInput {
  kind: ListKind;
  /** Match score 0..100 after qualifiers. */
  score: number;
  strength: 'strong' | 'possible' | 'weak';
  cleared: boolean;
}

export interface Risk {
  score: number;
  level: 'low' | 'medium' | 'high';
  decision: 'clear' | 'review' | 'high_risk_review';
  reasons: string[];
  flags: string[];
}

/** How much a perfect match on each kind of list weighs, out of 100. */
const KIND_WEIGHT: Record<ListKind, number> = { sanctions: 1.0, wanted: 0.95, pep: 0.75, rca: 0.6 };
/** Minimum risk for any uncleared strong/possible match, so it is never "clear". */
const FLOOR: Record<'strong' | 'possible', Record<ListKind, number>> = {
  strong: { sanctions: 80, wanted: 75, pep: 50, rca: 40 },
  possible: { sanctions: 45, wanted: 40, pep: 30, rca: 30 },
};

export function band(score: number): { level: Risk['level']; decision: Risk['decision'] } {
  const b = RISK_BANDS.find((x) => score >= x.min && score <= x.max) ?? RISK_BANDS[0];
  return { level: b.level, decision: b.decision };
}

export function assessRisk(matches: RiskInput[], extraFlags: string[] = []): Risk {
  const open = matches.filter((m) => !m.cleared && m.strength !== 'weak');
  let score = 0;
  for (const m of open) {
    const s = Math.max(Math.round(m.score * KIND_WEIGHT[m.kind]), FLOOR[m.strength as 'strong' | 'possible'][m.kind]);
    score = Math.max(score, s);
  }
  // Several independent hits are more concerning than one, but never by more than 10 points.
  if (open.length > 1) score = Math.min(100, score + Math.min(10, 2 * (open.length - 1)));
  const flags = new Set<string>();
  for (const m of open) flags.add(`${m.kind.toUpperCase()}_${m.strength.toUpperCase()}_MATCH`);
  if (open.length > 1) flags.add('MULTIPLE_MATCHES');
  for (const f of extraFlags) flags.add(f);
  const ordered = [...flags].sort(flagOrder);
  return { score, ...band(score), flags: ordered, reasons: ordered.map((f) => f.toLowerCase()) };
}

function flagOrder(a: string, b: string): number {
  const rank = (f: string) => (f.includes('STRONG') ? 0 : f.includes('POSSIBLE') ? 1 : 2);
  return rank(a) - rank(b) || a.localeCompare(b);
}

const LEVEL_RANK = { low: 0, medium: 1, high: 2 } as const;

/**
 * Rescreen: a change of level, a new match flag, or a score move of 10 points or more is a
 * change; anything smaller is noise from list updates. No summary → unknown.
 */
export function riskChange(now: Risk, previous: PreviousResultSummary | undefined): RiskChange {
  if (!previous) return 'unknown_without_prior_result';
  const dl = LEVEL_RANK[now.level] - LEVEL_RANK[previous.risk_level];
  if (dl !== 0) return dl > 0 ? 'risk_increased' : 'risk_decreased';
  const before = new Set(previous.flags);
  const newMatchFlag = now.flags.some((f) => f.endsWith('_MATCH') && !before.has(f));
  const ds = now.score - previous.risk_score;
  if (newMatchFlag && ds >= 0) return 'risk_increased';
  if (ds >= 10) return 'risk_increased';
  if (ds <= -10) return 'risk_decreased';
  return 'risk_unchanged';
}
