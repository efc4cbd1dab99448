// US Consolidated Screening List (trade.gov): one CSV, usually gzipped, merging 13 lists of
// Treasury, Commerce and State. Multi-values are ';'-separated; `ids` entries read
// "[country, ][issued, ][expires, ]number, type". Treasury rows carry OFAC's ent_num in
// `entity_number` (checked: same ids and names as sdn.csv / the Enhanced XML), which is how
// dedupe.ts finds the copies of OFAC records.
import { gunzipSync } from 'node:zlib';
import type { EntityId, EntityName, EntitySchema, ListEntity, ListImport } from '../types';
import { addSkip, clean, countEntities, decodeText, finishEntity, FormatError, parseDob, parseGender, sha256Hex } from './common';
import { toCountryCode } from './countries';
import { csvRecords, OFFICIAL_CSV_LIMITS } from './csv-reader';
import { UNPACKED_BYTES } from './limits';
import { isKeptIdType, normaliseIdLabel } from './ofac-remarks';
import { SOURCE_INFO } from './sources';

/**
 * Commerce's export-licensing lists: requirements on exports to named foreign organisations,
 * not prohibitions on dealing with a person. Left out of screening unless asked for (see
 * docs/watchlists.md, Decisions).
 */
export const CSL_EXPORT_CONTROL_CODES: readonly string[] = ['EL', 'UVL', 'MEU'];

/** Sub-lists that come from OFAC's own files (SDN and the non-SDN consolidated lists). */
export const CSL_TREASURY_CODES: readonly string[] = ['SDN', 'SSI', 'PLC', 'CMIC', 'CAP', 'FSE', 'NS-MBS'];

export interface CslOptions {
  /** Keep the Entity List, Unverified List and Military End User List (default false). */
  includeExportControl?: boolean;
  /**
   * Names the OFAC source that already holds a row (sub-list code, entity_number); such rows are
   * skipped as duplicates. See dedupe.ts for the rule.
   */
  duplicateOf?: (code: string, entityNumber: string) => string | undefined;
}

const REQUIRED = ['source', 'name'] as const;

/** "Entity List (EL) - Bureau of Industry and Security" -> "EL"; "(NS-MBS List)" -> "NS-MBS". */
export function cslCode(source: string): string {
  const m = /\(([^)]+)\)/.exec(source);
  const code = m ? (m[1] ?? '').replace(/\s+List$/i, '').trim() : clean(source.split(' - ')[0]);
  return code || 'CSL';
}

export function cslDuplicateReason(code: string, owner: string): string {
  return `duplicate_${code}_in_${owner}`;
}

/** The CSL sub-list and OFAC entity number a CSL record came from (see the id layout below). */
export function cslOrigin(e: Pick<ListEntity, 'id' | 'source'>): { code: string; entityNumber: string } | undefined {
  if (e.source !== 'us_csl') return undefined;
  const [, code, num] = e.id.split(':');
  return code && num ? { code, entityNumber: num } : undefined;
}

function schemaOf(type: string): EntitySchema {
  switch (type.toLowerCase()) {
    case 'individual':
      return 'person';
    case 'entity':
      return 'organization';
    case 'vessel':
      return 'vessel';
    case 'aircraft':
      return 'aircraft';
    default:
      return 'unknown';
  }
}

function multi(value: string | undefined): string[] {
  return (value ?? '')
    .split(';')
    .map((v) => clean(v))
    .filter((v) => v !== '');
}

function parseIds(value: string | undefined): { ids: EntityId[]; gender?: 'male' | 'female' } {
  const ids: EntityId[] = [];
  let gender: 'male' | 'female' | undefined;
  for (const entry of multi(value)) {
    const parts = entry.split(', ').map((p) => p.trim());
    const type = normaliseIdLabel(parts[parts.length - 1] ?? '');
    if (type === 'Gender') {
      gender = parseGender(parts[0]) ?? gender;
      continue;
    }
    if (parts.length < 2 || !isKeptIdType(type)) continue;
    const number = parts[parts.length - 2] ?? '';
    const first = parts[0] ?? '';
    const country = parts.length >= 3 && /^[A-Z]{2}$/.test(first) ? toCountryCode(first) : undefined;
    if (!/\d/.test(number)) continue;
    ids.push(country ? { type, number, country } : { type, number });
  }
  return gender ? { ids, gender } : { ids };
}

/** Country of one CSL address: its last comma-separated part, when that is a country code. */
function addressCountry(address: string): string | undefined {
  const last = address.split(',').pop()?.trim() ?? '';
  return /^[A-Z]{2}$/.test(last) ? toCountryCode(last) : undefined;
}

export function importCsl(bytes: Uint8Array, options: CslOptions = {}): ListImport {
  // 0x1f 0x8b: gzip, as trade.gov ships it; plain CSV is accepted too. node:zlib, not fflate:
  // native inflate is ~4x faster on this 5.8 MB file.
  let raw: Uint8Array = bytes;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      raw = gunzipSync(bytes, { maxOutputLength: UNPACKED_BYTES });
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new FormatError(`the gzip file unpacks to more than ${UNPACKED_BYTES / 2 ** 20} MiB`);
      throw new FormatError('the gzip file cannot be read');
    }
  }
  // Rows as arrays, read through the header's indexes; empty lines are skipped, and rows with a
  // broken quote only counted.
  const rows: string[][] = [];
  let quoteErrors = 0;
  for (const r of csvRecords(decodeText(raw), ',', OFFICIAL_CSV_LIMITS)) {
    if (r.quote) quoteErrors++;
    if (r.columns > 1 || r.cells[0] !== '') rows.push(r.cells);
  }
  const header = (rows.shift() ?? []).map((h) => h.trim());
  for (const f of REQUIRED) if (!header.includes(f)) throw new FormatError(`not a Consolidated Screening List CSV (no "${f}" column)`);
  const col = (name: string): number => header.indexOf(name);
  const at = {
    _id: col('_id'), source: col('source'), entity_number: col('entity_number'), type: col('type'),
    programs: col('programs'), name: col('name'), addresses: col('addresses'), call_sign: col('call_sign'),
    vessel_flag: col('vessel_flag'), alt_names: col('alt_names'), citizenships: col('citizenships'),
    dates_of_birth: col('dates_of_birth'), nationalities: col('nationalities'), ids: col('ids'),
    start_date: col('start_date'),
  };

  const skipped: Record<string, number> = {};
  const exportControl = new Set(options.includeExportControl ? [] : CSL_EXPORT_CONTROL_CODES);
  const entities: ListEntity[] = [];
  const seen = new Set<string>();
  const lists = new Map<string, { code: string; title: string }>();
  for (const row of rows) {
    const r = (k: keyof typeof at): string | undefined => {
      const i = at[k];
      return i >= 0 ? row[i] : undefined;
    };
    const sourceText = r('source') ?? '';
    let list = lists.get(sourceText);
    if (!list) {
      list = { code: cslCode(sourceText), title: clean(sourceText.split(' - ')[0]) };
      lists.set(sourceText, list);
    }
    const code = list.code;
    const name = clean(r('name'));
    if (name === '') {
      addSkip(skipped, 'without_name');
      continue;
    }
    if (exportControl.has(code)) {
      addSkip(skipped, `export_control_${code}`);
      continue;
    }
    // `_id` is the entity_number for Treasury rows and a content hash for the others. The
    // sub-list is part of the id because OFAC lists one ent_num on several lists (SDN and SSI).
    const rowId = clean(r('_id')) || clean(r('entity_number'));
    if (!rowId) {
      addSkip(skipped, 'without_id');
      continue;
    }
    const sourceId = `${code}:${rowId}`;
    if (seen.has(sourceId)) {
      addSkip(skipped, 'duplicate_row');
      continue;
    }
    seen.add(sourceId);
    const owner = options.duplicateOf?.(code, rowId);
    if (owner) {
      addSkip(skipped, cslDuplicateReason(code, owner));
      continue;
    }

    const names: EntityName[] = [{ name, kind: 'primary', quality: 'strong' }];
    // The CSL does not grade aliases: OFAC's weak a.k.a.s arrive here as plain alt_names.
    for (const alt of multi(r('alt_names'))) names.push({ name: alt, kind: 'aka', quality: 'strong' });
    const countries: string[] = [];
    for (const c of [...multi(r('nationalities')), ...multi(r('citizenships')), ...multi(r('vessel_flag'))]) {
      const code2 = toCountryCode(c);
      if (code2) countries.push(code2);
    }
    for (const a of multi(r('addresses'))) {
      const c = addressCountry(a);
      if (c) countries.push(c);
    }
    const { ids, gender } = parseIds(r('ids'));
    const callSign = clean(r('call_sign'));
    if (callSign) ids.push({ type: 'Call Sign', number: callSign });

    entities.push(
      finishEntity({
        source: 'us_csl',
        sourceId,
        sourceList: list.title || code,
        kind: 'sanctions',
        schema: schemaOf(clean(r('type'))),
        names,
        dobs: multi(r('dates_of_birth')).flatMap(parseDob),
        countries,
        gender,
        ids,
        programs: multi(r('programs')),
        listedOn: clean(r('start_date') ?? ''),
      }),
    );
  }
  if (quoteErrors > 0) addSkip(skipped, 'csv_errors', quoteErrors);

  return {
    source: 'us_csl',
    publisher: SOURCE_INFO.us_csl.publisher,
    listDate: null,
    sha256: sha256Hex(bytes),
    entities,
    counts: countEntities(entities),
    skipped,
  };
}
