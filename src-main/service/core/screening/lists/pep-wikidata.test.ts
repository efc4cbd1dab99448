import { strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { importOfficialFile } from './official';
import { importWikidataLeaders } from './pep-wikidata';

const HEADER = 'iso3,country,role,person,person_qid,start,end,party,end_cause';
const HISTORY = [
  HEADER,
  'JPN,Japão,head_of_government,Shinzo Abe,Q132345,2012-12-26T00:00:00Z,2020-09-16T00:00:00Z,LDP,',
  'JPN,Japão,head_of_government,Shinzo Abe,Q132345,2006-09-26T00:00:00Z,2007-09-26T00:00:00Z,LDP,',
  'JPN,Japão,head_of_government,Shigeru Ishiba,Q1335527,2024-10-01T00:00:00Z,2024-11-11T00:00:00Z,LDP,',
  'JPN,Japão,head_of_government,Shigeru Ishiba,Q1335527,2024-11-11T00:00:00Z,,LDP,',
  'ABW,Aruba,head_of_government,Evelyn Wever-Croes,Q23038705,2017-11-17T00:00:00Z,,MEP,',
  'SMR,San Marino,head_of_state,Italo Righi,Q1353628,20254-04-01T00:00:00Z,,PDCS,',
  'AND,Andorra,head_of_state,Q9025037,Q9025037,1622-08-08T00:00:00Z,1627-01-03T00:00:00Z,,',
  '"HKG","Hong Kong, RAE da China",head_of_government,John Lee,Q9051824,2022-07-01T00:00:00Z,,,',
].join('\n');
const CURRENT = [
  HEADER,
  'JPN,Japão,head_of_government,Shigeru Ishiba,Q1335527,2024-11-11T00:00:00Z,,LDP,',
  'SMR,San Marino,head_of_state,Italo Righi,Q1353628,20254-04-01T00:00:00Z,,PDCS,',
  'HKG,"Hong Kong, RAE da China",head_of_government,John Lee,Q9051824,2022-07-01T00:00:00Z,,,',
].join('\n');

describe('Wikidata heads of state and government (leaders CSV)', () => {
  const imp = importWikidataLeaders({ history: strToU8(HISTORY), current: strToU8(CURRENT) });
  const byQid = (q: string) => imp.entities.find((e) => e.id === `pep_wikidata_leaders:${q}`);

  it('one record per person with their offices, countries from the ISO alpha-3 code, dated by the latest start', () => {
    expect(imp.listDate).toBe('2024-11-11');
    expect(byQid('Q132345')).toMatchObject({
      kind: 'pep', schema: 'person', names: [{ name: 'Shinzo Abe', kind: 'primary', quality: 'strong' }], countries: ['JP'],
      ids: [{ type: 'Wikidata', number: 'Q132345' }], programs: ['Head of government of Japan'],
    });
    expect(byQid('Q132345')?.positions).toEqual([
      { role: 'Head of government of Japan', country: 'JP', start: '2012-12-26', end: '2020-09-16', current: false },
      { role: 'Head of government of Japan', country: 'JP', start: '2006-09-26', end: '2007-09-26', current: false },
    ]);
    expect(byQid('Q9051824')?.countries).toEqual(['HK']);
  });

  it('keeps the row of a corrupt date (20254-04-01) without the date, and counts it', () => {
    expect(byQid('Q1353628')?.positions).toEqual([{ role: 'Head of state of San Marino', country: 'SM', current: true }]);
    expect(imp.skipped.unreadable_date_dropped).toBe(2);
  });

  it('current is what the current file says; an open-ended history row it does not list is former', () => {
    expect(byQid('Q1335527')?.positions?.[0]).toEqual({ role: 'Head of government of Japan', country: 'JP', start: '2024-11-11', current: true });
    expect(byQid('Q1335527')?.positions?.[1]).toMatchObject({ start: '2024-10-01', end: '2024-11-11', current: false });
    expect(byQid('Q23038705')?.positions).toEqual([{ role: 'Head of government of Aruba', country: 'AW', start: '2017-11-17', current: false }]);
    // The history file alone: open-ended offices are current.
    const alone = importWikidataLeaders({ history: strToU8(HISTORY) });
    expect(alone.entities.find((e) => e.id === 'pep_wikidata_leaders:Q23038705')?.positions?.[0]?.current).toBe(true);
  });

  it('a person Wikidata has no label for has no name to match: left out and counted', () => {
    expect(byQid('Q9025037')).toBeUndefined();
    expect(imp.skipped.without_name).toBe(1);
  });

  it('a newer file through the official import: recognised by its header, one file or both', () => {
    const one = importOfficialFile('pep_wikidata_leaders', [{ name: 'leaders_history.csv', bytes: strToU8(HISTORY) }]);
    expect(one).toMatchObject({ ok: true, format: 'wikidata-leaders-csv', files: [{ role: 'list' }] });
    const both = importOfficialFile('pep_wikidata_leaders', [
      { name: 'leaders_current.csv', bytes: strToU8(CURRENT) }, { name: 'leaders_history.csv', bytes: strToU8(HISTORY) },
    ]);
    expect(both.ok && both.files.map((f) => f.role).sort()).toEqual(['current', 'list']);
    expect(both.ok && both.import.sha256).toBe(imp.sha256);
    expect(importOfficialFile('pep_wikidata_leaders', strToU8('name,dob\nx,1960\n'))).toEqual({ ok: false, reason: expect.stringMatching(/not a Wikidata leaders CSV/) });
    expect(importOfficialFile('pep_wikidata_leaders', strToU8(`${HEADER}\n`))).toMatchObject({ ok: false, reason: /no office holders/ });
  });
});
