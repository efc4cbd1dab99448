// OFAC Sanctions List Service "Enhanced XML" (CONS_ENHANCED.ZIP / SDN_ENHANCED.ZIP, or the XML
// inside). Unlike the legacy CSVs it states its date (dataAsOf), flags weak aliases
// (isLowQuality), gives names in other scripts (translations) and resolves countries to ISO codes
// through its own reference table.
import { unzipSync } from 'fflate';
import { ISO_DATE } from '../../../../../src-shared/dates';
import type { EntityId, EntityName, EntitySchema, ListEntity, ListImport } from '../types';
import { addSkip, clean, countEntities, decodeText, finishEntity, FormatError, parseDob, parseGender, sha256Hex, yearsBetween } from './common';
import { toCountryCode } from './countries';
import { UNPACKED_BYTES } from './limits';
import { isKeptIdType, normaliseIdLabel } from './ofac-remarks';
import { SOURCE_INFO } from './sources';
import { child, children, parseXml, textOf, type XmlElement } from './xml-lite';

/** OFAC list names -> the short codes used as sourceList. */
const LIST_CODES: Record<string, string> = {
  'SDN List': 'SDN',
  'Sectoral Sanctions Identifications List': 'SSI',
  'Non-SDN Palestinian Legislative Council List': 'NS-PLC',
  'Non-SDN CMIC List': 'CMIC',
  'Non-SDN Menu-Based Sanctions List': 'NS-MBS',
  'CAPTA List': 'CAPTA',
  'FSE List': 'FSE',
  'Non-SDN Iranian Sanctions Act List': 'NS-ISA',
};

const COUNTRY_FEATURES = new Set(['Nationality Country', 'Citizenship Country', 'Nationality of Registration', 'Vessel Flag']);

/** The XML text of a ZIP (first .xml entry) or of raw XML bytes. */
export function enhancedXmlText(bytes: Uint8Array): string {
  // "PK\x03\x04": a ZIP archive.
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    let files: Record<string, Uint8Array>;
    let picked = false;
    let tooLarge = false;
    try {
      // Only the first .xml entry, and only when its stated size is sane: fflate inflates into a
      // buffer of that size and no further, so a ZIP bomb cannot take the memory.
      files = unzipSync(bytes, {
        filter: (f) => {
          if (picked || tooLarge || !/\.xml$/i.test(f.name)) return false;
          tooLarge = f.originalSize > UNPACKED_BYTES;
          picked = !tooLarge;
          return picked;
        },
      });
    } catch {
      throw new FormatError('the ZIP archive cannot be read');
    }
    if (tooLarge) throw new FormatError(`the XML file in the ZIP is larger than ${UNPACKED_BYTES / 2 ** 20} MiB`);
    const first = Object.values(files)[0];
    if (!first) throw new FormatError('the ZIP holds no .xml file');
    return decodeText(first);
  }
  return decodeText(bytes);
}

function schemaOf(type: string): EntitySchema {
  switch (type) {
    case 'Individual':
      return 'person';
    case 'Entity':
      return 'organization';
    case 'Vessel':
      return 'vessel';
    case 'Aircraft':
      return 'aircraft';
    default:
      return 'unknown';
  }
}

function dateOf(el: XmlElement | undefined, name: string): string {
  return textOf(el, name).slice(0, 10);
}

/** A Birthdate feature: its text the way the CSV writes it, else the structured range. */
function birthdates(feature: XmlElement): string[] {
  const fromText = parseDob(textOf(feature, 'value'));
  if (fromText.length > 0) return fromText;
  const vd = child(feature, 'valueDate');
  const from = dateOf(vd, 'fromDateBegin');
  const to = dateOf(vd, 'toDateEnd');
  if (!ISO_DATE.test(from)) return [];
  if (from === to) return [from];
  if (to.startsWith(from.slice(0, 4)) && from.endsWith('-01-01') && to.endsWith('-12-31')) return [from.slice(0, 4)];
  return yearsBetween(Number(from.slice(0, 4)), Number(to.slice(0, 4)));
}

/** What every record of the file is read with: the file's lists and its country reference table. */
interface FileContext {
  isSdnFile: boolean;
  source: 'us_ofac_sdn' | 'us_ofac_cons';
  iso: Map<string, string>;
}

function contextOf(info: XmlElement | undefined, referenceValues: XmlElement | undefined): FileContext {
  const filterLists = children(child(child(info, 'filters'), 'sanctionsLists'), 'sanctionsList').map((l) => clean(l.text));
  const isSdnFile = filterLists.includes('SDN List');
  const iso = new Map<string, string>();
  for (const rv of children(referenceValues, 'referenceValue')) {
    const code = textOf(rv, 'isoCode');
    if (textOf(rv, 'type') === 'COUNTRY' && /^[A-Z]{2}$/.test(code)) iso.set(rv.attrs.refId ?? '', code);
  }
  return { isSdnFile, source: isSdnFile ? 'us_ofac_sdn' : 'us_ofac_cons', iso };
}

/** One entity element as a record with its id; a skip reason when it has no usable id. */
function recordOf(e: XmlElement, ctx: FileContext): { id: string; entity: ListEntity } | 'entity_without_id' {
  const { isSdnFile, source, iso } = ctx;
  const country = (el: XmlElement | undefined): string | undefined => {
    if (!el) return undefined;
    const ref = el.attrs.refId;
    return (ref ? iso.get(ref) : undefined) ?? toCountryCode(clean(el.text));
  };
  const id = e.attrs.id ?? '';
  if (!/^\d+$/.test(id)) return 'entity_without_id';
  const lists = children(child(e, 'sanctionsLists'), 'sanctionsList')
    .map((l) => clean(l.text))
    .filter((l) => l !== 'Consolidated List')
    .map((l) => LIST_CODES[l] ?? l)
    .filter((l) => isSdnFile || l !== 'SDN');

  const names: EntityName[] = [];
  for (const n of children(child(e, 'names'), 'name')) {
    const primary = textOf(n, 'isPrimary') === 'true';
    const alias = textOf(n, 'aliasType').toUpperCase();
    const kind = primary ? 'primary' : alias === 'F.K.A.' ? 'fka' : alias === 'N.K.A.' ? 'nka' : 'aka';
    const quality = textOf(n, 'isLowQuality') === 'true' ? 'weak' : 'strong';
    const translations = children(child(n, 'translations'), 'translation');
    // The primary translation first, so the published Latin name stays the record's name.
    translations.sort((a, b) => Number(textOf(b, 'isPrimary') === 'true') - Number(textOf(a, 'isPrimary') === 'true'));
    translations.forEach((t, i) => {
      const full = textOf(t, 'formattedFullName');
      if (full) names.push({ name: full, kind: i === 0 ? kind : kind === 'primary' ? 'aka' : kind, quality });
    });
  }

  const dobs: string[] = [];
  const nationalities: string[] = [];
  const ids: EntityId[] = [];
  let gender: 'male' | 'female' | undefined;
  for (const f of children(child(e, 'features'), 'feature')) {
    const type = normaliseIdLabel(textOf(f, 'type'));
    if (type === 'Birthdate') dobs.push(...birthdates(f));
    else if (COUNTRY_FEATURES.has(type)) {
      const ref = textOf(f, 'valueRefId');
      const c = iso.get(ref) ?? toCountryCode(textOf(f, 'value'));
      if (c) nationalities.push(c);
    } else if (type === 'Gender') gender = parseGender(textOf(f, 'value'));
    else if (isKeptIdType(type)) {
      const value = textOf(f, 'value');
      if (/\d/.test(value)) ids.push({ type, number: value });
    }
  }
  for (const d of children(child(e, 'identityDocuments'), 'identityDocument')) {
    const c = country(child(d, 'issuingCountry'));
    const doc: EntityId = { type: textOf(d, 'type'), number: textOf(d, 'documentNumber') };
    if (c) doc.country = c;
    ids.push(doc);
  }
  const addressCountries: string[] = [];
  for (const a of children(child(e, 'addresses'), 'address')) {
    const c = country(child(a, 'country'));
    if (c) addressCountries.push(c);
  }

  return {
    id,
    entity: finishEntity({
      source,
      sourceId: id,
      sourceList: isSdnFile ? 'SDN' : lists.length > 0 ? [...new Set(lists)].sort().join('/') : 'Non-SDN',
      kind: 'sanctions',
      schema: schemaOf(textOf(child(e, 'generalInfo'), 'entityType')),
      names,
      dobs,
      countries: [...nationalities, ...addressCountries],
      gender,
      ids,
      programs: children(child(e, 'sanctionsPrograms'), 'sanctionsProgram').map((p) => clean(p.text)),
    }),
  };
}

export function importOfacEnhancedXml(bytes: Uint8Array): ListImport {
  // Each entity is read as its element ends and dropped from the tree (xml-lite's take), once
  // the file's publication info and reference values (which come first in OFAC's files) are
  // known; an entity before them stays in the tree and is read at the end.
  let info: XmlElement | undefined;
  let referenceValues: XmlElement | undefined;
  let ctx: FileContext | null = null;
  const read: ReturnType<typeof recordOf>[] = [];
  const root = parseXml(enhancedXmlText(bytes), undefined, (el, parent, depth) => {
    if (depth === 2 && parent.name === 'sanctionsData') {
      if (el.name === 'publicationInfo') info = el;
      else if (el.name === 'referenceValues') referenceValues = el;
      if (info && referenceValues) ctx ??= contextOf(info, referenceValues);
      return false;
    }
    if (depth !== 3 || ctx === null || el.name !== 'entity' || parent.name !== 'entities') return false;
    read.push(recordOf(el, ctx));
    return true;
  });
  if (root.name !== 'sanctionsData') throw new FormatError('not an OFAC Enhanced XML file (no <sanctionsData>)');
  const whole = ctx ?? contextOf(child(root, 'publicationInfo'), child(root, 'referenceValues'));
  // Entities that came before the reference values: read now, after the others (none in OFAC's files).
  for (const e of children(child(root, 'entities'), 'entity')) read.push(recordOf(e, whole));
  const { source } = whole;
  const dataAsOf = textOf(child(root, 'publicationInfo'), 'dataAsOf').slice(0, 10);
  const skipped: Record<string, number> = {};
  const entities: ListEntity[] = [];
  const seen = new Set<string>();
  for (const r of read) {
    if (typeof r === 'string') {
      addSkip(skipped, r);
      continue;
    }
    if (seen.has(r.id)) {
      addSkip(skipped, 'entity_duplicate');
      continue;
    }
    seen.add(r.id);
    entities.push(r.entity);
  }

  return {
    source,
    publisher: SOURCE_INFO[source].publisher,
    listDate: ISO_DATE.test(dataAsOf) ? dataAsOf : null,
    sha256: sha256Hex(bytes),
    entities,
    counts: countEntities(entities),
    skipped,
  };
}
