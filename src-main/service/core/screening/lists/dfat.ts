// Australia's DFAT Consolidated List (regulation8_consolidated.xlsx): one row per name, the
// listing's Reference (e.g. 6678) on its primary name and a suffixed one (6678a, 6678b) on its
// aliases and original-script names. `Name Type` and `Type` vary in case and trailing spaces;
// Control Date and some dates of birth are Excel serial numbers; several values are lettered
// lists ("a) Approximately 1955-1958 b) 1945").
import { DAY_MS, isoDayOf } from '../../../../../src-shared/dates';
import type { EntityName, EntitySchema, ListEntity, ListImport } from '../types';
import { addSkip, clean, countEntities, finishEntity, FormatError, parseDob, parseGender, parseOneDate, sha256Hex } from './common';
import { toCountryCode } from './countries';
import { SOURCE_INFO } from './sources';
import { findHeader, readTable } from './spreadsheet';

export const DFAT_SOURCE = 'au_dfat';

const REQUIRED = ['Reference', 'Name of Individual or Entity', 'Type', 'Name Type'];

/** Nationality adjectives DFAT writes in Citizenship, as names toCountryCode knows. */
const DEMONYMS: Record<string, string> = {
  afghan: 'Afghanistan', algerian: 'Algeria', belarusian: 'Belarus', burmese: 'Myanmar', chinese: 'China',
  egyptian: 'Egypt', eritrean: 'Eritrea', french: 'France', german: 'Germany', indonesian: 'Indonesia',
  iranian: 'Iran', iraqi: 'Iraq', jordanian: 'Jordan', kuwaiti: 'Kuwait', lebanese: 'Lebanon', libyan: 'Libya',
  malaysian: 'Malaysia', moroccan: 'Morocco', 'north korean': "Democratic People's Republic of Korea",
  pakistani: 'Pakistan', palestinian: 'Palestine', filipino: 'Philippines', qatari: 'Qatar', russian: 'Russia',
  saudi: 'Saudi Arabia', 'saudi arabian': 'Saudi Arabia', somali: 'Somalia', sudanese: 'Sudan', 'south sudanese': 'South Sudan',
  syrian: 'Syria', tunisian: 'Tunisia', turkish: 'Turkey', ukrainian: 'Ukraine', venezuelan: 'Venezuela',
  yemeni: 'Yemen', zimbabwean: 'Zimbabwe', british: 'United Kingdom', american: 'United States', australian: 'Australia',
  bosnian: 'Bosnia and Herzegovina', congolese: 'Democratic Republic of the Congo', ethiopian: 'Ethiopia', kenyan: 'Kenya',
  nigerian: 'Nigeria', nicaraguan: 'Nicaragua', malian: 'Mali', moldovan: 'Moldova', georgian: 'Georgia', kazakh: 'Kazakhstan',
  cypriot: 'Cyprus', emirati: 'United Arab Emirates', bahraini: 'Bahrain', omani: 'Oman', tanzanian: 'Tanzania',
};

/** "a) x b) y" -> ["x", "y"]; text without letters -> [text]. */
function lettered(text: string): string[] {
  const t = clean(text);
  if (t === '' || /^(?:na|n\/a|-)$/i.test(t)) return [];
  return t.split(/(?:^|\s|;)[a-z]\)\s*/).map((p) => p.trim().replace(/[;,.]$/, '')).filter((p) => p !== '');
}

/** Excel's day count (1900 system) -> YYYY-MM-DD. */
export function excelDate(serial: number): string | undefined {
  if (!Number.isFinite(serial) || serial < 1 || serial > 2_958_465) return undefined;
  return isoDayOf(Math.round((serial - 25569) * DAY_MS));
}

function dobsOf(text: string): string[] {
  const out: string[] = [];
  for (const part of lettered(text)) {
    if (/^\d{4,5}(?:\.\d+)?$/.test(part) && Number(part) > 9999) {
      const d = excelDate(Number(part));
      if (d) out.push(d);
      continue;
    }
    // "Approximately 1955- 1958", "12/05/1965", "12 May 1965", "1965".
    const t = part.replace(/(\d)\s*-\s*(\d)/g, '$1 - $2').replace(/^(?:approximately|approx\.?|circa|about)\s+/i, '');
    const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
    if (dmy) {
      out.push(...parseDob(`${dmy[3]}-${(dmy[2] ?? '').padStart(2, '0')}-${(dmy[1] ?? '').padStart(2, '0')}`));
      continue;
    }
    out.push(...parseDob(t));
  }
  return out;
}

function countriesOf(text: string): string[] {
  const out: string[] = [];
  for (const item of lettered(text)) {
    for (const raw of item.split(/\s+and\s+|,|;|\//)) {
      const p = raw.trim().replace(/\.$/, '');
      const c = toCountryCode(p) ?? toCountryCode(DEMONYMS[p.toLowerCase()]);
      if (c) out.push(c);
    }
  }
  return out;
}

function schemaOf(type: string): EntitySchema {
  const t = type.trim().toLowerCase();
  if (t === 'individual') return 'person';
  if (t === 'entity') return 'organization';
  if (t === 'vessel') return 'vessel';
  return 'unknown';
}

interface Draft {
  ref: string;
  schema: EntitySchema;
  names: EntityName[];
  dobs: string[];
  countries: string[];
  gender?: 'male' | 'female';
  programs: string[];
  listedOn?: string | undefined;
}

/** "Listed by UN 1267 Committee on 25 January 2001 (amended on …)": the first date stated, when it is a whole date. */
export function dfatListedOn(listing: string): string | undefined {
  const m = /\bon\s*(\d{1,2}\s+[A-Za-z]+\.?,?\s+\d{4})/i.exec(listing);
  return m?.[1] === undefined ? undefined : parseOneDate(m[1]);
}

export function importDfat(bytes: Uint8Array): ListImport {
  const { rows } = readTable(bytes, { csv: false });
  const header = findHeader(rows, REQUIRED);
  if (!header) throw new FormatError('not the DFAT Consolidated List (its header was not found)');
  const c = (row: string[], name: string): string => {
    const i = header.col.get(name.toLowerCase().replace(/[^a-z0-9]+/g, ''));
    return i === undefined ? '' : clean(row[i]);
  };
  const skipped: Record<string, number> = {};
  const drafts = new Map<string, Draft>();
  let latest: string | undefined;
  for (let r = header.at + 1; r < rows.length; r++) {
    const row = rows[r] ?? [];
    const reference = c(row, 'Reference');
    const name = c(row, 'Name of Individual or Entity');
    // "6678" and "6678a": one listing.
    const ref = /^(\d+)/.exec(reference)?.[1];
    if (!ref || name === '') {
      if (row.some((v) => clean(v) !== '')) addSkip(skipped, 'without_reference_or_name');
      continue;
    }
    let d = drafts.get(ref);
    if (!d) {
      d = { ref, schema: schemaOf(c(row, 'Type')), names: [], dobs: [], countries: [], programs: [] };
      drafts.set(ref, d);
    }
    const nameType = c(row, 'Name Type').toLowerCase();
    if (nameType === 'primary name') d.names.unshift({ name, kind: 'primary', quality: 'strong' });
    else d.names.push({ name, kind: 'aka', quality: 'strong' });
    d.dobs.push(...dobsOf(c(row, 'Date of Birth')));
    d.countries.push(...countriesOf(c(row, 'Citizenship')));
    d.gender ??= parseGender(/^(male|female)\b/i.exec(c(row, 'Additional Information'))?.[1]);
    d.listedOn ??= dfatListedOn(c(row, 'Listing Information'));
    const committee = c(row, 'Committees');
    if (committee) d.programs.push(committee);
    const control = Number(c(row, 'Control Date'));
    const controlDate = excelDate(control);
    if (controlDate && (!latest || controlDate > latest)) latest = controlDate;
  }
  const entities: ListEntity[] = [];
  for (const d of drafts.values()) {
    if (d.names[0]?.kind !== 'primary') addSkip(skipped, 'without_primary_name');
    entities.push(
      finishEntity({
        source: DFAT_SOURCE,
        sourceId: d.ref,
        sourceList: 'AU',
        kind: 'sanctions',
        schema: d.schema,
        names: d.names,
        dobs: d.dobs,
        countries: d.countries,
        gender: d.gender,
        programs: d.programs,
        listedOn: d.listedOn,
      }),
    );
  }
  return {
    source: DFAT_SOURCE,
    publisher: SOURCE_INFO.au_dfat.publisher,
    listDate: latest ?? null,
    sha256: sha256Hex(bytes),
    entities,
    counts: countEntities(entities),
    skipped,
  };
}
