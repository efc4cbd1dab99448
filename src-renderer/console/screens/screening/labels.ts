// Screening-screen wording that only this screen needs: list sources, countries and list dates.
// The words for the service's codes (kinds, risk, flags, methods) are in
// components/screening-labels.ts.
import { partialDateLabel } from '../../../../src-shared/dates';

/** Short names for the shipped lists; anything else shows the title the service reports. */
const SOURCE_SHORT: Record<string, string> = {
  us_ofac_sdn: 'OFAC SDN',
  us_ofac_cons: 'OFAC non-SDN',
  us_csl: 'US Consolidated Screening List',
  un_sc: 'UN Security Council',
  uk_sanctions: 'UK Sanctions List',
  au_dfat: 'Australia (DFAT)',
  pep_us_congress: 'US Congress (PEP)',
  pep_us_executive: 'US Presidents and Vice Presidents (PEP)',
  pep_wikidata_leaders: 'Heads of state and government (PEP, Wikidata)',
};

export function sourceLabel(source: string, titles: ReadonlyMap<string, string>): string {
  return SOURCE_SHORT[source] ?? titles.get(source) ?? source;
}

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  } catch {
    return null;
  }
})();

/** "RU" → "Russia"; undefined for codes that are not a region. */
export function countryName(code: string): string | undefined {
  if (!/^[A-Za-z]{2}$/.test(code)) return undefined;
  try {
    return regionNames?.of(code.toUpperCase()) ?? undefined;
  } catch {
    return undefined;
  }
}

/** "27 Feb 2026", or "retrieved 3 May 2024" when the list states no date of its own. */
export function versionDate(v: { list_date: string | null; retrieval_date: string | null }): string {
  if (v.list_date) return partialDateLabel(v.list_date);
  if (v.retrieval_date) return `retrieved ${partialDateLabel(v.retrieval_date)}`;
  return 'undated';
}
