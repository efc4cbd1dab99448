// Every list record of a matched person: one person on several lists is one match
// (docs/decisions.md), so the analyst sees each list that cites them, under which programme and
// since when. Nothing is shown for a match with one record (its list is in the match's own line).
import type { MatchListing } from '../../../src-shared/contracts/screening';
import './match-explanation.css';

interface MatchListingsProps {
  listings: readonly MatchListing[];
  /** How a listing's list is named, e.g. "OFAC SDN" or "UK Sanctions List · UK". */
  label: (listing: MatchListing) => string;
  testIdPrefix?: string;
}

export function MatchListings({ listings, label, testIdPrefix: t = '' }: MatchListingsProps) {
  if (listings.length < 2) return null;
  return (
    <div className="mx-listings" data-testid={`${t}match-listings`}>
      <span className="mx-listings-title">Listed on {listings.length} lists</span>
      <ul>
        {listings.map((l) => (
          <li key={l.entity_id} data-testid={`${t}match-listing`} data-entity-id={l.entity_id}>
            <strong>{label(l)}</strong>
            {l.programs.length > 0 ? <span data-testid={`${t}match-listing-programs`}> · {l.programs.join('; ')}</span> : null}
            <span data-testid={`${t}match-listing-listed-on`}> · {l.listed_on ? `listed ${l.listed_on}` : <span className="muted">listing date not stated by the list</span>}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
