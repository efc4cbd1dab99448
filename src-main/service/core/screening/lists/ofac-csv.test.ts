// Behaviour on small inline fixtures; the same importer on the real shipped file is tested in
// shipped-lists.test.ts (one import of each file per run).
import { describe, expect, it } from 'vitest';
import { importOfacCsv, splitPrograms } from './ofac-csv';
import { ofacCsv } from './test-support';

const SDN = ofacCsv([
  `7513,"MNANGAGWA, Emmerson Dambudzo","individual","GLOMAG",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 15 Sep 1946; alt. DOB 15 Sep 1942; nationality Zimbabwe; Gender Male; Passport AD005831 (Zimbabwe) issued 11 Jan 2018 expires 10 Jan 2028; a.k.a. 'CROCODILE'."`,
  `306,"BANCO NACIONAL DE CUBA",-0- ,"CUBA",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"a.k.a. 'BNC'."`,
  `9001,"SHIP ONE","vessel","SDGT] [IRGC",-0- ,"9HA1234","Crude Oil Tanker",-0- ,-0- ,"Malta",-0- ,"Vessel Registration Identification IMO 1234567."`,
  `9002,"JET ONE","aircraft","IRAN",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- `,
]);
const ALT = ofacCsv([
  `7513,100,"aka","MNANGAGWA, Emmerson",-0- `,
  `306,220,"aka","NATIONAL BANK OF CUBA",-0- `,
  `306,221,"fka","OLD BANK OF CUBA",-0- `,
  `5555,300,"aka","NOT IN SDN",-0- `,
]);
const ADD = ofacCsv([
  `306,199,"Zweierstrasse 35","Zurich CH-8022","Switzerland",-0- `,
  `7513,1,-0- ,"Harare","Zimbabwe",-0- `,
  `5555,2,-0- ,-0- ,"Iran",-0- `,
]);

describe('importOfacCsv on a small set', () => {
  const imp = importOfacCsv({ primary: SDN, alt: ALT, add: ADD }, { list: 'sdn' });
  const byId = new Map(imp.entities.map((e) => [e.id, e]));

  it('reads every entry, skips the 0x1A byte and counts by schema', () => {
    expect(imp.counts).toEqual({ total: 4, person: 1, organization: 1, vessel: 1, aircraft: 1, unknown: 0 });
    expect(imp.skipped).toEqual({ alt_orphan: 1, add_orphan: 1 });
    expect(imp.listDate).toBeNull();
    expect(imp.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('joins names, remarks and addresses of an individual', () => {
    const e = byId.get('us_ofac_sdn:7513');
    expect(e).toMatchObject({
      source: 'us_ofac_sdn', sourceList: 'SDN', kind: 'sanctions', schema: 'person', gender: 'male',
      names: [
        { name: 'MNANGAGWA, Emmerson Dambudzo', kind: 'primary', quality: 'strong' },
        { name: 'MNANGAGWA, Emmerson', kind: 'aka', quality: 'strong' },
        { name: 'CROCODILE', kind: 'aka', quality: 'weak' },
      ],
      dobs: ['1942-09-15', '1946-09-15'],
      countries: ['ZW'],
      ids: [{ type: 'Passport', number: 'AD005831', country: 'ZW' }],
      programs: ['GLOMAG'],
    });
  });

  it('reads entities, vessels and programme lists', () => {
    expect(byId.get('us_ofac_sdn:306')?.names.map((n) => [n.name, n.kind, n.quality])).toEqual([
      ['BANCO NACIONAL DE CUBA', 'primary', 'strong'],
      ['NATIONAL BANK OF CUBA', 'aka', 'strong'],
      ['OLD BANK OF CUBA', 'fka', 'strong'],
      ['BNC', 'aka', 'weak'],
    ]);
    expect(byId.get('us_ofac_sdn:306')?.countries).toEqual(['CH']);
    const ship = byId.get('us_ofac_sdn:9001');
    expect(ship?.programs).toEqual(['SDGT', 'IRGC']);
    expect(ship?.countries).toEqual(['MT']);
    expect(ship?.ids).toEqual([
      { type: 'Vessel Registration Identification', number: 'IMO 1234567' },
      { type: 'Call Sign', number: '9HA1234' },
    ]);
  });

  it('continues remarks cut at 1000 characters from the comments file', () => {
    const head = 'Website http://example.org/';
    const tail = "; a.k.a. 'SPLIT NA";
    const remarks = head + 'a'.repeat(1000 - head.length - tail.length) + tail;
    const primary = ofacCsv([`1,"X CORP",-0- ,"SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"${remarks}"`]);
    const comments = ofacCsv([`1,"ME'; Passport P1 (Iran)."`]);
    const e = importOfacCsv({ primary, comments }, { list: 'sdn' }).entities[0];
    expect(e?.names.at(-1)).toEqual({ name: 'SPLIT NAME', kind: 'aka', quality: 'weak' });
    expect(e?.ids).toEqual([{ type: 'Passport', number: 'P1', country: 'IR' }]);
  });

  it('recognises a spreadsheet-saved alt.csv (header row, empty row after 0x1A)', () => {
    const alt = new TextEncoder().encode('ent_num,alt_num,alt_type,alt_name,alt_remarks\r\n306,220,aka,NATIONAL BANK OF CUBA,-0- \r\n\u001a,,,,');
    const imp2 = importOfacCsv({ primary: SDN, alt }, { list: 'sdn' });
    expect(imp2.skipped).toEqual({});
    expect(imp2.entities.find((e) => e.id === 'us_ofac_sdn:306')?.names).toHaveLength(3);
  });

  it('names the non-SDN list from the programme', () => {
    const prim = ofacCsv([`9639,"HANIYA, Ismail","individual","NS-PLC",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 1962; nationality Palestinian."`]);
    const e = importOfacCsv({ primary: prim }, { list: 'cons' }).entities[0];
    expect(e).toMatchObject({ id: 'us_ofac_cons:9639', source: 'us_ofac_cons', sourceList: 'NS-PLC', countries: ['PS'], dobs: ['1962'] });
  });

  it('splits programme fields', () => {
    expect(splitPrograms('SDGT] [IRGC')).toEqual(['SDGT', 'IRGC']);
    expect(splitPrograms('CUBA')).toEqual(['CUBA']);
    expect(splitPrograms('')).toEqual([]);
  });
});
