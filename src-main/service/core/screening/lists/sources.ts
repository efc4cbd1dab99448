// The official sources the product knows, their publishers, the spec's list kind each maps to,
// and the formats a newer file of each may come in.
import { type OFFICIAL_FORMATS, OFFICIAL_SOURCES, type OfficialSource } from '../../../../../src-shared/contracts/lists';
import type { ListKind } from '../types';

export { OFFICIAL_SOURCES, type OfficialSource };

export type ListFormat = (typeof OFFICIAL_FORMATS)[number];

export interface SourceInfo {
  source: OfficialSource;
  title: string;
  publisher: string;
  /** Sanctions for the sanctions lists, 'pep' for the shipped PEP sources; RCA/wanted data comes from user lists. */
  listKind: ListKind;
  formats: readonly ListFormat[];
  homepage: string;
  terms: string;
}

export const SOURCE_INFO: Record<OfficialSource, SourceInfo> = {
  us_ofac_sdn: {
    source: 'us_ofac_sdn',
    title: 'OFAC Specially Designated Nationals and Blocked Persons List (SDN)',
    publisher: 'U.S. Department of the Treasury, Office of Foreign Assets Control (OFAC)',
    listKind: 'sanctions',
    formats: ['ofac-csv', 'ofac-enhanced-xml'],
    homepage: 'https://ofac.treasury.gov/sanctions-list-service',
    terms: 'U.S. federal government work, public domain in the U.S. (17 U.S.C. 105)',
  },
  us_ofac_cons: {
    source: 'us_ofac_cons',
    title: 'OFAC Consolidated Sanctions List (non-SDN: SSI, FSE, NS-PLC, NS-MBS, CAPTA, CMIC)',
    publisher: 'U.S. Department of the Treasury, Office of Foreign Assets Control (OFAC)',
    listKind: 'sanctions',
    formats: ['ofac-enhanced-xml', 'ofac-csv'],
    homepage: 'https://ofac.treasury.gov/sanctions-list-service',
    terms: 'U.S. federal government work, public domain in the U.S. (17 U.S.C. 105)',
  },
  us_csl: {
    source: 'us_csl',
    title: 'U.S. Consolidated Screening List (Commerce, State and Treasury)',
    publisher: 'U.S. Department of Commerce, International Trade Administration',
    listKind: 'sanctions',
    formats: ['csl-csv'],
    homepage: 'https://www.trade.gov/consolidated-screening-list',
    terms: 'U.S. federal government work, public domain in the U.S. (17 U.S.C. 105)',
  },
  un_sc: {
    source: 'un_sc',
    title: 'United Nations Security Council Consolidated List',
    publisher: 'United Nations Security Council',
    listKind: 'sanctions',
    formats: ['un-xml'],
    homepage: 'https://main.un.org/securitycouncil/en/content/un-sc-consolidated-list',
    terms: 'Published by the UN for public use; attribute to the "UN Security Council Consolidated List", no UN endorsement implied',
  },
  pep_us_congress: {
    source: 'pep_us_congress',
    title: 'U.S. Congress: current members (PEP)',
    publisher: 'The @unitedstates project (congress-legislators), from official Congress sources',
    listKind: 'pep',
    formats: ['us-legislators-yaml'],
    homepage: 'https://github.com/unitedstates/congress-legislators',
    terms: 'CC0 1.0 (public domain dedication), the @unitedstates project',
  },
  pep_us_executive: {
    source: 'pep_us_executive',
    title: 'U.S. Presidents and Vice Presidents, current and former (PEP)',
    publisher: 'The @unitedstates project (congress-legislators), from official sources',
    listKind: 'pep',
    formats: ['us-legislators-yaml'],
    homepage: 'https://github.com/unitedstates/congress-legislators',
    terms: 'CC0 1.0 (public domain dedication), the @unitedstates project',
  },
  pep_wikidata_leaders: {
    source: 'pep_wikidata_leaders',
    title: 'Heads of state and government, current and former (Wikidata) (PEP)',
    publisher: 'Wikidata (Wikimedia Foundation), query results of heads of state and government',
    listKind: 'pep',
    formats: ['wikidata-leaders-csv'],
    homepage: 'https://www.wikidata.org/',
    terms: 'Wikidata content, CC0 1.0 (public domain dedication)',
  },
  uk_sanctions: {
    source: 'uk_sanctions',
    title: 'UK Sanctions List (FCDO) merged with the OFSI Consolidated List of Financial Sanctions Targets',
    publisher: 'UK Foreign, Commonwealth & Development Office (FCDO) and HM Treasury, Office of Financial Sanctions Implementation (OFSI)',
    listKind: 'sanctions',
    formats: ['uk-sanctions'],
    homepage: 'https://www.gov.uk/government/publications/the-uk-sanctions-list',
    terms: 'Contains public sector information licensed under the Open Government Licence v3.0',
  },
  au_dfat: {
    source: 'au_dfat',
    title: 'Australian Consolidated List (DFAT: autonomous and UN Security Council sanctions)',
    publisher: 'Commonwealth of Australia (Department of Foreign Affairs and Trade)',
    listKind: 'sanctions',
    formats: ['dfat-xlsx'],
    homepage: 'https://www.dfat.gov.au/international-relations/security/sanctions/consolidated-list',
    terms: '© Commonwealth of Australia (Department of Foreign Affairs and Trade), licensed under CC BY 4.0',
  },
};

export function isOfficialSource(value: string): value is OfficialSource {
  return (OFFICIAL_SOURCES as readonly string[]).includes(value);
}

/** Publisher and licence attribution shown with a loaded list (null for the organisation's own). */
export function listAttribution(source: string): { publisher: string | null; terms: string | null } {
  if (!isOfficialSource(source)) return { publisher: null, terms: null };
  const info = SOURCE_INFO[source];
  return { publisher: info.publisher, terms: info.terms };
}
