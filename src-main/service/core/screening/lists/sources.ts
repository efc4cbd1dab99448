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
};

export function isOfficialSource(value: string): value is OfficialSource {
  return (OFFICIAL_SOURCES as readonly string[]).includes(value);
}
