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
/** Least risk of an uncleared match, so it is never "clear". */
const FLOOR: Record<'strong' | 'possible', Record<ListKind, number>> = {
  strong: { sanctions: 80, wanted: 75, pep: 60, rca: 45 },
  possible: { sanctions: 45, wanted: 40, pep: 35, rca: 30 },
};
/** Possible matches land in the spec's review band: a scale down and a ceiling below high. */
const POSSIBLE_SCALE = 0.7;
const MEDIUM_MAX = RISK_BANDS[1].max;
/**
 * The most one match on a kind of list can carry. Being a politically exposed person is a reason
 * for enhanced due diligence, not a prohibition: a PEP match, even strong and exact, is medium
 * risk (review), never the sanctions' high band.
 */
const KIND_CEILING: Record<ListKind, number> = { sanctions: 100, wanted: 100, pep: MEDIUM_MAX, rca: 100 };

export function band(score: number): { level: Risk['level']; decision: Risk['decision'] } {
  const b = RISK_BANDS.find((x) => score >= x.min && score <= x.max) ?? RISK_BANDS[0];
  return { level: b.level, decision: b.decision };
}

/**
 * The risk one uncleared match carries. Only a strong (corroborated) match can reach the high
 * band; a possible one, including an exact name whose date of birth or country disagrees,
 * stays in the review band whatever its score.
 */
export function matchRisk(m: Pick<RiskInput, 'kind' | 'score' | 'strength'>): number {
  if (m.strength === 'weak') return 0;
  if (m.strength === 'strong') return Math.min(KIND_CEILING[m.kind], Math.max(Math.round(m.score * KIND_WEIGHT[m.kind]), FLOOR.strong[m.kind]));
  return Math.min(MEDIUM_MAX, KIND_CEILING[m.kind], Math.max(Math.round(m.score * KIND_WEIGHT[m.kind] * POSSIBLE_SCALE), FLOOR.possible[m.kind]));
}

/** The level one match alone carries (shown next to it with its reason). */
export function matchLevel(m: Pick<RiskInput, 'kind' | 'score' | 'strength'>): 'medium' | 'high' {
  return band(matchRisk(m)).level === 'high' ? 'high' : 'medium';
}

export function assessRisk(matches: RiskInput[], extraFlags: string[] = []): Risk {
  const open = matches.filter((m) => !m.cleared && m.strength !== 'weak');
  let score = 0;
  for (const m of open) score = Math.max(score, matchRisk(m));
  // Several independent hits are more concerning than one, but never by more than 10 points,
  // and possible matches, however many, stay in the review band.
  if (open.length > 1) {
    const ceiling = band(score).level === 'high' ? 100 : MEDIUM_MAX;
    score = Math.min(ceiling, score + Math.min(10, 2 * (open.length - 1)));
  }
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
