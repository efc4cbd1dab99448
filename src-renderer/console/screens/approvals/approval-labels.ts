// Words for what the approval queue shows of a clearance: who asked, and the evidence flags of the
// matches it clears (the service keeps flags, never the subject or the listed record).
import type { ApprovalItem, ApprovalMatch, MatchEvidence } from '../../../../src-shared/contracts/review';

export const requester = (c: ApprovalItem) => c.requested_by.name ?? c.requested_by.email ?? `user ${c.requested_by.user_id}`;

const DOB: Record<MatchEvidence['dob'], string> = {
  exact: 'birth date exact', year: 'birth year matches', differs: 'birth date differs', none: 'no birth date',
};
const COUNTRY: Record<MatchEvidence['country'], string> = {
  match: 'country listed', differs: 'country differs', none: 'no country',
};

/** "birth date differs · country listed · exact name" */
export function evidenceText(m: ApprovalMatch): string {
  if (!m.evidence) return 'evidence not recorded';
  return [DOB[m.evidence.dob], COUNTRY[m.evidence.country], m.evidence.exact_name ? 'exact name' : 'name not exact'].join(' · ');
}
