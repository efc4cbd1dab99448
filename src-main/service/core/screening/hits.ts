// What a screening's result says about the kinds of list it hit, for the ledger's
// `hit_categories` (migration 0011): list kinds only, never the names or records matched.
import { LIST_KINDS, type ListKind } from '../../../../src-shared/contracts/screening';

/** The kinds of list with an uncleared match, comma-separated in LIST_KINDS order; '' = no hit. */
export function hitCategories(matches: readonly { list: ListKind; cleared: boolean }[]): string {
  const hit = new Set(matches.filter((m) => !m.cleared).map((m) => m.list));
  return LIST_KINDS.filter((k) => hit.has(k)).join(',');
}

/** The ledger's failure reason for a screening with an uncleared match (as KYC-plus writes it). */
export const SCREENING_HIT = 'screening_hit';
