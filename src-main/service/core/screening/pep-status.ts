// A PEP record's status in the match explanation: a current office holder, or a former one and
// until when. Qualifiers with no effect on the score: being a former PEP does not make the name
// match less likely; it tells the analyst what kind of exposure the match is.
import type { MatchExplanation } from '../../../../src-shared/contracts/screening';
import type { EntityPosition, ListEntity } from './types';

type Qualifier = MatchExplanation['qualifiers'][number];

function since(p: EntityPosition): string {
  return p.start ? ` (since ${p.start})` : '';
}

/**
 * `current_pep` with the current office (the latest started, if several), or `former_pep` with
 * the office that ended last and its end date. Records without offices (user lists) get none.
 */
export function pepStatus(e: Pick<ListEntity, 'kind' | 'positions'>): Qualifier[] {
  if (e.kind !== 'pep' || !e.positions || e.positions.length === 0) return [];
  const current = e.positions.filter((p) => p.current).sort((a, b) => (b.start ?? '').localeCompare(a.start ?? ''))[0];
  if (current) return [{ factor: 'current_pep', effect: 0, detail: `current ${current.role}${since(current)}` }];
  const ended = e.positions.filter((p) => p.end).sort((a, b) => (b.end ?? '').localeCompare(a.end ?? ''))[0];
  if (ended) return [{ factor: 'former_pep', effect: 0, detail: `former ${ended.role} until ${ended.end}` }];
  const any = [...e.positions].sort((a, b) => (b.start ?? '').localeCompare(a.start ?? ''))[0]!;
  return [{ factor: 'former_pep', effect: 0, detail: `former ${any.role}${any.start ? ` from ${any.start}` : ''} (end date not given)` }];
}
