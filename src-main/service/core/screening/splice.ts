// An index with some sources' records replaced, made from the index in use instead of from every
// list again (issue 38, item 2). A newer official file of one list replaces that list's records:
// the other lists' records, names and postings are kept as they are (their names are not
// normalised again, their records stay JSON), the newer records are indexed in their list's
// place, and the people are joined again over all records. The result is the index a build over
// every list would make (splice.test.ts compares them): same records in the same order, same
// name numbers, postings, name frequencies and people. A 30 MB file then costs its own records'
// memory, not a second build of every list's.
import type { ListEntity } from './types';
import { indexEntities, type IndexData, type IndexedName } from './engine';
import { normalizeName } from './match/normalize';
import { findPeople } from './people';

/**
 * A source whose records are replaced, and its newer records as JSON: made as soon as the file is
 * read, so neither the records' objects nor the file's text (which their strings were cut from
 * and keep alive) stay while the index is spliced.
 */
export interface Replacement {
  source: string;
  entities: readonly string[];
}

/** Records read back from JSON this many at a time to be indexed (then dropped). */
const INDEX_BATCH = 1000;

export interface Spliced {
  /** Each record as JSON, in index order. */
  entities: string[];
  index: IndexData;
}

/**
 * `entities` (as JSON) and their `index` with each replacement's records in place of its source's;
 * null when a replaced source's records are not one run of the index (then build it whole).
 * `pause` is called after every thousand records read or indexed, where nothing read is still
 * needed: the caller may collect the garbage made so far.
 */
export function spliceIndex(
  entities: readonly string[], index: IndexData, replacements: readonly Replacement[], pause: () => void = () => {},
): Spliced | null {
  let reads = 0;
  const read = (json: string): ListEntity => {
    if (++reads % INDEX_BATCH === 0) pause();
    return JSON.parse(json) as ListEntity;
  };
  const bySource = new Map(replacements.map((r) => [r.source, r]));
  // Where each replaced source's records are: one run each.
  const runs = new Map<string, { from: number; to: number }>();
  for (let i = 0; i < entities.length; i++) {
    const source = read(entities[i]!).source;
    if (!bySource.has(source)) continue;
    const run = runs.get(source);
    if (!run) runs.set(source, { from: i, to: i + 1 });
    else if (run.to === i) run.to = i + 1;
    else return null;
  }
  if (runs.size !== replacements.length) return null;
  const ordered = replacements.map((r) => ({ ...r, ...runs.get(r.source)! })).sort((a, b) => a.from - b.from);
  for (let i = 1; i < index.nameEntity.length; i++) if (index.nameEntity[i]! < index.nameEntity[i - 1]!) return null;

  // Records: the kept ones renumbered, each run's newer records in its place.
  const moved = new Int32Array(entities.length).fill(-1);
  const json: string[] = [];
  const firstOf: number[] = [];
  let i = 0;
  for (const run of ordered) {
    for (; i < run.from; i++) moved[i] = json.push(entities[i]!) - 1;
    firstOf.push(json.length);
    for (const e of run.entities) json.push(e);
    i = run.to;
  }
  for (; i < entities.length; i++) moved[i] = json.push(entities[i]!) - 1;

  // Names in record order: the kept ones renumbered, the newer records' indexed where they go.
  const df = new Map<string, number>();
  index.dfTokens.forEach((t, k) => df.set(t, index.dfCounts[k]!));
  const names: IndexedName[] = [];
  const renamed = new Int32Array(index.nameEntity.length).fill(-1);
  const added = new Map<string, number[]>();
  const kinds = new Set(index.kinds);
  let next = 0;
  const insert = () => {
    const run = ordered[next]!;
    for (let b = 0; b < run.entities.length; b += INDEX_BATCH) {
      const batch = run.entities.slice(b, b + INDEX_BATCH).map((e) => JSON.parse(e) as ListEntity);
      indexEntities(batch, firstOf[next]! + b, names, added, df, kinds, true);
      pause();
    }
    next++;
  };
  for (let id = 0; id < index.nameEntity.length; id++) {
    const e = index.nameEntity[id]!;
    while (next < ordered.length && e >= ordered[next]!.from) insert();
    const to = moved[e]!;
    if (to < 0) {
      // A replaced name no longer counts in the names' frequencies.
      for (const t of new Set(normalizeName(index.nameText[id]!, 'person').tokens.map((tk) => tk.text))) {
        const left = (df.get(t) ?? 0) - 1;
        if (left > 0) df.set(t, left);
        else df.delete(t);
      }
      continue;
    }
    renamed[id] = names.push({ entity: to, name: index.nameText[id]!, quality: index.nameStrong[id] === 1 ? 'strong' : 'weak' }) - 1;
  }
  while (next < ordered.length) insert();

  // Postings: each key's kept names renumbered (still ascending), merged with the newer names'.
  let total = index.data.length;
  for (const p of added.values()) total += p.length;
  const data = new Int32Array(total);
  const keys: string[] = [];
  const offsets: number[] = [];
  let at = 0;
  for (let k = 0; k < index.keys.length; k++) {
    const key = index.keys[k]!;
    const more = added.get(key);
    const start = at;
    let j = 0;
    for (let p = index.offsets[k]!; p < index.offsets[k + 1]!; p++) {
      const id = renamed[index.data[p]!]!;
      if (id < 0) continue;
      if (more) while (j < more.length && more[j]! < id) data[at++] = more[j++]!;
      data[at++] = id;
    }
    if (more) {
      while (j < more.length) data[at++] = more[j++]!;
      added.delete(key);
    }
    if (at > start) {
      keys.push(key);
      offsets.push(start);
    }
  }
  for (const [key, more] of added) {
    keys.push(key);
    offsets.push(at);
    data.set(more, at);
    at += more.length;
  }
  offsets.push(at);

  // People over every record again: a newer record may be a person another list names too.
  const people = findPeople({ length: json.length, at: (r) => read(json[r]!) });
  return {
    entities: json,
    index: {
      nameEntity: Int32Array.from(names, (n) => n.entity),
      nameText: names.map((n) => n.name),
      nameStrong: Uint8Array.from(names, (n) => (n.quality === 'strong' ? 1 : 0)),
      keys,
      offsets: Int32Array.from(offsets),
      data: at === data.length ? data : data.slice(0, at),
      dfTokens: [...df.keys()],
      dfCounts: Int32Array.from(df.values()),
      kinds: [...kinds],
      people,
    },
  };
}
