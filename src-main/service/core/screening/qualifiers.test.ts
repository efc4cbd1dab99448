// The qualifiers of the decisions table, each with the effect it must have, on a small index
// built from a user list: what agrees adds, what contradicts takes away and stops a match from
// being strong, and an exact name is never hidden by what contradicts it.
import { describe, expect, it } from 'vitest';
import { buildIndex, screen, type SubjectInput } from './engine';
import { combineLists } from './lists/load';
import { importUserList } from './lists/user-csv';
import { assessRisk } from './risk';

const CSV = `kind,name,aliases,weak_aliases,dob,country,gender,schema
wanted,"KOWALCZYK, Bartosz",,,1970-05-08,PL,male,person
wanted,"NOWAKOWSKI, Zbigniew",,"Zbyszek Nowak",1965,PL,male,person
wanted,"Ingrid Solveig HALVORSEN",,,,,female,person
wanted,"CORONA ROMERO, Alfonso",,,,,male,person
wanted,SUHARTONO,,,,,,person
wanted,"CHEN, Hao Li",,,,,,person
`;
const user = importUserList(CSV, { listName: 'Qualifiers' });
const entities = combineLists([{ import: user.import, title: 'Qualifiers', kind: 'wanted', retrievalDate: null }]).entities;
// The CSL's Commerce and State rows give no record type; user lists always do, so one is made here.
const index = buildIndex(entities.map((e) => (e.names[0]!.name.includes('HALVORSEN') ? { ...e, schema: 'unknown' as const } : e)));

function best(subject: SubjectInput) {
  return screen(index, subject, { lists: ['wanted'] }).matches[0];
}
/** The best match whatever its score (report threshold 0), to read qualifiers under 70 too. */
function scored(subject: SubjectInput) {
  return screen(index, subject, { lists: ['wanted'], threshold: 0 }).matches[0];
}
/** Every name-part qualifier of the best match, as [factor, effect]. */
function partQualifiers(subject: SubjectInput): [string, number][] {
  const m = scored(subject);
  expect(m, `no candidate at all for ${JSON.stringify(subject)}`).toBeDefined();
  return m!.explanation.qualifiers.filter((q) => /name_part|surname/.test(q.factor)).map((q) => [q.factor, q.effect]);
}
function effect(subject: SubjectInput, factor: string): number | undefined {
  return best(subject)?.explanation.qualifiers.find((q) => q.factor === factor)?.effect;
}
const BARTOSZ = { first_name: 'Bartosz', last_name: 'Kowalczyk' };
/** The name with one letter changed: a name score under 1, so qualifiers show in the score. */
const FUZZY = { first_name: 'Bartosz', last_name: 'Kowalcik' };
const fuzzyScore = best(FUZZY)!.score;

describe('date of birth', () => {
  it('exact: +10 and strong', () => {
    expect(effect({ ...FUZZY, date_of_birth: '1970-05-08' }, 'dob_exact')).toBe(10);
    expect(best({ ...FUZZY, date_of_birth: '1970-05-08' })!.score).toBe(Math.min(100, fuzzyScore + 10));
  });
  it('exact lifts a borderline name over the reporting threshold (70)', () => {
    const borderline = { first_name: 'Bartosz', last_name: 'Kovalchuck' };
    expect(best(borderline)).toBeUndefined();
    const under = scored(borderline)!.score;
    expect(under).toBeLessThan(70);
    expect(under).toBeGreaterThanOrEqual(60);
    const lifted = best({ ...borderline, date_of_birth: '1970-05-08' });
    expect(lifted).toMatchObject({ strength: 'possible', score: under + 10 });
    expect(lifted!.score).toBeGreaterThanOrEqual(70);
  });
  it('year only listed, same year: +4', () => {
    expect(effect({ first_name: 'Zbigniew', last_name: 'Nowakowski', date_of_birth: '1965-02-03' }, 'dob_year')).toBe(4);
  });
  it('day and month swapped: no points either way, not a contradiction', () => {
    const m = best({ ...BARTOSZ, date_of_birth: '1970-08-05' })!;
    expect(m.explanation.qualifiers.find((q) => q.factor === 'dob_flipped')?.effect).toBe(0);
    expect(m.strength).toBe('strong');
  });
  it('same year, another day: takes points (never adds) and the match is not strong', () => {
    const m = best({ ...BARTOSZ, date_of_birth: '1970-03-01' })!;
    expect(m.explanation.qualifiers.find((q) => q.factor === 'dob_same_year')?.effect).toBe(-8);
    expect(m.score).toBeLessThan(100);
    expect(m.strength).toBe('possible');
    expect(m.risk_level).toBe('medium');
  });
  it('a year off by one: -10; another year: -25', () => {
    expect(effect({ ...BARTOSZ, date_of_birth: '1971-05-08' }, 'dob_near')).toBe(-10);
    expect(effect({ ...BARTOSZ, date_of_birth: '1985-05-08' }, 'dob_mismatch')).toBe(-25);
  });
});

describe('country and gender', () => {
  it('listed country: +3; another country: -6 and not strong', () => {
    expect(effect({ ...FUZZY, country: 'PL' }, 'country_match')).toBe(3);
    const m = best({ ...BARTOSZ, country: 'FR' })!;
    expect(m.explanation.qualifiers.find((q) => q.factor === 'country_mismatch')?.effect).toBe(-6);
    expect(m.strength).toBe('possible');
  });
  it('another country does not demote a match whose date of birth is exact (people live abroad)', () => {
    expect(best({ ...BARTOSZ, country: 'FR', date_of_birth: '1970-05-08' })!.strength).toBe('strong');
  });
  it('gender: +1 when equal, -12 and not strong when different', () => {
    expect(effect({ ...FUZZY, gender: 'male' }, 'gender_match')).toBe(1);
    const m = best({ ...BARTOSZ, gender: 'female' })!;
    expect(m.explanation.qualifiers.find((q) => q.factor === 'gender_mismatch')?.effect).toBe(-12);
    expect(m.strength).toBe('possible');
  });
});

describe('the record and the name matched', () => {
  it('a low-quality alias: -8, and never strong, even spelled exactly', () => {
    // (Name only, a low-quality alias is not reported at all: alert-quality.test.ts.)
    const m = best({ first_name: 'Zbyszek', last_name: 'Nowak', date_of_birth: '1965-03-03' })!;
    expect(m.explanation.matched_name_quality).toBe('weak');
    expect(m.explanation.qualifiers.find((q) => q.factor === 'weak_alias')?.effect).toBe(-8);
    expect(m.strength).toBe('possible');
  });
  it('a record the list does not say is a person: -4', () => {
    expect(effect({ first_name: 'Ingrid Solveig', last_name: 'Halvorsen' }, 'record_type_unknown')).toBe(-4);
  });
  // The name-part costs of the decisions table, on this small list where every name part is
  // rare (IDF weight 1), so each shows at its full value.
  it('a given name of the subject\'s that the listed name lacks: -8, and the match stays', () => {
    expect(partQualifiers({ first_name: 'Bartosz Jan', last_name: 'Kowalczyk' })).toEqual([['subject_name_part_unlisted', -8]]);
    expect(best({ first_name: 'Bartosz Jan', last_name: 'Kowalczyk' })).toMatchObject({ score: 83, strength: 'possible' });
  });
  it('the subject\'s family name absent from the listed name: -20', () => {
    expect(partQualifiers({ first_name: 'Bartosz Kowalczyk', last_name: 'Nowicki' })).toEqual([['subject_name_part_unlisted', -20]]);
    // "Ingrid Smith" shares only a given name with "Ingrid Solveig HALVORSEN": not even a candidate.
    expect(best({ first_name: 'Ingrid', last_name: 'Smith' })).toBeUndefined();
  });
  it('a subject part against a one-word listed name: -20', () => {
    expect(partQualifiers({ first_name: 'Agus', last_name: 'Suhartono' })).toEqual([['subject_name_part_unlisted', -20]]);
  });
  it('a syllable of a Han name that the listed name lacks: -20 (a given name in Latin letters: -8)', () => {
    expect(partQualifiers({ first_name: '浩 李 明', last_name: '陈' })).toEqual([['subject_name_part_unlisted', -20]]);
    expect(partQualifiers({ first_name: 'Hao Li Ming', last_name: 'Chen' })).toEqual([['subject_name_part_unlisted', -8]]);
  });
  it('the listed family name absent from the subject\'s name: -20; only its first part absent: -8', () => {
    // Subject's family name is one of the listed given names: "Solveig" is not Halvorsen.
    expect(partQualifiers({ first_name: 'Ingrid', last_name: 'Solveig' })).toEqual([['listed_surname_unmatched', -20]]);
    expect(best({ first_name: 'Ingrid', last_name: 'Solveig' })).toBeUndefined();
    // "CORONA ROMERO, Alfonso" for Alfonso Romero.
    expect(partQualifiers({ first_name: 'Alfonso', last_name: 'Romero' })).toEqual([['listed_surname_unmatched', -8]]);
    expect(partQualifiers({ first_name: 'Alfonso', last_name: 'Corona' })).toEqual([]);
  });
  it('against a Han subject every listed given name must be read: -20 for each one missing', () => {
    expect(partQualifiers({ first_name: '浩', last_name: '陈' })).toEqual([['listed_name_part_unmatched', -20]]);
    expect(partQualifiers({ first_name: '浩 李', last_name: '陈' })).toEqual([]);
  });
});

describe('an exact name is never hidden', () => {
  it('exact name with a wrong date of birth, country and gender: listed as possible, risk in the review band', () => {
    const r = screen(index, { ...BARTOSZ, date_of_birth: '1991-01-02', country: 'FR', gender: 'female' }, { lists: ['wanted'] });
    expect(r.matches).toHaveLength(1);
    const m = r.matches[0]!;
    expect(m.score).toBeLessThan(70);
    expect(m).toMatchObject({ strength: 'possible', risk_level: 'medium' });
    expect(m.explanation).toMatchObject({ exact_name: true, summary: 'name matches; date of birth differs; country differs; gender differs' });
    const risk = assessRisk(r.matches.map((x) => ({ kind: x.list, score: x.score, strength: x.strength, cleared: x.cleared })));
    expect(risk).toMatchObject({ level: 'medium', decision: 'review' });
  });
  it('a misspelt name with a wrong date of birth is hidden: only an exact name is kept', () => {
    expect(best({ ...FUZZY, date_of_birth: '1991-01-02', country: 'FR' })).toBeUndefined();
  });
  it('an exact name that nothing contradicts is strong, high risk', () => {
    expect(best({ ...BARTOSZ, date_of_birth: '1970-05-08', country: 'PL' })).toMatchObject({ strength: 'strong', risk_level: 'high' });
  });
});

describe('the subject\'s name as given', () => {
  it('a one-word name typed as both first and last name is that name, once', () => {
    const mono = importUserList('kind,name\nwanted,SUHARTONO\n', { listName: 'Mononym' });
    const idx = buildIndex(combineLists([{ import: mono.import, title: 'Mononym', kind: 'wanted', retrievalDate: null }]).entities);
    const m = screen(idx, { first_name: 'Suhartono', last_name: 'Suhartono', date_of_birth: '1950-01-01' }, { lists: ['wanted'] }).matches[0];
    // One word is many people: the exact name, reported for review, strong only with a date of birth the record gives.
    expect(m).toMatchObject({ strength: 'possible' });
    expect(m!.explanation.exact_name).toBe(true);
  });
});
