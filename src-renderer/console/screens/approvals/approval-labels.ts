// Words for what the approval queue shows of a clearance: who asked, the evidence flags of the
// matches it clears (kept by the service) and what the analyst saw (held in memory while their
// batch is open: the customer and the listed people).
import type { ApprovalItem, ApprovalMatch, MatchEvidence, SeenCustomer, SeenListed } from '../../../../src-shared/contracts/review';

export const requester = (c: ApprovalItem) => c.requested_by.name ?? c.requested_by.email ?? `user ${c.requested_by.user_id}`;

const DOB: Record<MatchEvidence['dob'], string> = {
  exact: 'birth date exact', year: 'birth year matches', differs: 'birth date differs', none: 'no birth date given',
};
const COUNTRY: Record<MatchEvidence['country'], string> = {
  match: 'country listed', differs: 'country differs', none: 'no country given',
};

/** "birth date differs · country listed · exact name" */
export function evidenceText(m: ApprovalMatch): string {
  if (!m.evidence) return 'evidence not recorded';
  return [DOB[m.evidence.dob], COUNTRY[m.evidence.country], m.evidence.exact_name ? 'exact name' : 'name not exact'].join(' · ');
}

/** Said when the service no longer holds what the analyst saw. */
export const NOT_HELD_TEXT = 'No longer held: the analyst’s batch has ended';

/** "born 1952-10-07 · RU · ref cust-0"; what the customer row had beside the name. */
export function customerDetails(c: SeenCustomer): string {
  return [
    c.date_of_birth ? `born ${c.date_of_birth}` : 'no date of birth', c.country ?? 'no country', c.client_reference_id ? `ref ${c.client_reference_id}` : null,
  ].filter(Boolean).join(' · ');
}

/** The listed person the analyst saw for a match, if the service still holds it. */
export function listedFor(item: ApprovalItem, m: ApprovalMatch): SeenListed | null {
  return item.seen?.listed.find((l) => l.entity_id === m.entity_id) ?? null;
}

/** "us_ofac_sdn · RUSSIA-EO14024 · born 1952-10-07 · RU" */
export function listedDetails(l: SeenListed): string {
  return [
    l.source, l.programs.length ? l.programs.slice(0, 3).join(', ') + (l.programs.length > 3 ? ` +${l.programs.length - 3}` : '') : null,
    l.dates_of_birth.length ? `born ${l.dates_of_birth.slice(0, 2).join(', ')}` : null, l.countries.length ? l.countries.slice(0, 3).join(', ') : null,
  ].filter(Boolean).join(' · ');
}
