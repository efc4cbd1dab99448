import { strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { FormatError } from './common';
import { importOfficialFile } from './official';
import { importUsLegislators, US_YAML_MAX_BYTES } from './pep-us';

const EXECUTIVE = `
- id:
    bioguide: B000444
    wikidata: Q6279
  name:
    first: Joseph
    middle: Robinette
    last: Biden
    suffix: Jr.
    nickname: Joe
  bio:
    birthday: '1942-11-20'
    gender: M
  terms:
  - type: viceprez
    start: '2009-01-20'
    end: '2013-01-20'
  - type: viceprez
    start: '2013-01-20'
    end: '2017-01-20'
  - type: prez
    start: '2021-01-20'
    end: '2025-01-20'
- id:
    govtrack: 412733
  name:
    first: Donald
    middle: John
    last: Trump
    official_full: Donald J. Trump
  bio:
    birthday: '1946-06-14'
    gender: M
  terms:
  - type: prez
    start: '2025-01-20'
    end: '2029-01-20'
`;

const CONGRESS = `
- id:
    bioguide: S000148
  name:
    first: Charles
    middle: E.
    last: Schumer
    nickname: Chuck
    official_full: Charles E. Schumer
  bio:
    birthday: '1950-11-23'
    gender: M
  terms:
  - type: sen
    start: '2005-01-04'
    end: '2011-01-03'
    state: NY
  - type: sen
    start: '2011-01-05'
    end: '2029-01-03'
    state: NY
  - type: rep
    start: '1993-01-05'
    end: '1995-01-03'
    state: NY
    district: 9
`;

describe('@unitedstates YAML (executive.yaml, legislators-current.yaml)', () => {
  it('one person per record: name parts, nickname and official name as names, birthday, offices; dated by the latest term start', () => {
    const imp = importUsLegislators(strToU8(EXECUTIVE));
    expect(imp.source).toBe('pep_us_executive');
    expect(imp.listDate).toBe('2025-01-20');
    const [biden, trump] = imp.entities;
    expect(biden?.names.map((n) => n.name)).toEqual(['Joseph Robinette Biden', 'Joseph Robinette Biden Jr.', 'Joseph Biden', 'Joe Biden']);
    expect(biden).toMatchObject({ id: 'pep_us_executive:B000444', kind: 'pep', schema: 'person', dobs: ['1942-11-20'], gender: 'male', countries: ['US'] });
    expect(biden?.ids).toContainEqual({ type: 'Wikidata', number: 'Q6279' });
    // Consecutive vice-presidential terms are one office held.
    expect(biden?.positions).toEqual([
      { role: 'Vice President of the United States', country: 'US', start: '2009-01-20', end: '2017-01-20', current: false },
      { role: 'President of the United States', country: 'US', start: '2021-01-20', end: '2025-01-20', current: false },
    ]);
    expect(trump?.names[0]?.name).toBe('Donald J. Trump');
    expect(trump?.names.map((n) => n.name)).toContain('Donald Trump');
    expect(trump?.positions).toEqual([{ role: 'President of the United States', country: 'US', start: '2025-01-20', end: '2029-01-20', current: true }]);
  });

  it('a file with congressional terms is the Congress list; terms a few days apart join', () => {
    const imp = importUsLegislators(strToU8(CONGRESS));
    expect(imp.source).toBe('pep_us_congress');
    expect(imp.listDate).toBe('2011-01-05');
    expect(imp.entities[0]?.names.map((n) => n.name)).toEqual(['Charles E. Schumer', 'Charles Schumer', 'Chuck Schumer']);
    expect(imp.entities[0]?.positions).toEqual([
      { role: 'U.S. Representative for NY (district 9)', country: 'US', region: 'NY', start: '1993-01-05', end: '1995-01-03', current: false },
      { role: 'U.S. Senator for NY', country: 'US', region: 'NY', start: '2005-01-04', end: '2029-01-03', current: true },
    ]);
  });

  it('an unreadable birthday or term date is dropped and counted; the person is kept', () => {
    const imp = importUsLegislators(strToU8(EXECUTIVE.replace("'1942-11-20'", "'1942-13-45'").replace("start: '2021-01-20'", "start: '20211-01-20'")));
    const biden = imp.entities.find((e) => e.id === 'pep_us_executive:B000444');
    expect(biden?.dobs).toEqual([]);
    expect(biden?.positions?.find((p) => p.role.startsWith('President'))).toEqual({ role: 'President of the United States', country: 'US', end: '2025-01-20', current: false });
    expect(imp.skipped).toEqual({ unreadable_birthday: 1, unreadable_term_date: 1 });
  });

  it('parses bounded: no tags, no alias bombs, no oversize file, no other shape', () => {
    expect(() => importUsLegislators(strToU8('- !!js/function "x"\n'))).toThrow(FormatError);
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`)].join('\n');
    expect(() => importUsLegislators(strToU8(`- x:\n    ${bomb.replace(/\n/g, '\n    ')}\n`))).toThrow(/too many aliases/);
    expect(() => importUsLegislators(new Uint8Array(US_YAML_MAX_BYTES + 1))).toThrow(/larger than 32 MiB/);
    expect(() => importUsLegislators(strToU8('name: x\n'))).toThrow(/expected a list of people/);
    expect(() => importUsLegislators(strToU8('- name: {first: A, last: B}\n  id: {bioguide: X}\n  terms: [{type: governor}]\n'))).toThrow(/no terms of office/);
  });
});

describe('a newer @unitedstates file through the official import', () => {
  it('is recognised by its terms, and refused as the other list', () => {
    expect(importOfficialFile('pep_us_executive', [{ name: 'executive.yaml', bytes: strToU8(EXECUTIVE) }])).toMatchObject({ ok: true, format: 'us-legislators-yaml' });
    expect(importOfficialFile('pep_us_congress', [{ name: 'whatever.txt', bytes: strToU8(CONGRESS) }])).toMatchObject({ ok: true, format: 'us-legislators-yaml' });
    expect(importOfficialFile('pep_us_congress', strToU8(EXECUTIVE))).toEqual({ ok: false, reason: expect.stringMatching(/is the U\.S\. Presidents.*not the U\.S\. Congress/) });
    expect(importOfficialFile('pep_us_executive', strToU8('iso3,country\n'))).toMatchObject({ ok: false });
    expect(importOfficialFile('pep_us_executive', [{ name: 'a.yaml', bytes: strToU8(EXECUTIVE) }, { name: 'b.yaml', bytes: strToU8(EXECUTIVE) }])).toMatchObject({ ok: false, reason: /exactly one file/ });
  });
});
