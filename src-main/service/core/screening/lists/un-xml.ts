// UN Security Council Consolidated List, XML (scsanctions.un.org/resources/xml/en/consolidated.xml).
// Names come in parts (FIRST_NAME..FOURTH_NAME, given name first) plus NAME_ORIGINAL_SCRIPT;
// aliases are graded Good/Low; dates of birth are EXACT, APPROXIMATELY or BETWEEN, sometimes
// only a free-text NOTE.
import { ISO_DATE } from '../../../../../src-shared/dates';
import type { EntityId, EntityName, ListEntity, ListImport } from '../types';
import { addSkip, clean, countEntities, finishEntity, FormatError, parseDob, parseGender, parseOneDate, sha256Hex, yearsBetween } from './common';
import { toCountryCode } from './countries';
import { SOURCE_INFO } from './sources';
import { child, children, parseXml, textOf, type XmlElement } from './xml-lite';

/** One INDIVIDUAL_DATE_OF_BIRTH (or an alias's DATE_OF_BIRTH text). */
function dobsOf(d: XmlElement): string[] {
  const date = textOf(d, 'DATE');
  if (date) {
    const one = parseOneDate(date);
    if (one) return [one];
  }
  const from = Number(textOf(d, 'FROM_YEAR'));
  const to = Number(textOf(d, 'TO_YEAR'));
  if (from > 0 && to > 0) return yearsBetween(from, to);
  const year = textOf(d, 'YEAR');
  const note = textOf(d, 'NOTE');
  if (/^\d{4}$/.test(year)) {
    // A NOTE of just a month ("Sep.") next to YEAR narrows it.
    const withMonth = parseOneDate(`${note.replace(/\.$/, '')} ${year}`);
    return [withMonth ?? year];
  }
  // "Nov. 1960", "Between Aug. and Sep. 1960"; Hijri dates and ages ("55-58 years old") are
  // left out rather than guessed.
  if (note && !/hijri|years old/i.test(note)) return parseDob(note);
  return [];
}

function docsOf(d: XmlElement): EntityId | undefined {
  const number = textOf(d, 'NUMBER');
  if (!number) return undefined;
  const type = [textOf(d, 'TYPE_OF_DOCUMENT'), textOf(d, 'TYPE_OF_DOCUMENT2')].filter((t) => t !== '').join(' / ');
  const c = toCountryCode(textOf(d, 'ISSUING_COUNTRY')) ?? toCountryCode(textOf(d, 'COUNTRY_OF_ISSUE'));
  const id: EntityId = { type: type || 'Document', number };
  if (c) id.country = c;
  return id;
}

/** One INDIVIDUAL or ENTITY as a record, with its reference; null without one. */
function recordOf(el: XmlElement, person: boolean): { ref: string; entity: ListEntity } | null {
  // REFERENCE_NUMBER (e.g. "QDi.001") is the UN's permanent identifier of a listing.
  const ref = textOf(el, 'REFERENCE_NUMBER') || textOf(el, 'DATAID');
  if (!ref) return null;
  const primary = ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME'].map((n) => textOf(el, n)).filter((n) => n !== '').join(' ');
  const names: EntityName[] = [{ name: primary, kind: 'primary', quality: 'strong' }];
  const original = textOf(el, 'NAME_ORIGINAL_SCRIPT');
  if (original) names.push({ name: original, kind: 'aka', quality: 'strong' });
  const dobs: string[] = [];
  for (const a of children(el, person ? 'INDIVIDUAL_ALIAS' : 'ENTITY_ALIAS')) {
    const name = textOf(a, 'ALIAS_NAME');
    if (!name) continue;
    const q = textOf(a, 'QUALITY').toLowerCase();
    names.push({ name, kind: q === 'f.k.a.' ? 'fka' : 'aka', quality: q === 'low' ? 'weak' : 'strong' });
    // A few aliases carry the date of birth used with that name.
    const aliasDob = parseDob(textOf(a, 'DATE_OF_BIRTH'));
    dobs.push(...aliasDob);
  }
  for (const d of children(el, 'INDIVIDUAL_DATE_OF_BIRTH')) dobs.push(...dobsOf(d));

  const countries: string[] = [];
  for (const v of children(child(el, 'NATIONALITY'), 'VALUE')) {
    const c = toCountryCode(clean(v.text));
    if (c) countries.push(c);
  }
  for (const a of children(el, person ? 'INDIVIDUAL_ADDRESS' : 'ENTITY_ADDRESS')) {
    const c = toCountryCode(textOf(a, 'COUNTRY'));
    if (c) countries.push(c);
  }
  const ids: EntityId[] = [];
  for (const d of children(el, 'INDIVIDUAL_DOCUMENT')) {
    const id = docsOf(d);
    if (id) ids.push(id);
  }
  const listType = textOf(el, 'UN_LIST_TYPE');
  return {
    ref,
    entity: finishEntity({
      source: 'un_sc',
      sourceId: ref,
      sourceList: listType ? `UN ${listType}` : 'UN',
      kind: 'sanctions',
      schema: person ? 'person' : 'organization',
      names,
      dobs,
      countries,
      gender: parseGender(textOf(el, 'GENDER')),
      ids,
      programs: listType ? [listType] : [],
      listedOn: textOf(el, 'LISTED_ON'),
    }),
  };
}

export function importUnXml(bytes: Uint8Array): ListImport {
  // Each record is read as its element ends and dropped from the tree (xml-lite's take), and the
  // file's text is read a piece at a time: a list's memory is its records', not its document's.
  const people: ({ ref: string; entity: ListEntity } | null)[] = [];
  const others: ({ ref: string; entity: ListEntity } | null)[] = [];
  const root = parseXml(bytes, undefined, (el, parent, depth) => {
    if (depth !== 3) return false;
    if (el.name === 'INDIVIDUAL' && parent.name === 'INDIVIDUALS') people.push(recordOf(el, true));
    else if (el.name === 'ENTITY' && parent.name === 'ENTITIES') others.push(recordOf(el, false));
    else return false;
    return true;
  });
  if (root.name !== 'CONSOLIDATED_LIST') throw new FormatError('not a UN consolidated list (no <CONSOLIDATED_LIST>)');
  const skipped: Record<string, number> = {};
  const generated = (root.attrs.dateGenerated ?? '').slice(0, 10);
  const entities: ListEntity[] = [];
  const seen = new Set<string>();
  // People first, then the others, as the list gives them.
  for (const record of [...people, ...others]) {
    if (!record) {
      addSkip(skipped, 'without_reference');
      continue;
    }
    if (seen.has(record.ref)) {
      addSkip(skipped, 'duplicate_reference');
      continue;
    }
    seen.add(record.ref);
    entities.push(record.entity);
  }

  return {
    source: 'un_sc',
    publisher: SOURCE_INFO.un_sc.publisher,
    listDate: ISO_DATE.test(generated) ? generated : null,
    sha256: sha256Hex(bytes),
    entities,
    counts: countEntities(entities),
    skipped,
  };
}
