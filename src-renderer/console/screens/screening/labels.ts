// Screening-screen wording that only this screen needs: list sources, countries and list dates.
// The words for the service's codes (kinds, risk, flags, methods) are in
// components/screening-labels.ts.

/** Short names for the shipped lists; anything else shows the title the service reports. */
const SOURCE_SHORT: Record<string, string> = {
  us_ofac_sdn: 'OFAC SDN',
  us_ofac_cons: 'OFAC non-SDN',
  us_csl: 'US Consolidated Screening List',
  un_sc: 'UN Security Council',
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

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A list's date as published: "27 Feb 2026", "May 2025" for a month-only date. Parsed by hand:
 * `new Date('2026-02-27')` is midnight UTC and would show the day before west of Greenwich.
 */
export function listDate(value: string): string {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value);
  if (!m) return value;
  const month = m[2] ? MONTHS[Number(m[2]) - 1] : undefined;
  if (!m[2] || !month) return m[1]!;
  return m[3] ? `${Number(m[3])} ${month} ${m[1]}` : `${month} ${m[1]}`;
}

/** "27 Feb 2026", or "retrieved 3 May 2024" when the list states no date of its own. */
export function versionDate(v: { list_date: string | null; retrieval_date: string | null }): string {
  if (v.list_date) return listDate(v.list_date);
  if (v.retrieval_date) return `retrieved ${listDate(v.retrieval_date)}`;
  return 'undated';
}
