// The @unitedstates project's YAML files (github.com/unitedstates/congress-legislators, CC0):
// legislators-current.yaml (members of Congress) and executive.yaml (presidents and vice
// presidents). One record per person: name parts, nickname and official_full as names, the
// birthday as date of birth, and each term as an office. Both files share one format; which
// list a file is comes from its terms (sen/rep or prez/viceprez), not from its name.
//
// YAML is read bounded: a size cap before parsing, the failsafe schema (strings, maps and
// sequences only: no custom or language tags, no type guessing), and a cap on alias expansion.
import { createRequire } from 'node:module';
import type * as YamlModule from 'yaml';
import type { EntityId, EntityName, EntityPosition, ListEntity, ListImport } from '../types';
import { addSkip, clean, countEntities, decodeText, finishEntity, FormatError, parseGender, parseOneDate, sha256Hex } from './common';
import { SOURCE_INFO } from './sources';
import { daysBetween } from '../../../../../src-shared/dates';

/**
 * The YAML parser is required where a file is parsed, not imported: the service's start never
 * parses YAML (its lists come from the snapshot), and loading it cost every start a tenth of a
 * second of CPU.
 */
const load = createRequire(import.meta.url);

/** The real files are ~1 MB; the historical legislators file is ~10 MB. */
export const US_YAML_MAX_BYTES = 32 * 2 ** 20;

export type UsPepSource = 'pep_us_congress' | 'pep_us_executive';

const SUB_LIST: Record<UsPepSource, string> = {
  pep_us_congress: 'U.S. Congress',
  pep_us_executive: 'U.S. President and Vice President',
};

type Yaml = string | Yaml[] | { [k: string]: Yaml } | null;

function obj(v: Yaml | undefined): Record<string, Yaml> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {};
}

function str(v: Yaml | undefined): string {
  return typeof v === 'string' ? clean(v) : '';
}

/** The YAML text as plain data, or FormatError. Never guesses types; refuses tags and alias bombs. */
export function parseBoundedYaml(bytes: Uint8Array): Yaml {
  if (bytes.length > US_YAML_MAX_BYTES) throw new FormatError(`the YAML file is larger than ${US_YAML_MAX_BYTES / 2 ** 20} MiB`);
  const { parseDocument } = load('yaml') as typeof YamlModule;
  const doc = parseDocument(decodeText(bytes), {
    schema: 'failsafe', customTags: [], merge: false, uniqueKeys: true, prettyErrors: false, strict: true,
  });
  if (doc.errors.length > 0) throw new FormatError('not a readable YAML file');
  if (doc.warnings.length > 0) throw new FormatError('the YAML file uses tags this format does not have');
  try {
    return doc.toJS({ maxAliasCount: 100 }) as Yaml;
  } catch {
    throw new FormatError('the YAML file expands too many aliases');
  }
}

interface Term {
  type: string;
  start?: string;
  end?: string;
  state: string;
  district: string;
}

function office(t: Term): Omit<EntityPosition, 'current'> {
  const p: Omit<EntityPosition, 'current'> = { role: '', country: 'US' };
  switch (t.type) {
    case 'prez':
      p.role = 'President of the United States';
      break;
    case 'viceprez':
      p.role = 'Vice President of the United States';
      break;
    case 'sen':
      p.role = t.state ? `U.S. Senator for ${t.state}` : 'U.S. Senator';
      break;
    default:
      // 'rep': delegates and resident commissioners sit in the House as well.
      p.role = t.state ? `U.S. Representative for ${t.state}${t.district && t.district !== '0' ? ` (district ${t.district})` : ''}` : 'U.S. Representative';
  }
  if (t.state) p.region = t.state;
  if (t.start) p.start = t.start;
  if (t.end) p.end = t.end;
  return p;
}

/** Name spellings of one person: official_full, first [middle] last [suffix], nickname last. */
function namesOf(name: Record<string, Yaml>): EntityName[] {
  const first = str(name.first);
  const middle = str(name.middle);
  const last = str(name.last);
  const suffix = str(name.suffix);
  const nickname = str(name.nickname);
  const official = str(name.official_full);
  const full = [first, middle, last].filter((p) => p !== '').join(' ');
  const out: string[] = [];
  if (official) out.push(official);
  if (full) out.push(full);
  if (suffix && full) out.push(`${full} ${suffix}`);
  if (first && last && middle) out.push(`${first} ${last}`);
  if (nickname && last) out.push(`${nickname} ${last}`);
  return out.map((n, i) => ({ name: n, kind: i === 0 ? 'primary' : 'aka', quality: 'strong' }));
}

/**
 * Reads one @unitedstates YAML file. `expected` is the source the caller has it as; a file of
 * the other kind is refused by runImporter (the import's source says what it is).
 * Version: the latest term start in the file. A term is current when it has no end or ends after
 * that date (the files list terms with their scheduled end).
 */
export function importUsLegislators(bytes: Uint8Array): ListImport {
  const data = parseBoundedYaml(bytes);
  if (!Array.isArray(data) || data.length === 0) throw new FormatError('not a @unitedstates legislators or executive YAML file (expected a list of people)');
  const skipped: Record<string, number> = {};
  let congress = 0;
  let executive = 0;
  let latest = '';
  const people: { id: string; ids: EntityId[]; names: EntityName[]; dobs: string[]; gender: ReturnType<typeof parseGender>; terms: Term[] }[] = [];
  for (const raw of data) {
    const p = obj(raw);
    const ids = obj(p.id);
    const id = str(ids.bioguide) || (str(ids.govtrack) ? `govtrack-${str(ids.govtrack)}` : '');
    const names = namesOf(obj(p.name));
    const termsRaw = Array.isArray(p.terms) ? p.terms : [];
    if (!id || names.length === 0 || termsRaw.length === 0) {
      addSkip(skipped, !id ? 'without_id' : names.length === 0 ? 'without_name' : 'without_terms');
      continue;
    }
    const terms: Term[] = [];
    for (const tr of termsRaw) {
      const t = obj(tr);
      const type = str(t.type);
      if (!['prez', 'viceprez', 'sen', 'rep'].includes(type)) {
        addSkip(skipped, 'term_of_unknown_type');
        continue;
      }
      if (type === 'prez' || type === 'viceprez') executive++;
      else congress++;
      const term: Term = { type, state: str(t.state), district: str(t.district) };
      for (const k of ['start', 'end'] as const) {
        const v = str(t[k]);
        if (!v) continue;
        const d = parseOneDate(v);
        if (d) term[k] = d;
        else addSkip(skipped, 'unreadable_term_date');
      }
      if (term.start && term.start > latest) latest = term.start;
      terms.push(term);
    }
    if (terms.length === 0) {
      addSkip(skipped, 'without_terms');
      continue;
    }
    const bio = obj(p.bio);
    const birthday = str(bio.birthday);
    const dob = birthday ? parseOneDate(birthday) : undefined;
    if (birthday && !dob) addSkip(skipped, 'unreadable_birthday');
    const idList: EntityId[] = [{ type: 'Bioguide ID', number: str(ids.bioguide) }];
    if (str(ids.wikidata)) idList.push({ type: 'Wikidata', number: str(ids.wikidata) });
    people.push({ id, ids: idList, names, dobs: dob ? [dob] : [], gender: parseGender(str(bio.gender)), terms });
  }
  if (congress + executive === 0) throw new FormatError('no terms of office found: not a @unitedstates legislators or executive YAML file');
  const source: UsPepSource = congress > 0 ? 'pep_us_congress' : 'pep_us_executive';
  const listDate = latest || null;

  const entities: ListEntity[] = [];
  const seen = new Set<string>();
  for (const person of people) {
    if (seen.has(person.id)) {
      addSkip(skipped, 'duplicate_id');
      continue;
    }
    seen.add(person.id);
    const positions: EntityPosition[] = person.terms.map((t) => ({ ...office(t), current: !t.end || (listDate !== null && t.end > listDate) }));
    const e = finishEntity({
      source, sourceId: person.id, sourceList: SUB_LIST[source], kind: 'pep', schema: 'person', names: person.names,
      dobs: person.dobs, countries: ['US'], gender: person.gender, ids: person.ids,
      programs: [...new Set(positions.map((p) => p.role))],
    });
    e.positions = mergeTerms(positions);
    entities.push(e);
  }
  return { source, publisher: SOURCE_INFO[source].publisher, listDate, sha256: sha256Hex(bytes), entities, counts: countEntities(entities), skipped };
}

/**
 * Consecutive terms of the same office (a senator's six-year terms, a president's second term)
 * as one span: the explanation speaks of an office held, not of each election. A new Congress
 * meets a few days after the last one ended, so a gap of up to a month still joins.
 */
function mergeTerms(terms: readonly EntityPosition[]): EntityPosition[] {
  const sorted = [...terms].sort((a, b) => (a.start ?? '').localeCompare(b.start ?? ''));
  const out: EntityPosition[] = [];
  for (const t of sorted) {
    const prev = out.findLast((p) => p.role === t.role);
    if (prev && prev.end !== undefined && t.start !== undefined && daysBetween(prev.end, t.start) <= 31 && out[out.length - 1] === prev) {
      if (t.end === undefined) delete prev.end;
      else prev.end = t.end;
      prev.current = prev.current || t.current;
      continue;
    }
    out.push({ ...t });
  }
  return out;
}
