// One listed person, one match (issue 36, item 2): records of one person on several lists are
// one match naming every listing; the risk counts people. Small lists loaded through the
// documented user-list CSV, screened through the engine's public functions.
import { describe, expect, it } from 'vitest';
import { buildIndex, extendIndex, indexData, restoreIndex, screen, type ScreeningIndex } from './engine';
import { importUserList } from './lists/user-csv';
import { assessRisk } from './risk';
import type { ListEntity } from './types';

const HEADER = 'kind,name,aliases,dob,country,id,id_type,program,ref';

/** One list of `rows` (CSV lines after the header), named `listName`. */
function list(listName: string, rows: readonly string[]): ListEntity[] {
  const r = importUserList([HEADER, ...rows].join('\n'), { listName });
  expect(r.errors).toEqual([]);
  return r.import.entities;
}

const US = () => list('US list', [
  'sanctions,"KAZANTSEV, Arkady Petrovich",,1961-04-12,RU,,,RUSSIA-EO14024,ak',
  'sanctions,"OSTROVSKY, Dmitri",,1970-01-01,RU,,,RUSSIA-EO14024,do1',
  'sanctions,"VELIKANOV, Boris",,1955-05-05,RU,7700112233,Tax ID No.,RUSSIA-EO14024,bv',
]);
const UK = (country = 'RU') => list('UK list', [
  `sanctions,Arkady Petrovich KAZANTSEV,,1961-04-12,${country},,,Russia,ak`,
  'sanctions,Dmitri OSTROVSKY,,1983-09-30,RU,,,Russia,do2',
  'sanctions,Borislav VELIKANOV,,,RU,7700112233,National identification number,Russia,bv',
]);
const AU = () => list('AU list', ['sanctions,Arkady Petrovich Kazantsev,,1961-04-12,,,,Autonomous (Russia),ak']);

const ARKADY = { first_name: 'Arkady', last_name: 'Kazantsev', date_of_birth: '1961-04-12' };
const sanctions = { lists: ['sanctions' as const] };

function risk(index: ScreeningIndex, subject: Parameters<typeof screen>[1], cleared: Parameters<typeof screen>[2]['cleared'] = []) {
  const r = screen(index, subject, { ...sanctions, cleared });
  return { r, risk: assessRisk(r.matches.map((m) => ({ kind: m.list, score: m.score, strength: m.strength, cleared: m.cleared })), r.flags) };
}

describe('one listed person, one match', () => {
  it('a person on three lists (same name and date of birth) is one match naming every list and programme', () => {
    const index = buildIndex([...US(), ...UK(), ...AU()]);
    const { matches } = screen(index, ARKADY, sanctions);
    expect(matches).toHaveLength(1);
    const m = matches[0]!;
    expect(m.listings.map((l) => l.entity_id).sort()).toEqual(['user:au-list:ak', 'user:uk-list:ak', 'user:us-list:ak']);
    expect(m.listings[0]!.entity_id).toBe(m.entity_id);
    expect(m.listings.flatMap((l) => l.programs).sort()).toEqual(['Autonomous (Russia)', 'RUSSIA-EO14024', 'Russia']);
    expect(m.listings.map((l) => l.source).sort()).toEqual(['user:au-list', 'user:uk-list', 'user:us-list']);
  });

  it('the same record leads whatever order the lists were loaded in', () => {
    const a = screen(buildIndex([...US(), ...UK(), ...AU()]), ARKADY, sanctions).matches[0]!;
    const b = screen(buildIndex([...AU(), ...UK(), ...US()]), ARKADY, sanctions).matches[0]!;
    expect(b.entity_id).toBe(a.entity_id);
    expect(b.listings.map((l) => l.entity_id)).toEqual(a.listings.map((l) => l.entity_id));
    expect(b.record_hash).toBe(a.record_hash);
  });

  it('two people who share a name but not a date of birth stay two matches', () => {
    const index = buildIndex([...US(), ...UK()]);
    const { matches } = screen(index, { first_name: 'Dmitri', last_name: 'Ostrovsky' }, sanctions);
    expect(matches.map((m) => m.entity_id).sort()).toEqual(['user:uk-list:do2', 'user:us-list:do1']);
    expect(matches.every((m) => m.listings.length === 1)).toBe(true);
  });

  it('a year of birth that is not the other record\'s keeps two people apart', () => {
    const index = buildIndex([
      ...list('US list', ['sanctions,"MIRONOV, Sergei Pavlovich",,1960,RU,,,P,sm']),
      ...list('UK list', ['sanctions,Sergei Pavlovich MIRONOV,,1971-03-03,RU,,,P,sm']),
    ]);
    expect(screen(index, { first_name: 'Sergei', middle_name: 'Pavlovich', last_name: 'Mironov' }, sanctions).matches).toHaveLength(2);
  });

  it('a record giving only a year joins neither of two people whose full dates of birth differ', () => {
    // The year agrees with both; joining it to both would make them one person.
    const index = buildIndex([
      ...list('US list', ['sanctions,"MIRONOV, Sergei Pavlovich",,1960-02-02,RU,,,P,sm']),
      ...list('UK list', ['sanctions,Sergei Pavlovich MIRONOV,,1960-07-07,RU,,,P,sm']),
      ...list('AU list', ['sanctions,Sergei Pavlovich Mironov,,1960,,,,P,sm']),
    ]);
    const { matches } = screen(index, { first_name: 'Sergei', middle_name: 'Pavlovich', last_name: 'Mironov' }, sanctions);
    const ids = matches.flatMap((m) => m.listings.map((l) => l.entity_id));
    expect(ids.sort()).toEqual(['user:au-list:sm', 'user:uk-list:sm', 'user:us-list:sm']);
    expect(matches.some((m) => m.listings.some((l) => l.entity_id === 'user:us-list:sm') && m.listings.some((l) => l.entity_id === 'user:uk-list:sm'))).toBe(false);
  });

  it('the same span of years of birth on both lists joins; another span does not', () => {
    const index = buildIndex([
      ...list('UN list', ['sanctions,Ali Kony,Ali Mohammed,1992..1995,,,,CAR,ak', 'sanctions,Joseph Kerov,,1960..1965,,,,CAR,jk']),
      ...list('AU list', ['sanctions,Ali Kony,Ali Mohammed,1992..1995,,,,2127 (Central African Republic),ak', 'sanctions,Joseph Kerov,,1961..1966,,,,CAR,jk']),
    ]);
    expect(screen(index, { first_name: 'Ali', last_name: 'Kony' }, sanctions).matches.map((m) => m.listings.length)).toEqual([2]);
    expect(screen(index, { first_name: 'Joseph', last_name: 'Kerov' }, sanctions).matches.map((m) => m.listings.length)).toEqual([1, 1]);
  });

  it('a shared name alone, with no date of birth on one record, joins no one', () => {
    const index = buildIndex([
      ...list('US list', ['sanctions,"MIRONOV, Sergei Pavlovich",,1960-02-02,RU,,,P,sm']),
      ...list('UK list', ['sanctions,Sergei Pavlovich MIRONOV,,,RU,,,P,sm']),
    ]);
    expect(screen(index, { first_name: 'Sergei', middle_name: 'Pavlovich', last_name: 'Mironov' }, sanctions).matches).toHaveLength(2);
  });

  it('a shared identity number joins records whose names are written differently', () => {
    const index = buildIndex([...US(), ...UK()]);
    const { matches } = screen(index, { first_name: 'Boris', last_name: 'Velikanov', date_of_birth: '1955-05-05' }, sanctions);
    expect(matches).toHaveLength(1);
    expect(matches[0]!.listings.map((l) => l.entity_id).sort()).toEqual(['user:uk-list:bv', 'user:us-list:bv']);
  });

  it('records born the same day whose names are one name spelled two ways are one person; brothers born that day are two', () => {
    const index = buildIndex([
      ...list('US list', [
        'sanctions,"GLAZKOVA, Anzhelika Yegorovna",,1968-12-28,RU,,,RUSSIA-EO14024,g1',
        'sanctions,"AL-TIKRITI, Kamal Mustafa Sultan Abdallah",,1955-05-04,IQ,,,IRAQ2,k1',
        'sanctions,"KOVALENKO, Petro Ivanovych",,1970-03-03,UA,,,UKRAINE-EO13660,p1',
      ]),
      ...list('UK list', [
        'sanctions,Angelica Egorovna GLAZKOVA,,1968-12-28,RU,,,Russia,g2',
        'sanctions,Jamal Mustafa Abdallah Sultan AL-TIKRITI,,1955-05-04,IQ,,,Iraq,j2',
        // Born the same day, one name spelled two ways, two countries: two people.
        'sanctions,Petro Ivanovich KOVALENKO,,1970-03-03,BY,,,Belarus,p2',
      ]),
    ]);
    const glazkova = screen(index, { first_name: 'Anzhelika', last_name: 'Glazkova', date_of_birth: '1968-12-28' }, sanctions).matches;
    expect(glazkova).toHaveLength(1);
    expect(glazkova[0]!.listings.map((l) => l.entity_id).sort()).toEqual(['user:uk-list:g2', 'user:us-list:g1']);
    const kamal = screen(index, { first_name: 'Kamal Mustafa', last_name: 'Al-Tikriti', date_of_birth: '1955-05-04' }, sanctions).matches;
    expect(kamal.every((m) => m.listings.length === 1)).toBe(true);
    const petro = screen(index, { first_name: 'Petro', last_name: 'Kovalenko', date_of_birth: '1970-03-03' }, sanctions).matches;
    expect(petro).toHaveLength(2);
  });

  it('an index restored from its data, or extended by more lists, keeps the people', () => {
    const built = buildIndex([...US(), ...UK()]);
    const restored = restoreIndex(built.entities, indexData(built));
    expect(screen(restored, ARKADY, sanctions).matches[0]!.listings).toHaveLength(2);
    // Records added on top of an index join one another, not the base's (engine.ts, extendIndex).
    const extended = extendIndex(built, AU());
    expect(screen(extended, ARKADY, sanctions).matches.map((m) => m.listings.length).sort()).toEqual([1, 2]);
  });
});

describe('the risk counts people, not records', () => {
  it('one person on three lists raises no MULTIPLE_MATCHES and scores as one match', () => {
    const three = risk(buildIndex([...US(), ...UK(), ...AU()]), ARKADY);
    const one = risk(buildIndex(US()), ARKADY);
    expect(three.risk.flags).not.toContain('MULTIPLE_MATCHES');
    expect(three.risk.score).toBe(one.risk.score);
  });

  it('two different people still do', () => {
    const { risk: r } = risk(buildIndex([...US(), ...UK()]), { first_name: 'Dmitri', last_name: 'Ostrovsky' });
    expect(r.flags).toContain('MULTIPLE_MATCHES');
  });
});

describe('clearing a match that names several records', () => {
  it('stays cleared while every record is unchanged, by the match or by each record', () => {
    const index = buildIndex([...US(), ...UK(), ...AU()]);
    const m = screen(index, ARKADY, sanctions).matches[0]!;
    const byMatch = risk(index, ARKADY, [{ entity_id: m.entity_id, record_hash: m.record_hash }]);
    expect(byMatch.r.matches[0]!.cleared).toBe(true);
    expect(byMatch.risk).toMatchObject({ score: 0, level: 'low', flags: [] });
    const byRecords = risk(index, ARKADY, m.listings.map((l) => ({ entity_id: l.entity_id, record_hash: l.record_hash })));
    expect(byRecords.r.matches[0]!.cleared).toBe(true);
  });

  it('reopens, flagged, when any one of its records changes', () => {
    const before = screen(buildIndex([...US(), ...UK(), ...AU()]), ARKADY, sanctions).matches[0]!;
    const after = buildIndex([...US(), ...UK('UA'), ...AU()]);
    const byMatch = risk(after, ARKADY, [{ entity_id: before.entity_id, record_hash: before.record_hash }]);
    expect(byMatch.r.matches[0]!.cleared).toBe(false);
    expect(byMatch.risk.flags).toContain('CLEARED_MATCH_RECORD_CHANGED');
    const byRecords = risk(after, ARKADY, before.listings.map((l) => ({ entity_id: l.entity_id, record_hash: l.record_hash })));
    expect(byRecords.r.matches[0]!.cleared).toBe(false);
    expect(byRecords.risk.flags).toContain('CLEARED_MATCH_RECORD_CHANGED');
  });

  it('a clearing of one record alone does not clear the person the match now names on three lists', () => {
    const index = buildIndex([...US(), ...UK(), ...AU()]);
    const uk = screen(index, ARKADY, sanctions).matches[0]!.listings.find((l) => l.entity_id === 'user:uk-list:ak')!;
    const r = risk(index, ARKADY, [{ entity_id: uk.entity_id, record_hash: uk.record_hash }]);
    expect(r.r.matches[0]!.cleared).toBe(false);
    expect(r.risk.flags).toContain('CLEARED_MATCH_RECORD_CHANGED');
  });

  it('reopens when a list adds a record of the person', () => {
    const before = screen(buildIndex([...US(), ...UK()]), ARKADY, sanctions).matches[0]!;
    const r = screen(buildIndex([...US(), ...UK(), ...AU()]), ARKADY, { ...sanctions, cleared: [{ entity_id: before.entity_id, record_hash: before.record_hash }] });
    expect(r.matches[0]!.cleared).toBe(false);
    expect(r.flags).toContain('CLEARED_MATCH_RECORD_CHANGED');
  });
});
