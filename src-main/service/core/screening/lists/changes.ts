// What a newer official file changes against the edition in use: records added, removed and
// changed (compared by the list's own id and the record's content hash), by programme, with a few
// names of each (public list data: who is listed, never who is screened). An import that would
// remove much of a list is held until an owner or admin confirms it (manage.ts): a truncated
// download or the wrong file chosen must not empty a sanctions list silently.
import type { ListChanges } from '../../../../../src-shared/contracts/lists';
import type { ListEntity } from '../types';

/** Share of the records in use an import may remove before it is held for confirmation. */
export const HOLD_REMOVED_SHARE = 0.1;
/** Names of each kind of change shown, and programmes listed. */
export const CHANGE_EXAMPLES = 25;
export const CHANGE_PROGRAMS = 50;

/** What the comparison reads of a listed record. */
type ListedRecord = Pick<ListEntity, 'id' | 'names' | 'programs' | 'recordHash'>;

function example(e: ListedRecord): ListChanges['examples']['added'][number] {
  return { id: e.id, name: e.names[0]?.name ?? '', programs: e.programs.slice(0, 5) };
}

/** The changes from `before` (the edition in use; null when none is loaded) to `after`. */
export function listChanges(before: readonly ListedRecord[] | null, after: readonly ListedRecord[]): ListChanges {
  const old = new Map((before ?? []).map((e) => [e.id, e]));
  const seen = new Set<string>();
  const programs = new Map<string, { added: number; removed: number; changed: number }>();
  const tally = (e: ListedRecord, k: 'added' | 'removed' | 'changed') => {
    for (const p of e.programs.length ? e.programs : ['(no programme)']) {
      const t = programs.get(p) ?? { added: 0, removed: 0, changed: 0 };
      t[k]++;
      programs.set(p, t);
    }
  };
  const examples: ListChanges['examples'] = { added: [], removed: [], changed: [] };
  let added = 0;
  let changed = 0;
  for (const e of after) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    const was = old.get(e.id);
    if (!was) {
      added++;
      tally(e, 'added');
      if (examples.added.length < CHANGE_EXAMPLES) examples.added.push(example(e));
    } else if (was.recordHash !== e.recordHash) {
      changed++;
      tally(e, 'changed');
      if (examples.changed.length < CHANGE_EXAMPLES) examples.changed.push(example(e));
    }
  }
  let removed = 0;
  for (const [id, e] of old) {
    if (seen.has(id)) continue;
    removed++;
    tally(e, 'removed');
    if (examples.removed.length < CHANGE_EXAMPLES) examples.removed.push(example(e));
  }
  const by_program = [...programs]
    .map(([program, t]) => ({ program, ...t }))
    .sort((a, b) => b.added + b.removed + b.changed - (a.added + a.removed + a.changed) || a.program.localeCompare(b.program))
    .slice(0, CHANGE_PROGRAMS);
  return { before: before === null ? null : old.size, after: seen.size, added, removed, changed, by_program, examples };
}

/**
 * Records the file holds that its importer could not read (no id, no name, a malformed row), from
 * the import's skip counts; duplicates, dropped fields and rows the list itself excludes are not.
 */
export function unreadRecords(skipped: Readonly<Record<string, number>>): number {
  let n = 0;
  for (const [why, count] of Object.entries(skipped)) if (/^(without_|entity_without_|malformed|primary_malformed|csv_errors)/.test(why)) n += count;
  return n;
}

const CONFIRM = 'An owner or admin must confirm it before it is used; until then screening keeps the edition in use.';

/** Rounded down: 1000 of 1003 is 99.7 %, not "100 %". */
const shareOf = (n: number, of: number) => Math.floor((1000 * n) / of) / 10;

/**
 * Why an import must be confirmed before it is used, or null: it removes more than
 * HOLD_REMOVED_SHARE of the records in use (a file cut short, another list's file, a test file),
 * or more than that share of the records in the file itself could not be read (`unread`: a file of
 * another layout, a damaged one), whatever the edition in use.
 */
export function holdReason(c: ListChanges, unread = 0): string | null {
  const inFile = c.after + unread;
  if (unread > 0 && unread > inFile * HOLD_REMOVED_SHARE) {
    return `Only ${c.after} of the ${inFile} records in the file could be read (${shareOf(unread, inFile)} % have no id or name, or are malformed; `
      + `more than ${Math.round(HOLD_REMOVED_SHARE * 100)} % is held). ${CONFIRM}`;
  }
  if (c.before === null || c.before === 0 || c.removed <= c.before * HOLD_REMOVED_SHARE) return null;
  return `The file would remove ${c.removed} of the ${c.before} records in use (${shareOf(c.removed, c.before)} %; more than ${Math.round(HOLD_REMOVED_SHARE * 100)} % is held). ${CONFIRM}`;
}
