// The engine over the real shipped lists, with one test entity loaded through the documented
// user-list CSV: every written form of a name must find that entity among ~22,000 listed names,
// and the other entities must not crowd it out of retrieval.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, screen, type ScreeningIndex } from './engine';
import { combineLists, loadShippedLists } from './lists/load';
import { importUserList } from './lists/user-csv';
import { fileIfPresent, loadLines, testsetsDir } from './match/name-bench';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const putinFile = fileIfPresent(path.join(testsetsDir(repoRoot), 'rigour', 'putin_names.txt'));
if (putinFile === null) console.warn('Putin forms skipped: ../shared/watchlists/testsets/rigour/putin_names.txt not found');

const TEST_ENTITY = 'kind,name,aliases,dob,country\nwanted,Vladimir Vladimirovich PUTIN,,1952-10-07,RU\n';

let index: ScreeningIndex;
let testId: string;

beforeAll(() => {
  const shipped = loadShippedLists(path.join(repoRoot, 'resources', 'watchlists'));
  const user = importUserList(TEST_ENTITY, { listName: 'Test entity' });
  testId = user.import.entities[0]!.id;
  const combined = combineLists([{ import: user.import, title: 'Test entity', kind: 'wanted', retrievalDate: null }]);
  index = buildIndex([...shipped.entities, ...combined.entities]);
});

/** Name parts as an analyst types them: "LAST, First" reversed; CJK "·" / "・" separate parts. */
function subjectOf(form: string): { first_name: string; last_name: string } {
  const parts = form.includes(',') ? form.split(',').map((s) => s.trim()).reverse() : form.split(/[\s\u00b7\u30fb]+/);
  return { first_name: parts.slice(0, -1).join(' '), last_name: parts.at(-1) ?? '' };
}

describe.skipIf(putinFile === null)('every written form of a name finds the test entity', () => {
  it('finds the entity for all 81 forms (rigour/putin_names.txt): scripts, orders, titles, inflections', () => {
    const forms = loadLines(putinFile ?? '');
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
