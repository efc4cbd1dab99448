// OFAC's legacy files keep most of a record in one free-text Remarks field:
//   "DOB 10 Dec 1948; alt. DOB 1950; POB Tehran, Iran; nationality Iran; Gender Male;
//    Passport A123 (Iran) issued 01 Jan 2010; a.k.a. 'ABU X'; Linked To: ..."
// Parts are separated by "; ". The quoted a.k.a./f.k.a./n.k.a. strings are OFAC's *weak* aliases
// (checked against the Enhanced XML: every isLowQuality name sits in Remarks, every strong one in
// alt.csv). The CSL's `ids` column uses the same type labels, so the allow-list lives here.
import type { EntityId, EntityName } from '../types';
import { clean, parseDob, parseGender } from './common';
import { toCountryCode } from './countries';

/**
 * Identifier types worth matching a subject's document or registry number against, as OFAC
 * labels them. Contact details, crypto addresses, tickers, ISINs and dates are left out.
 * Longest label wins ("Passport Booklet" before "Passport").
 */
export const ID_TYPES: readonly string[] = [
  'Passport', 'Diplomatic Passport', 'Passport Booklet', 'British National Overseas Passport',
  'Stateless Person Passport', 'Stateless Person ID Card', 'Travel Document Number', 'Refugee ID Card',
  'National ID No.', 'National Foreign ID Number', 'Personal ID Card', 'Identification Number', 'Citizen\'s Card Number',
  'Tazkira National ID Card', 'Kenyan ID No.', 'Bosnian Personal ID No.', 'Moroccan Personal ID No.',
  'Turkish Identification Number', 'UAE Identification', 'Numero de Identidad', 'CNP (Personal Numerical Code)',
  'Cedula No.', 'C.U.R.P.', 'C.U.R.P. #', 'R.F.C.', 'R.F.C. #', 'RFC', 'C.U.I.', 'C.U.I.T.', 'C.U.I.P.', 'C.I.N.',
  'I.F.E.', 'Credencial electoral', 'Electoral Registry No.', 'Cartilla de Servicio Militar Nacional', 'D.N.I.',
  'N.I.E.', 'N.I.F.', 'C.I.F.', 'LE Number', 'RTN', 'SSN', 'US FEIN', 'Italian Fiscal Code', 'Fiscal Code',
  'Birth Certificate Number', "Driver's License No.", 'Residency Number', 'Romanian Permanent Resident CAN',
  'Immigration No.', 'Public Security and Immigration No.', 'Military Registration Number', 'Pilot License Number',
  "Seafarer's Identification Document", 'VisaNumberID', 'Permit Number', 'SRE Permit No.',
  'Tax ID No.', 'Romanian Tax Registration', 'Paraguayan tax identification number',
  'Numero Unico de Identificacao Tributaria (NUIT)', 'NIT #', 'RUC #', 'RIF #', 'V.A.T. Number',
  'Registration Number', 'Registration ID', 'Business Registration Number', 'Business Registration Document #',
  'Business Number', 'Government Gazette Number', 'Commercial Registry Number', 'Company Number', 'UK Company Number',
  'Legal Entity Number', 'Unified Social Credit Code (USCC)', 'United Social Credit Code Certificate (USCCC)',
  'Public Registration Number', 'Central Registration System Number', 'Chamber of Commerce Number',
  'Economic Register Number (CBLS)', 'Trade License No.', 'License', 'C.R. No.', 'Romanian C.R.',
  'Certificate of Incorporation Number', 'Enterprise Number', 'Branch Unit Number',
  'Registration Certificate Number (Dubai)', 'Dubai Chamber of Commerce Membership No.',
  'Istanbul Chamber of Comm. No.', 'Folio Mercantil No.', 'Matricula Mercantil No', 'D-U-N-S Number',
  'Organization Code', 'Registered Charity No.', 'MSB Registration Number',
  'Afghan Money Service Provider License Number', 'SWIFT/BIC', 'BIK (RU)',
  'Vessel Registration Identification', 'International Maritime Organization No.', 'MMSI', 'Other Vessel Call Sign',
  "Aircraft Manufacturer's Serial Number (MSN)", 'Aircraft Tail Number', 'Previous Aircraft Tail Number',
  'Aircraft Construction Number (also called L/N or S/N or F/N)', 'Aircraft Mode S Transponder Code',
  'Aircraft Serial Identification',
];

const ID_LABEL = new RegExp(
  `^(${[...ID_TYPES].sort((a, b) => b.length - a.length).map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?=[\\s:]|$)`,
);
const ID_TYPE_SET = new Set(ID_TYPES.map((t) => t.toLowerCase()));

/** True when an OFAC/CSL identifier label names an identifier we keep (see ID_TYPES). */
export function isKeptIdType(label: string): boolean {
  return ID_TYPE_SET.has(normaliseIdLabel(label).toLowerCase());
}

/** "National ID No.:" and "NIT # " -> the bare label. */
export function normaliseIdLabel(label: string): string {
  return clean(label).replace(/\s*:$/, '');
}

export interface RemarkFacts {
  dobs: string[];
  /** Nationality, citizenship and registration countries, in order of appearance. */
  countries: string[];
  gender?: 'male' | 'female';
  ids: EntityId[];
  /** The weak a.k.a./f.k.a./n.k.a. strings. */
  aliases: EntityName[];
}

const ALIAS = /^([afn])\.k\.a\.,?\s+['‘’"](.+)['‘’"]$/;
const NATIONALITY = /^(?:nationality of registration|nationality|citizenship|citizen)\s+(?:possibly\s+)?([^;]+)/i;

/** Splits Remarks into its parts. Quoted alias names may contain "; " themselves. */
export function splitRemarks(remarks: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let from = 0;
  while (from <= remarks.length) {
    let cut = remarks.indexOf('; ', from);
    if (cut < 0) cut = remarks.length;
    const segment = remarks.slice(start, cut).trimStart();
    const quote = QUOTE_OPEN.exec(segment);
    if (quote && cut < remarks.length) {
      // A quote opens right after "a.k.a. "; apostrophes inside names ("AL-'ADNANI") do not
      // close it. It closes at a quote that is followed by "; " or ends the text.
      if (!QUOTE_CLOSE.test(segment.slice(quote[0].length))) {
        from = cut + 2;
        continue;
      }
    }
    parts.push(remarks.slice(start, cut));
    start = cut + 2;
    from = start;
  }
  return parts.map((p) => p.trim().replace(/\.$/, '').trim()).filter((p) => p !== '');
}

const QUOTE_OPEN = /^(?:alt\.\s+)?[afn]\.k\.a\.,?\s+['‘’"]/;
const QUOTE_CLOSE = /['‘’"]$/;

/** Reads one identifier part, e.g. "Passport L 191609 (Iran) issued 28 Feb 1996 expires 2001". */
export function parseIdPart(part: string): EntityId | undefined {
  if (!/\d/.test(part)) return undefined;
  const lm = ID_LABEL.exec(part);
  if (lm) {
    const label = lm[1] ?? '';
    let rest = part.slice(label.length);
    rest = rest.replace(/^\s*:?\s*/, '');
    rest = rest.replace(/(?:^|\s+)(?:issued|expires|expired)\b.*$/i, '').trim();
    let country: string | undefined;
    const m = /\s*\(([^()]+)\)$/.exec(rest);
    if (m) {
      const code = toCountryCode(m[1]);
      if (code) {
        country = code;
        rest = rest.slice(0, m.index).trim();
      }
    }
    rest = rest.replace(/[,;]$/, '').trim();
    if (rest === '' || !/\d/.test(rest)) return undefined;
    return country ? { type: label, number: rest, country } : { type: label, number: rest };
  }
  return undefined;
}

export function parseRemarks(remarks: string | null | undefined): RemarkFacts {
  const facts: RemarkFacts = { dobs: [], countries: [], ids: [], aliases: [] };
  if (!remarks) return facts;
  for (const raw of splitRemarks(remarks)) {
    const part = raw.replace(/^alt\.\s+/i, '');
    const alias = ALIAS.exec(part);
    if (alias) {
      const kind = alias[1] === 'f' ? 'fka' : alias[1] === 'n' ? 'nka' : 'aka';
      // OFAC quotes nicknames inside the quotes (a.k.a. ''FOOPIE''); a lone leading apostrophe
      // is part of a transliteration ('ABD AL-RAHMAN) and stays.
      const name = (alias[2] ?? '').replace(/^'(.*)'$/, '$1');
      facts.aliases.push({ name, kind, quality: 'weak' });
      continue;
    }
    if (part.startsWith('DOB ')) {
      facts.dobs.push(...parseDob(part.slice(4)));
      continue;
    }
    const nat = NATIONALITY.exec(part);
    if (nat) {
      const code = toCountryCode(nat[1]);
      if (code) facts.countries.push(code);
      continue;
    }
    if (part.startsWith('Gender ')) {
      const g = parseGender(part.slice(7));
      if (g) facts.gender = g;
      continue;
    }
    const id = parseIdPart(part);
    if (id) facts.ids.push(id);
  }
  return facts;
}
