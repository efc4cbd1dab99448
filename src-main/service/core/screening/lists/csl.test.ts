// Behaviour on small inline fixtures; the same importer on the real shipped file is tested in
// shipped-lists.test.ts (one import of each file per run).
import { gzipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { FormatError } from './common';
import { cslCode, cslOrigin, importCsl } from './csl';

const HEADER =
  '_id,source,entity_number,type,programs,name,title,addresses,federal_register_notice,start_date,end_date,standard_order,license_requirement,license_policy,call_sign,vessel_type,gross_tonnage,gross_registered_tonnage,vessel_flag,vessel_owner,remarks,source_list_url,alt_names,citizenships,dates_of_birth,nationalities,places_of_birth,source_information_url,ids';
const row = (cells: Record<string, string>): string =>
  HEADER.split(',').map((h) => `"${(cells[h] ?? '').replace(/"/g, '""')}"`).join(',');
const CSV = [
  HEADER,
  row({
    _id: '17292', source: 'Specially Designated Nationals (SDN) - Treasury Department', entity_number: '17292', type: 'Individual',
    programs: 'SDGT', name: "'ABD AL-SALAM, Ashraf", alt_names: 'Khattab; Ibn al-Khattab', dates_of_birth: '1984-01-01; circa 1985',
    nationalities: 'JO', citizenships: 'SY', addresses: 'Amman, JO; Street 1, Doha, 12345',
    ids: 'QA, 28440000526, National ID No.; JO, 2014-08-30, 2009-08-31, K475336, Passport; Male, Gender; http://x.example, Website',
  }),
  row({ _id: '17292', source: 'Sectoral Sanctions Identifications List (SSI) - Treasury Department', entity_number: '17292', type: 'Entity', name: 'SAME NUMBER, OTHER LIST' }),
  row({ _id: 'deb7a1d5', source: 'Denied Persons List (DPL) - Bureau of Industry and Security', name: ' I. ASH', addresses: 'FCI SEAGOVILLE, TX, 75159, US', start_date: '2019-07-16' }),
  row({ _id: 'e1', source: 'Entity List (EL) - Bureau of Industry and Security', name: 'Some Institute' }),
  row({ _id: 'v1', source: 'Specially Designated Nationals (SDN) - Treasury Department', entity_number: 'v1', type: 'Vessel', name: 'SHIP', call_sign: '9HA1', vessel_flag: 'Iran' }),
  row({ _id: 'v1', source: 'Specially Designated Nationals (SDN) - Treasury Department', entity_number: 'v1', type: 'Vessel', name: 'SHIP' }),
].join('\n');

describe('importCsl on a small file', () => {
  it('reads gzip or plain CSV, with multi-values, ids and the sub-list', () => {
    for (const bytes of [strToU8(CSV), gzipSync(strToU8(CSV))]) {
      const imp = importCsl(bytes);
      expect(imp.counts.total).toBe(4);
      expect(imp.skipped).toEqual({ export_control_EL: 1, duplicate_row: 1 });
      expect(imp.entities[0]).toMatchObject({
        id: 'us_csl:SDN:17292',
        sourceList: 'Specially Designated Nationals (SDN)',
        schema: 'person',
        gender: 'male',
        names: [
          { name: "'ABD AL-SALAM, Ashraf", kind: 'primary', quality: 'strong' },
          { name: 'Khattab', kind: 'aka', quality: 'strong' },
          { name: 'Ibn al-Khattab', kind: 'aka', quality: 'strong' },
        ],
        dobs: ['1984-01-01', '1985'],
        countries: ['JO', 'SY'],
        ids: [
          { type: 'National ID No.', number: '28440000526', country: 'QA' },
          { type: 'Passport', number: 'K475336', country: 'JO' },
        ],
        programs: ['SDGT'],
      });
      expect(imp.entities[1]?.id).toBe('us_csl:SSI:17292');
      expect(imp.entities[2]).toMatchObject({ schema: 'unknown', names: [{ name: 'I. ASH' }], countries: ['US'], listedOn: '2019-07-16' });
      expect(imp.entities[0]?.listedOn).toBeUndefined();
      expect(imp.entities[3]).toMatchObject({ schema: 'vessel', countries: ['IR'], ids: [{ type: 'Call Sign', number: '9HA1' }] });
    }
  });

  it('keeps the export-control lists when asked', () => {
    expect(importCsl(strToU8(CSV), { includeExportControl: true }).counts.total).toBe(5);
  });

  it('skips rows an OFAC source already holds', () => {
    const imp = importCsl(strToU8(CSV), { duplicateOf: (code, n) => (code === 'SDN' && n === '17292' ? 'us_ofac_sdn' : undefined) });
    expect(imp.skipped.duplicate_SDN_in_us_ofac_sdn).toBe(1);
    expect(imp.entities.map((e) => e.id)).not.toContain('us_csl:SDN:17292');
  });

  it('names sub-lists by their code and reads ids back', () => {
    expect(cslCode('Non-SDN Menu-Based Sanctions List (NS-MBS List) - Treasury Department')).toBe('NS-MBS');
    expect(cslCode('Military End User (MEU) List - Bureau of Industry and Security')).toBe('MEU');
    expect(cslOrigin({ id: 'us_csl:SDN:36', source: 'us_csl' })).toEqual({ code: 'SDN', entityNumber: '36' });
  });

  it('refuses a CSV without the CSL columns', () => {
    expect(() => importCsl(strToU8('a,b\n1,2'))).toThrow(FormatError);
  });
});
