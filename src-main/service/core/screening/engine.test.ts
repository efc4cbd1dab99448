// The engine over the real shipped lists, with one test entity loaded through the documented
// user-list CSV: every written form of a name must find that entity among ~22,000 listed names,
// and the other entities must not crowd it out of retrieval.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, screen, type ScreeningIndex } from './engine';
import type { ListEntity } from './types';
import { combineLists, loadShippedLists } from './lists/load';
import { importUserList } from './lists/user-csv';
import { requiredTestset } from '../../test/testsets';
import { loadLines, testsetsDir } from './match/name-bench';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const putinFile = path.join(testsetsDir(repoRoot), 'rigour', 'putin_names.txt');

const TEST_ENTITY = 'kind,name,aliases,dob,country\nwanted,Vladimir Vladimirovich PUTIN,,1952-10-07,RU\n';

/** Common names on a PEP list: "Abdul Rahman" is also in hundreds of sanctions aliases. */
const COMMON_SURNAMES = ['Khan', 'Ahmed', 'Hassan', 'Ali', 'Hussain', 'Mohamed', 'Ibrahim', 'Yusuf', 'Omar', 'Saleh', 'Karim', 'Aziz'];
const PEP_CSV = [
  'kind,name,aliases,dob,country,ref',
  'pep,"RAHMAN, Abdul",,1961-03-04,AF,target',
  ...COMMON_SURNAMES.map((s, i) => `pep,"${s.toUpperCase()}, Abdul Rahman",,,,c${i}`),
  'pep,"CHEN, Hao Li",,,,han',
  'pep,"KIM, Song Hun",,1960-01-01,KP,hangul',
  'pep,"NAZARBAYEVA, Kamila",KAMILA,,,single',
].join('\n');

let index: ScreeningIndex;
let entities: ListEntity[];
let testId: string;
let pepIds: Map<string, string>;

beforeAll(() => {
  const shipped = loadShippedLists(path.join(repoRoot, 'resources', 'watchlists'));
  const user = importUserList(TEST_ENTITY, { listName: 'Test entity' });
  testId = user.import.entities[0]!.id;
  const pep = importUserList(PEP_CSV, { listName: 'Common names' });
  pepIds = new Map(pep.import.entities.map((e) => [e.id.split(':').at(-1)!, e.id]));
  const combined = combineLists([
    { import: user.import, title: 'Test entity', kind: 'wanted', retrievalDate: null },
    { import: pep.import, title: 'Common names', kind: 'pep', retrievalDate: null },
  ]);
  entities = [...shipped.entities, ...combined.entities];
  index = buildIndex(entities);
});

describe('a lean index', () => {
  it('keeps no normalised names and answers exactly as the full index', () => {
    // Every fourth listed record, to keep the two builds short.
    const some = entities.filter((_, i) => i % 4 === 0);
    const full = buildIndex(some);
    const lean = buildIndex(some, { lean: true });
    expect(lean.names.every((n) => n.norm === undefined)).toBe(true);
    expect(full.names.every((n) => n.norm !== undefined)).toBe(true);
    const subjects = [
      ...loadLines(requiredTestset(putinFile)).map(subjectOf),
      ...some.slice(0, 300).map((e) => subjectOf(e.names[0]!.name)),
      { first_name: 'Mohammad', last_name: 'Hassan' }, { first_name: 'Abdul Rahman', last_name: 'Khan' },
    ];
    const answers = (ix: ScreeningIndex) => subjects.map((s) => JSON.stringify(screen(ix, s, { lists: ['sanctions', 'pep', 'wanted'] }).matches));
    expect(answers(lean)).toEqual(answers(full));
  });
});

/** Name parts as an analyst types them: "LAST, First" reversed; CJK "·" / "・" separate parts. */
function subjectOf(form: string): { first_name: string; last_name: string } {
  const parts = form.includes(',') ? form.split(',').map((s) => s.trim()).reverse() : form.split(/[\s\u00b7\u30fb]+/);
  return { first_name: parts.slice(0, -1).join(' '), last_name: parts.at(-1) ?? '' };
}

describe('every written form of a name finds the test entity', () => {
  it('finds the entity for all 81 forms (rigour/putin_names.txt): scripts, orders, titles, inflections', () => {
    const forms = loadLines(requiredTestset(putinFile));
    expect(forms.length).toBe(81);
    const missed = forms.filter((form) => !screen(index, subjectOf(form), { lists: ['wanted'] }).matches.some((m) => m.entity_id === testId));
    expect(missed).toEqual([]);
  });
});

describe('cross-script forms against the shipped lists', () => {
  it.each([
    ['katakana', 'ウラジーミル', 'プーチン'],
    ['Chinese transcription', '弗拉基米尔', '普京'],
    ['Hebrew', 'ולדימיר', 'פוטין'],
    ['Greek digraphs', 'Βλαντίμιρ Βλαντίμιροβιτς', 'Πούτιν'],
    ['Belarusian', 'Уладзімір', 'Пуцін'],
    ['Lithuanian inflection', 'Vladimiras', 'Putinas'],
    ['Hungarian title after the name', 'Putyin', 'elnök'],
  ])('%s: the listed SDN record is found', (_label, first_name, last_name) => {
    const r = screen(index, { first_name, last_name }, { lists: ['sanctions'] });
    expect(r.matches.map((m) => m.entity_id)).toContain('us_ofac_sdn:35096');
  });

  it('a native Japanese name in kanji is not read as a transcription of a listed Latin name', () => {
    // Only names marked as foreign (·, or a part too long for a Chinese name) are compared by
    // their loose skeleton; "斎藤" must not match "Jiadong" through it.
    const r = screen(index, { first_name: '翼 零', last_name: '斎藤' }, { lists: ['sanctions'] });
    expect(r.matches).toEqual([]);
  });

  it('a title alone is not counted as a part of the subject\'s name missing from the list', () => {
    const r = screen(index, { first_name: 'President', last_name: 'Putin' }, { lists: ['sanctions'] });
    const m = r.matches.find((x) => x.entity_id === 'us_ofac_sdn:35096');
    expect(m).toBeDefined();
    expect(m!.explanation.qualifiers.map((q) => q.factor)).not.toContain('subject_name_part_unlisted');
  });
});

describe('retrieval keeps the requested lists\' records in reach', () => {
  it('an exact name on a PEP list is found although sanctions aliases share it by the hundred', () => {
    const sharing = index.names.filter((n) => /abd.?u?l.?rahman/i.test(n.name) && index.entities.at(n.entity).kind === 'sanctions').length;
    expect(sharing).toBeGreaterThan(24); // more than the old cut of 24 names over all lists
    const subject = { first_name: 'Abdul', last_name: 'Rahman' };
    for (const lists of [['pep'], ['sanctions', 'pep', 'rca', 'wanted']] as const) {
      const r = screen(index, subject, { lists });
      expect(r.matches.map((m) => m.entity_id)).toContain(pepIds.get('target'));
    }
  });

  it('every common name of the PEP list finds its own record', () => {
    COMMON_SURNAMES.forEach((surname, i) => {
      const r = screen(index, { first_name: 'Abdul Rahman', last_name: surname }, { lists: ['sanctions', 'pep'] });
      expect(r.matches.map((m) => m.entity_id)).toContain(pepIds.get(`c${i}`));
    });
  });
});

describe('exact names, titles and qualifiers on the real lists', () => {
  it('"Vladimir Putin" with a wrong date of birth and country stays listed, in the review band', () => {
    const r = screen(index, { first_name: 'Vladimir', last_name: 'Putin', date_of_birth: '1980-01-01', country: 'BR' }, { lists: ['sanctions'] });
    const m = r.matches.find((x) => x.entity_id === 'us_ofac_sdn:35096');
    expect(m).toMatchObject({ strength: 'possible', risk_level: 'medium' });
    expect(m!.explanation.summary).toBe('name matches; date of birth differs; country differs');
  });

  it('a date of birth in the listed year but on another day adds nothing: not 100, not strong', () => {
    const r = screen(index, { first_name: 'Vladimir', last_name: 'Putin', date_of_birth: '1952-03-01' }, { lists: ['sanctions'] });
    const m = r.matches.find((x) => x.entity_id === 'us_ofac_sdn:35096')!;
    expect(m.score).toBeLessThan(100);
    expect(m.strength).toBe('possible');
  });

  it('"Sayyid Ali Khamenei" finds the listed Ali Khamenei as "Ali Khamenei" does', () => {
    const plain = screen(index, { first_name: 'Ali', last_name: 'Khamenei' }, { lists: ['sanctions'] }).matches.find((m) => m.entity_id === 'us_ofac_sdn:26945');
    expect(plain).toBeDefined();
    for (const first_name of ['Sayyid Ali', 'Seyed Ali']) {
      const r = screen(index, { first_name, last_name: 'Khamenei' }, { lists: ['sanctions'] });
      expect(r.matches.find((m) => m.entity_id === 'us_ofac_sdn:26945')).toMatchObject({ strength: plain!.strength, score: plain!.score });
    }
  });

  it('a name in Han characters does not match a Latin name whose family name it lacks', () => {
    const ids = (first_name: string, last_name: string) => screen(index, { first_name, last_name }, { lists: ['pep'] }).matches.map((m) => m.entity_id);
    expect(ids('浩', '李')).not.toContain(pepIds.get('han'));
    expect(ids('丽丽', '彭')).toEqual([]);
    expect(ids('浩 李', '陈')).toContain(pepIds.get('han'));
  });

  it('a name in Hangul read as a listed Latin name is hidden when the date of birth contradicts it', () => {
    const found = (date_of_birth?: string) =>
      screen(index, { first_name: '성훈', last_name: '김', date_of_birth }, { lists: ['pep'] }).matches.some((m) => m.entity_id === pepIds.get('hangul'));
    expect(found('1960-01-01')).toBe(true);
    expect(found('1985-06-01')).toBe(false);
  });

  it('a name read across scripts is strong only when a date of birth or country confirms it', () => {
    const strength = (date_of_birth?: string) =>
      screen(index, { first_name: '성훈', last_name: '김', date_of_birth }, { lists: ['pep'] }).matches.find((m) => m.entity_id === pepIds.get('hangul'))?.strength;
    expect(strength('1960-01-01')).toBe('strong');
    // Cyrillic transliterates letter for letter: that is a spelling, not a guess, as strong as the Latin name.
    const putin = (first_name: string, last_name: string, date_of_birth?: string) =>
      screen(index, { first_name, last_name, date_of_birth }, { lists: ['sanctions'] }).matches.find((m) => m.entity_id === 'us_ofac_sdn:35096')?.strength;
    expect(putin('Владимир', 'Путин')).toBe(putin('Vladimir', 'Putin'));
    expect(putin('Владимир', 'Путин', '1952-10-07')).toBe('strong');
  });

  it('a given name alone does not match a one-word listed alias', () => {
    const r = screen(index, { first_name: 'Kamila', last_name: 'Smith' }, { lists: ['pep'] });
    expect(r.matches.map((m) => m.entity_id)).not.toContain(pepIds.get('single'));
  });
});
