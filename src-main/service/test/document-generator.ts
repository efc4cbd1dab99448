// Identity documents of varied layouts, and photographs of them, made by code from a seed. The
// specimens in document-fixtures.ts all share one layout and one font; a reader tuned on them
// learns that layout. Here each layout family fixes what a real issuer fixes (format, where the
// portrait sits, fields in one or two columns, labels above or beside their values, the label
// languages, the date style), and the seed varies the rest within it: fonts, colours, security
// backgrounds, the portrait's crop, the holder. Photographs put the page on a desk and add what a
// phone adds (rotation, perspective, glare, blur, uneven light, noise, JPEG); scans add little.
//
// One family (HELD_OUT_FAMILY) is kept out of tuning: benches report it apart. Everything stays in
// memory. Fonts: see fixtures/fonts/README.md. The MRZ and its check digits are written here,
// independently of the service's parser (ICAO 9303 part 3, 4, 5).
import { join } from 'node:path';
import { createCanvas, GlobalFonts, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import sharp from 'sharp';
import { APP_ROOT } from '../paths';
import { checkDigit, type DocKind } from './document-fixtures';
import { selfie, type FaceId } from './face-fixtures';
import { seededRandom } from '../core/random';

const FONT_DIR = join(APP_ROOT, 'src-main', 'service', 'test', 'fixtures', 'fonts');
const FONT_FILES: [file: string, family: string][] = [
  ['OCRB.otf', 'OCR-B'],
  ['DejaVuSans.ttf', 'Gen DejaVu Sans'],
  ['DejaVuSans-Bold.ttf', 'Gen DejaVu Sans Bold'],
  ['SpecimenSans-Regular.ttf', 'Gen Specimen Sans'],
  ['SpecimenSans-Bold.ttf', 'Gen Specimen Sans Bold'],
  ['SpecimenSerif-Regular.ttf', 'Gen Specimen Serif'],
  ['SpecimenSerif-Bold.ttf', 'Gen Specimen Serif Bold'],
  ['OpenSans-Regular.ttf', 'Gen Open Sans'],
  ['OpenSans-Bold.ttf', 'Gen Open Sans Bold'],
  ['OpenSans-CondBold.ttf', 'Gen Open Sans Condensed Bold'],
];
for (const [file, family] of FONT_FILES) GlobalFonts.registerFromPath(join(FONT_DIR, file), family);

export const seeded = seededRandom;
type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const between = (r: Rand, a: number, b: number) => a + r() * (b - a);

// ---------------------------------------------------------------------------------------------
// Holders

export interface GenHolder {
  /** As printed: accents, apostrophes and hyphens kept. */
  surname: string;
  given: string;
  /** YYYY-MM-DD */
  dob: string;
  sex: 'M' | 'F';
  nationality: string;
  issuing: string;
  number: string;
  expiry: string;
  issued: string;
  place: string;
  face: FaceId;
  /** TD3's optional personal number (digits), or empty. */
  personal: string;
  /**
   * A forgery (`forge`): the values the zone's check digits were written for, where the page and the
   * zone print others (a field edited on both, its digits left as they were).
   */
  digitsFor?: Pick<GenHolder, 'number' | 'dob' | 'expiry'>;
}

/**
 * Names of many origins, chosen for what trips a reader: O/C/G/Q and I/L/1 look-alikes, O' and
 * Mc, hyphens and spaces, letters ICAO transliterates (Ö → OE, Ł → L), very short and very long
 * names (truncated in the zone).
 */
const SURNAMES = [
  "O'CONNOR", 'MCGOLDRICK', "O'SULLIVAN-QUIGLEY", 'OLIVEIRA', 'COSTA GOMES', 'GOGOL', 'QUIGLEY', 'LOCKWOOD', 'ILLINGWORTH', 'COCQ',
  'ÖZTÜRK', 'NOWAK-GŁOWACKA', 'DE LA CRUZ', 'VAN DEN BOOGAARD', 'WÓJCIK', 'GONÇALVES', 'ZUBIZARRETA', 'OYELOWO', 'BOATENG', 'IBRAHIMOVIĆ',
  'POPESCU', 'IONESCU', 'LINDGREN', 'ISAKSSON', 'SOBOLEWSKI', 'ZIELIŃSKA', 'GUPTA', 'IYER', 'VENKATARAMANAN', 'NKOSI',
  'DLAMINI', 'QUISPE MAMANI', 'BJÖRKLUND', 'JOVANOVIĆ', 'KOVÁČOVÁ', 'OGUNLEYE', 'COLLINS', 'MCALLISTER', "D'ANGELO", 'LI',
  'NG', 'OLSSON', 'ILIESCU', 'GIL', 'LOBO', 'CIOBANU', 'SZCZEPAŃSKI', 'GOLDBERG', 'OKONJO-IWEALA', 'DOS SANTOS OLIVEIRA COUTINHO',
  'QUOC', 'BOGDANOVIĆ', 'ZOGRAFOU', 'SILVA', 'CLOUGH', 'MOLINA', 'LEIVA', 'OLIVIER', 'COQUELIN', 'GLOVER',
];
const GIVEN = [
  'SIOBHAN', 'OLIVIER', 'CLOVIS', 'GIOVANNI', 'QUENTIN', 'LILLI', 'ILONA', 'OLGA', 'COLM', 'IGOR', 'MAŁGORZATA', 'BOGDAN', 'ZBIGNIEW',
  'IOANA', 'OLUWASEUN', 'QUOC BAO', 'LUIS MIGUEL', 'MARIA DO CÉU', 'JEAN-LOUIS', 'ANNE-CLAIRE', 'SØREN', 'ÅSA', 'JOSÉ', 'ÍRIS', 'LIAM',
  'GOLIATH', 'OISÍN', 'COLIN', 'GIL', 'ZOË', 'ISOLDE', 'BILJANA', 'SIBUSISO', 'ZANELE', 'IQBAL', 'LOLA', 'CIARÁN', 'LUCIO',
  'MARIA DEL CONSUELO GUADALUPE', 'BARTHOLOMEW ALOYSIUS', 'ALEKSANDRA BOGUMIŁA', 'JO', 'OBI', 'SIOSAIA', 'GOKUL', 'LOIS',
];
/** States whose codes hold letters the reader takes for digits (O, I, S, B, Z, G). */
const STATES: Record<string, { local: string; english: string; places: string[] }> = {
  POL: { local: 'RZECZPOSPOLITA POLSKA', english: 'REPUBLIC OF POLAND', places: ['ŁÓDŹ', 'GDAŃSK', 'OPOLE'] },
  IND: { local: 'BHARAT GANARAJYA', english: 'REPUBLIC OF INDIA', places: ['KOLKATA', 'BENGALURU', 'LUCKNOW'] },
  ROU: { local: 'ROMÂNIA', english: 'ROMANIA', places: ['IAȘI', 'CLUJ-NAPOCA', 'BRAȘOV'] },
  BIH: { local: 'BOSNA I HERCEGOVINA', english: 'BOSNIA AND HERZEGOVINA', places: ['SARAJEVO', 'ZENICA', 'BIHAĆ'] },
  SWE: { local: 'SVERIGE', english: 'SWEDEN', places: ['GÖTEBORG', 'OSLO', 'LULEÅ'] },
  ZAF: { local: 'SUID-AFRIKA', english: 'SOUTH AFRICA', places: ['SOWETO', 'DURBAN', 'GQEBERHA'] },
  BOL: { local: 'ESTADO PLURINACIONAL DE BOLIVIA', english: 'BOLIVIA', places: ['COCHABAMBA', 'ORURO', 'SUCRE'] },
  ISL: { local: 'ÍSLAND', english: 'ICELAND', places: ['REYKJAVÍK', 'ÍSAFJÖRÐUR'] },
  SRB: { local: 'REPUBLIKA SRBIJA', english: 'REPUBLIC OF SERBIA', places: ['BEOGRAD', 'NIŠ'] },
  SVK: { local: 'SLOVENSKÁ REPUBLIKA', english: 'SLOVAK REPUBLIC', places: ['BRATISLAVA', 'KOŠICE'] },
  BGR: { local: 'REPUBLIKA BALGARIYA', english: 'REPUBLIC OF BULGARIA', places: ['SOFIA', 'BURGAS'] },
  GBR: { local: 'UNITED KINGDOM OF GREAT BRITAIN AND NORTHERN IRELAND', english: 'BRITISH CITIZEN', places: ['GLASGOW', 'BOLTON', 'OXFORD'] },
  IRL: { local: 'ÉIRE', english: 'IRELAND', places: ['CORK', 'SLIGO', 'GALWAY'] },
  DEU: { local: 'BUNDESREPUBLIK DEUTSCHLAND', english: 'FEDERAL REPUBLIC OF GERMANY', places: ['KÖLN', 'BOCHUM', 'GÖTTINGEN'] },
  NLD: { local: 'KONINKRIJK DER NEDERLANDEN', english: 'KINGDOM OF THE NETHERLANDS', places: ['GOUDA', 'ZWOLLE', 'BOLSWARD'] },
  FRA: { local: 'RÉPUBLIQUE FRANÇAISE', english: 'FRENCH REPUBLIC', places: ['LILLE', 'DIJON', 'BORDEAUX'] },
  ESP: { local: 'REINO DE ESPAÑA', english: 'KINGDOM OF SPAIN', places: ['OVIEDO', 'BILBAO', 'CÓRDOBA'] },
  PRT: { local: 'REPÚBLICA PORTUGUESA', english: 'PORTUGUESE REPUBLIC', places: ['COIMBRA', 'BRAGA', 'PORTO'] },
  ITA: { local: 'REPUBBLICA ITALIANA', english: 'ITALIAN REPUBLIC', places: ['BOLOGNA', 'COMO', 'GORIZIA'] },
  BEL: { local: 'BELGIQUE BELGIË', english: 'BELGIUM', places: ['LIÈGE', 'BRUGGE', 'OOSTENDE'] },
  NOR: { local: 'NORGE NOREG', english: 'NORWAY', places: ['BODØ', 'OSLO', 'BERGEN'] },
  COL: { local: 'REPÚBLICA DE COLOMBIA', english: 'COLOMBIA', places: ['BOGOTÁ', 'CALI'] },
  BRA: { local: 'REPÚBLICA FEDERATIVA DO BRASIL', english: 'BRAZIL', places: ['SÃO PAULO', 'OLINDA'] },
  ZWE: { local: 'ZIMBABWE', english: 'REPUBLIC OF ZIMBABWE', places: ['BULAWAYO', 'GWERU'] },
  MOZ: { local: 'REPÚBLICA DE MOÇAMBIQUE', english: 'MOZAMBIQUE', places: ['MAPUTO', 'BEIRA'] },
  GIN: { local: 'RÉPUBLIQUE DE GUINÉE', english: 'REPUBLIC OF GUINEA', places: ['CONAKRY', 'LABÉ'] },
  OMN: { local: 'SULTANATE OF OMAN', english: 'OMAN', places: ['SOHAR', 'SALALAH'] },
  BEN: { local: 'RÉPUBLIQUE DU BÉNIN', english: 'BENIN', places: ['COTONOU', 'BOHICON'] },
  SLO: { local: 'SLOVENIJA', english: 'SLOVENIA', places: ['LJUBLJANA'] },
};
// SLO is not an ICAO code (Slovenia is SVN): it is left out of holders, kept only as a reminder that
// a code can look right and be wrong.
const HOLDER_STATES = Object.keys(STATES).filter((s) => s !== 'SLO');
const FACES: FaceId[] = ['a', 'b', 'c', 'd'];
const NUMBER_LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';
const ALNUM = `${NUMBER_LETTERS}0123456789`;
/** The clock the holders' dates are drawn against: expiries stay in the future of the tests' clock. */
const GEN_YEAR = 2026;

const isoOf = (t: number) => new Date(t).toISOString().slice(0, 10);
function dateBetween(r: Rand, from: string, to: string): string {
  const a = Date.parse(from);
  return isoOf(a + r() * (Date.parse(to) - a));
}

/** A holder drawn from the seed: births 1927–2008, expiries from 2027 to 2039. */
export function generateHolder(r: Rand): GenHolder {
  const nationality = pick(r, HOLDER_STATES);
  // One in six documents is issued by another state than the holder's nationality (a refugee or a
  // resident's card), so the two codes are read apart.
  const issuing = r() < 1 / 6 ? pick(r, HOLDER_STATES) : nationality;
  const expiry = dateBetween(r, `${GEN_YEAR + 1}-01-01`, '2039-12-31');
  const years = pick(r, [5, 10, 10]);
  const issued = `${Number(expiry.slice(0, 4)) - years}${expiry.slice(4)}`;
  const numberLength = pick(r, [8, 9, 9, 9]);
  const number = pick(r, [...NUMBER_LETTERS]) + Array.from({ length: numberLength - 1 }, () => pick(r, [...ALNUM])).join('');
  return {
    surname: pick(r, SURNAMES),
    given: pick(r, GIVEN),
    dob: dateBetween(r, '1927-01-01', '2008-12-31'),
    sex: r() < 0.5 ? 'F' : 'M',
    nationality,
    issuing,
    number,
    expiry: expiry.endsWith('-02-29') ? `${expiry.slice(0, 8)}28` : expiry,
    issued: issued.endsWith('-02-29') ? `${issued.slice(0, 8)}28` : issued,
    place: pick(r, STATES[nationality]!.places),
    face: pick(r, FACES),
    personal: r() < 0.3 ? Array.from({ length: 11 }, () => String(Math.floor(r() * 10))).join('') : '',
  };
}

// ---------------------------------------------------------------------------------------------
// The machine-readable zone

/** ICAO 9303 part 3 transliteration of the Latin letters used here. */
const TRANSLIT: Record<string, string> = {
  Ä: 'AE', Ö: 'OE', Ü: 'UE', ß: 'SS', Ø: 'OE', Å: 'AA', Æ: 'AE', Ł: 'L', Ð: 'D', Þ: 'TH', Œ: 'OE',
};
/** A name in the MRZ alphabet: transliterated, apostrophes dropped, other separators `<`. */
export function mrzNameOf(s: string): string {
  const upper = s.toUpperCase();
  const mapped = [...upper].map((c) => TRANSLIT[c] ?? c).join('').normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  return mapped.replace(/['’]/g, '').replace(/[^A-Z]+/g, '<').replace(/^<|<$/g, '');
}
const fill = (s: string, n: number) => (s + '<'.repeat(n)).slice(0, n);
const yymmdd = (iso: string) => iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);

/**
 * The name field, cut to its room as ICAO 9303 part 3 truncates: the given names first, and the
 * surname only as far as leaves room for the first given name's initial.
 */
function nameField(h: GenHolder, room: number): string {
  const sur = mrzNameOf(h.surname);
  const giv = mrzNameOf(h.given);
  if (sur.length + 2 + giv.length <= room) return fill(`${sur}<<${giv}`, room);
  const s = sur.slice(0, Math.min(sur.length, room - 3)).replace(/<+$/, '');
  const g = giv.slice(0, room - s.length - 2).replace(/<+$/, '');
  return fill(`${s}<<${g}`, room);
}

/** Where each check digit sits in a zone ([line, column]): ICAO 9303 parts 4-6. */
const DIGIT_CELLS: Record<DocKind, [number, number][]> = {
  td3: [[1, 9], [1, 19], [1, 27], [1, 42], [1, 43]],
  td2: [[1, 9], [1, 19], [1, 27], [1, 35]],
  td1: [[0, 14], [1, 6], [1, 14], [1, 29]],
};

export function generatedMrz(h: GenHolder, kind: DocKind): string[] {
  const lines = zoneOf(h, kind);
  if (!h.digitsFor) return lines;
  // A forgery: the edited values, with the digits of the values it was issued with.
  const issued = zoneOf({ ...h, ...h.digitsFor }, kind);
  return lines.map((line, i) => [...line].map((c, j) => (DIGIT_CELLS[kind].some(([l, col]) => l === i && col === j) ? issued[i]![j]! : c)).join(''));
}

/**
 * A forgery of the holder's document, as an amateur makes one: one field edited on the page and in
 * the zone alike (the birth year made older, the expiry made later, or the number changed), the
 * check digits left as issued, so the field's own digit (and the composite) fails.
 */
export function forge(h: GenHolder, r: Rand, kind: DocKind): GenHolder {
  const what = r();
  const year = (iso: string, by: number) => `${Number(iso.slice(0, 4)) + by}${iso.slice(4) === '-02-29' ? '-02-28' : iso.slice(4)}`;
  for (let k = 1; ; k++) {
    const edited: GenHolder = what < 0.5
      ? { ...h, dob: year(h.dob, -k) }
      : what < 0.8
        ? { ...h, expiry: year(h.expiry, k) }
        : { ...h, number: `${h.number.slice(0, -1)}${String.fromCharCode(48 + ((Number.isNaN(Number(h.number.slice(-1))) ? 0 : Number(h.number.slice(-1))) + k) % 10)}` };
    const forged = { ...edited, digitsFor: { number: h.number, dob: h.dob, expiry: h.expiry } };
    const [ok, fake] = [zoneOf(edited, kind), generatedMrz(forged, kind)];
    // An edit whose own digit happens to hold (the composite alone may not) is another forgery: try the next.
    const [line, col] = DIGIT_CELLS[kind][what < 0.5 ? 1 : what < 0.8 ? 2 : 0]!;
    if (ok[line]![col] !== fake[line]![col] || k > 20) return forged;
  }
}

function zoneOf(h: GenHolder, kind: DocKind): string[] {
  const num = fill(h.number, 9);
  const dob = yymmdd(h.dob);
  const exp = yymmdd(h.expiry);
  const numCd = checkDigit(num);
  if (kind === 'td3') {
    const l1 = fill(`P<${h.issuing}${nameField(h, 39)}`, 44);
    const personal = fill(h.personal, 14);
    const personalCd = h.personal ? checkDigit(personal) : '<';
    const body = `${num}${numCd}${h.nationality}${dob}${checkDigit(dob)}${h.sex}${exp}${checkDigit(exp)}${personal}${personalCd}`;
    const composite = checkDigit(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 43));
    return [l1, body + composite];
  }
  if (kind === 'td2') {
    const l1 = fill(`I<${h.issuing}${nameField(h, 31)}`, 36);
    const body = `${num}${numCd}${h.nationality}${dob}${checkDigit(dob)}${h.sex}${exp}${checkDigit(exp)}${fill('', 7)}`;
    const composite = checkDigit(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 35));
    return [l1, body + composite];
  }
  const l1 = fill(`I<${h.issuing}${num}${numCd}${h.personal ? fill(h.personal, 15) : ''}`, 30);
  const l2head = `${dob}${checkDigit(dob)}${h.sex}${exp}${checkDigit(exp)}${h.nationality}${fill('', 11)}`;
  const composite = checkDigit(l1.slice(5, 30) + l2head.slice(0, 7) + l2head.slice(8, 15) + l2head.slice(18, 29));
  return [l1, l2head + composite, nameField(h, 30)];
}

/** What a correct reading answers in `document_data` (nationality and sex where the answer has them). */
export interface ExpectedData {
  name: string;
  /** The untruncated name too, when the zone cut it: a reader that restores it from the print is right as well. */
  nameAlternatives: string[];
  date_of_birth: string;
  document_type: string;
  document_number: string;
  expiry_date: string;
  issuing_country: string;
  nationality: string;
  sex: string;
}

const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
export function expectedData(h: GenHolder, kind: DocKind): ExpectedData {
  const lines = generatedMrz(h, kind);
  const field = kind === 'td1' ? lines[2]! : lines[0]!.slice(5);
  const [sur, giv] = field.replace(/<+$/, '').split('<<');
  const spaced = (s: string | undefined) => (s ?? '').replace(/<+/g, ' ').trim();
  const name = `${spaced(giv)} ${spaced(sur)}`.trim();
  const full = `${mrzNameOf(h.given).replace(/</g, ' ')} ${mrzNameOf(h.surname).replace(/</g, ' ')}`;
  return {
    name,
    nameAlternatives: full === name ? [] : [full],
    date_of_birth: usDate(h.dob),
    document_type: kind === 'td3' ? 'passport' : 'id_card',
    document_number: h.number,
    expiry_date: usDate(h.expiry),
    issuing_country: h.issuing,
    nationality: h.nationality,
    sex: h.sex,
  };
}

// ---------------------------------------------------------------------------------------------
// Layouts

type Lang = 'en' | 'fr' | 'es' | 'de' | 'it' | 'nl' | 'pl' | 'pt';
type FieldKey = 'type' | 'code' | 'number' | 'surname' | 'given' | 'nationality' | 'dob' | 'sex' | 'place' | 'issued' | 'expiry' | 'authority';

const LABELS: Record<Exclude<FieldKey, 'number'>, Record<Lang, string>> = {
  type: { en: 'Type', fr: 'Type', es: 'Tipo', de: 'Typ', it: 'Tipo', nl: 'Soort', pl: 'Typ', pt: 'Tipo' },
  code: { en: 'Code', fr: 'Code', es: 'Código', de: 'Kode', it: 'Codice', nl: 'Code', pl: 'Kod', pt: 'Código' },
  surname: { en: 'Surname', fr: 'Nom', es: 'Apellidos', de: 'Name', it: 'Cognome', nl: 'Naam', pl: 'Nazwisko', pt: 'Apelido' },
  given: { en: 'Given names', fr: 'Prénoms', es: 'Nombres', de: 'Vornamen', it: 'Nome', nl: 'Voornamen', pl: 'Imiona', pt: 'Nome próprio' },
  nationality: { en: 'Nationality', fr: 'Nationalité', es: 'Nacionalidad', de: 'Staatsangehörigkeit', it: 'Cittadinanza', nl: 'Nationaliteit', pl: 'Obywatelstwo', pt: 'Nacionalidade' },
  dob: { en: 'Date of birth', fr: 'Date de naissance', es: 'Fecha de nacimiento', de: 'Geburtstag', it: 'Data di nascita', nl: 'Geboortedatum', pl: 'Data urodzenia', pt: 'Data de nascimento' },
  sex: { en: 'Sex', fr: 'Sexe', es: 'Sexo', de: 'Geschlecht', it: 'Sesso', nl: 'Geslacht', pl: 'Płeć', pt: 'Sexo' },
  place: { en: 'Place of birth', fr: 'Lieu de naissance', es: 'Lugar de nacimiento', de: 'Geburtsort', it: 'Luogo di nascita', nl: 'Geboorteplaats', pl: 'Miejsce urodzenia', pt: 'Local de nascimento' },
  issued: { en: 'Date of issue', fr: 'Date de délivrance', es: 'Fecha de expedición', de: 'Ausstellungsdatum', it: 'Data di rilascio', nl: 'Datum van afgifte', pl: 'Data wydania', pt: 'Data de emissão' },
  expiry: { en: 'Date of expiry', fr: "Date d'expiration", es: 'Fecha de caducidad', de: 'Gültig bis', it: 'Data di scadenza', nl: 'Geldig tot', pl: 'Data ważności', pt: 'Data de validade' },
  authority: { en: 'Authority', fr: 'Autorité', es: 'Autoridad', de: 'Behörde', it: 'Autorità', nl: 'Instantie', pl: 'Organ wydający', pt: 'Autoridade' },
};
const NUMBER_LABEL: Record<'passport' | 'card', Record<Lang, string>> = {
  passport: { en: 'Passport No.', fr: 'N° du passeport', es: 'N° de pasaporte', de: 'Pass-Nr.', it: 'N. passaporto', nl: 'Paspoortnr.', pl: 'Nr paszportu', pt: 'N.º do passaporte' },
  card: { en: 'Document No.', fr: 'N° du document', es: 'N° de documento', de: 'Ausweis-Nr.', it: 'N. documento', nl: 'Documentnr.', pl: 'Nr dokumentu', pt: 'N.º do documento' },
};
const TITLES: Record<'passport' | 'card', Record<Lang, string>> = {
  passport: { en: 'PASSPORT', fr: 'PASSEPORT', es: 'PASAPORTE', de: 'REISEPASS', it: 'PASSAPORTO', nl: 'PASPOORT', pl: 'PASZPORT', pt: 'PASSAPORTE' },
  card: { en: 'IDENTITY CARD', fr: "CARTE D'IDENTITÉ", es: 'DOCUMENTO DE IDENTIDAD', de: 'PERSONALAUSWEIS', it: "CARTA D'IDENTITÀ", nl: 'IDENTITEITSKAART', pl: 'DOWÓD OSOBISTY', pt: 'CARTÃO DE IDENTIDADE' },
};
const MONTHS: Record<Lang, string[]> = {
  en: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
  fr: ['JAN', 'FÉV', 'MARS', 'AVR', 'MAI', 'JUIN', 'JUIL', 'AOÛT', 'SEPT', 'OCT', 'NOV', 'DÉC'],
  es: ['ENE', 'FEB', 'MAR', 'ABR', 'MAY', 'JUN', 'JUL', 'AGO', 'SEP', 'OCT', 'NOV', 'DIC'],
  de: ['JAN', 'FEB', 'MÄR', 'APR', 'MAI', 'JUN', 'JUL', 'AUG', 'SEP', 'OKT', 'NOV', 'DEZ'],
  it: ['GEN', 'FEB', 'MAR', 'APR', 'MAG', 'GIU', 'LUG', 'AGO', 'SET', 'OTT', 'NOV', 'DIC'],
  nl: ['JAN', 'FEB', 'MAA', 'APR', 'MEI', 'JUN', 'JUL', 'AUG', 'SEP', 'OKT', 'NOV', 'DEC'],
  pl: ['STY', 'LUT', 'MAR', 'KWI', 'MAJ', 'CZE', 'LIP', 'SIE', 'WRZ', 'PAŹ', 'LIS', 'GRU'],
  pt: ['JAN', 'FEV', 'MAR', 'ABR', 'MAI', 'JUN', 'JUL', 'AGO', 'SET', 'OUT', 'NOV', 'DEZ'],
};

type DateStyle = 'month' | 'month-bilingual' | 'dots' | 'slashes' | 'month-short-year';
type Background = 'rosette' | 'waves' | 'microprint' | 'gradient' | 'ghost';

interface LayoutSpec {
  kind: DocKind;
  /** Page size in millimetres (ICAO: TD3 125 × 88, TD2 105 × 74, TD1 85.6 × 54). */
  mm: [number, number];
  portrait: 'left' | 'right';
  columns: 1 | 2;
  labels: 'above' | 'beside';
  langs: Lang[];
  numbered: boolean;
  dates: DateStyle;
  /** Fonts this issuer prints values in (one per document), and labels in. */
  valueFonts: string[];
  labelFonts: string[];
  backgrounds: Background[];
  /** The fields printed, in reading order; `wide` ones take a whole row. */
  fields: FieldKey[];
  upperLabels: boolean;
}

export type LayoutFamily = 'td3-classic' | 'td3-trilingual' | 'td3-beside' | 'td2-card' | 'td1-card' | 'td1-beside' | 'td3-atlantic';

const ALL_TD3: FieldKey[] = ['type', 'code', 'number', 'surname', 'given', 'nationality', 'dob', 'sex', 'place', 'issued', 'authority', 'expiry'];
const CARD: FieldKey[] = ['surname', 'given', 'sex', 'nationality', 'dob', 'number', 'expiry'];

export const LAYOUTS: Record<LayoutFamily, LayoutSpec> = {
  // Portrait left, two columns, English/French labels above values: the classic booklet page.
  'td3-classic': {
    kind: 'td3', mm: [125, 88], portrait: 'left', columns: 2, labels: 'above', langs: ['en', 'fr'], numbered: false, dates: 'month',
    valueFonts: ['Gen DejaVu Sans Bold', 'Gen Specimen Sans Bold'], labelFonts: ['Gen DejaVu Sans', 'Gen Specimen Sans'],
    backgrounds: ['rosette', 'gradient'], fields: ALL_TD3, upperLabels: false,
  },
  // English/French/Spanish numbered labels, one column with bilingual month names.
  'td3-trilingual': {
    kind: 'td3', mm: [125, 88], portrait: 'left', columns: 2, labels: 'above', langs: ['es', 'en', 'fr'], numbered: true, dates: 'month-bilingual',
    valueFonts: ['Gen Specimen Serif Bold', 'Gen Open Sans Bold'], labelFonts: ['Gen Specimen Serif', 'Gen Open Sans'],
    backgrounds: ['waves', 'microprint', 'ghost'], fields: ALL_TD3, upperLabels: false,
  },
  // German/English/French labels beside the values, portrait on the right, dotted dates.
  'td3-beside': {
    kind: 'td3', mm: [125, 88], portrait: 'right', columns: 1, labels: 'beside', langs: ['de', 'en', 'fr'], numbered: false, dates: 'dots',
    valueFonts: ['Gen Open Sans Condensed Bold', 'Gen DejaVu Sans Bold'], labelFonts: ['Gen Open Sans', 'Gen DejaVu Sans'],
    backgrounds: ['rosette', 'microprint'], fields: ['surname', 'given', 'number', 'nationality', 'dob', 'sex', 'place', 'issued', 'expiry'], upperLabels: false,
  },
  // Dutch/English card, portrait right, labels above, slashed dates.
  'td2-card': {
    kind: 'td2', mm: [105, 74], portrait: 'right', columns: 2, labels: 'above', langs: ['nl', 'en'], numbered: false, dates: 'slashes',
    valueFonts: ['Gen Specimen Sans Bold', 'Gen Open Sans Bold'], labelFonts: ['Gen Specimen Sans', 'Gen Open Sans'],
    backgrounds: ['waves', 'gradient', 'ghost'], fields: CARD, upperLabels: false,
  },
  // Italian/English card, portrait left, labels above in capitals.
  'td1-card': {
    kind: 'td1', mm: [85.6, 54], portrait: 'left', columns: 2, labels: 'above', langs: ['it', 'en'], numbered: false, dates: 'month',
    valueFonts: ['Gen DejaVu Sans Bold', 'Gen Open Sans Condensed Bold'], labelFonts: ['Gen DejaVu Sans', 'Gen Open Sans'],
    backgrounds: ['rosette', 'microprint', 'gradient'], fields: CARD, upperLabels: true,
  },
  // Polish/English card, labels beside values in one column.
  'td1-beside': {
    kind: 'td1', mm: [85.6, 54], portrait: 'left', columns: 1, labels: 'beside', langs: ['pl', 'en'], numbered: false, dates: 'dots',
    valueFonts: ['Gen Specimen Sans Bold', 'Gen Specimen Serif Bold'], labelFonts: ['Gen Specimen Sans', 'Gen Specimen Serif'],
    backgrounds: ['waves', 'ghost'], fields: ['surname', 'given', 'dob', 'sex', 'nationality', 'number', 'expiry'], upperLabels: false,
  },
  // HELD OUT: never tuned on. Portrait right with a ghost portrait, Portuguese/English/French
  // numbered labels, two-digit years with month names, rosettes and microprint.
  'td3-atlantic': {
    kind: 'td3', mm: [125, 88], portrait: 'right', columns: 2, labels: 'above', langs: ['pt', 'en', 'fr'], numbered: true, dates: 'month-short-year',
    valueFonts: ['Gen Open Sans Bold', 'Gen Specimen Serif Bold', 'Gen DejaVu Sans Bold'], labelFonts: ['Gen Open Sans', 'Gen Specimen Serif'],
    backgrounds: ['rosette', 'microprint', 'ghost', 'gradient'], fields: ALL_TD3, upperLabels: false,
  },
};
export const HELD_OUT_FAMILY: LayoutFamily = 'td3-atlantic';
export const TUNING_FAMILIES = (Object.keys(LAYOUTS) as LayoutFamily[]).filter((f) => f !== HELD_OUT_FAMILY);
export const kindOf = (f: LayoutFamily): DocKind => LAYOUTS[f].kind;

function printedDate(iso: string, style: DateStyle, langs: Lang[]): string {
  const [y, m, d] = [iso.slice(0, 4), Number(iso.slice(5, 7)), iso.slice(8, 10)];
  const mon = (l: Lang) => MONTHS[l][m - 1]!;
  switch (style) {
    case 'month': return `${d} ${mon(langs[0]!)} ${y}`;
    case 'month-bilingual': {
      const names = [...new Set([mon(langs[0]!), mon(langs[1] ?? langs[0]!)])];
      return `${d} ${names.join('/')} ${y}`;
    }
    case 'dots': return `${d}.${iso.slice(5, 7)}.${y}`;
    case 'slashes': return `${d}/${iso.slice(5, 7)}/${y}`;
    case 'month-short-year': return `${d} ${mon(langs[0]!)}/${mon('en')} ${y.slice(2)}`;
  }
}

function labelOf(key: FieldKey, spec: LayoutSpec): string {
  const table = key === 'number' ? NUMBER_LABEL[spec.kind === 'td3' ? 'passport' : 'card'] : LABELS[key];
  const text = [...new Set(spec.langs.map((l) => table[l]))].join(' / ');
  return spec.upperLabels ? text.toUpperCase() : text;
}

function valueOf(key: FieldKey, h: GenHolder, spec: LayoutSpec): string {
  switch (key) {
    case 'type': return spec.kind === 'td3' ? 'P' : 'I';
    case 'code': return h.issuing;
    case 'number': return h.number;
    case 'surname': return h.surname;
    case 'given': return h.given;
    case 'nationality': return `${STATES[h.nationality]!.english}`;
    case 'dob': return printedDate(h.dob, spec.dates, spec.langs);
    case 'sex': return h.sex;
    case 'place': return h.place;
    case 'issued': return printedDate(h.issued, spec.dates, spec.langs);
    case 'expiry': return printedDate(h.expiry, spec.dates, spec.langs);
    case 'authority': return pick(seeded(h.number.charCodeAt(2)), ['MINISTRY OF FOREIGN AFFAIRS', 'PASSPORT OFFICE', 'DIRECTORATE OF IMMIGRATION']);
  }
}

const WIDE: ReadonlySet<FieldKey> = new Set(['surname', 'given', 'place', 'authority', 'nationality']);

const PALETTES = [
  { paper: ['#eef3f7', '#f6efe3', '#e7f0ea'], ink: '#1b1f2a', label: '#44506a', line: 'rgba(80,120,170,', head: '#1f2d5c' },
  { paper: ['#f7ecef', '#f3f1e6', '#eae8f3'], ink: '#221a1d', label: '#6a4452', line: 'rgba(170,80,110,', head: '#5c1f33' },
  { paper: ['#edf5ee', '#f4f3e6', '#e6eef4'], ink: '#16201a', label: '#3f5a47', line: 'rgba(60,140,90,', head: '#1c4a2c' },
  { paper: ['#f5f0e4', '#efe9dc', '#f3eadd'], ink: '#241d12', label: '#6b5a3a', line: 'rgba(160,120,50,', head: '#4d3a14' },
];

function drawBackground(ctx: SKRSContext2D, kind: Background, W: number, H: number, r: Rand, palette: (typeof PALETTES)[number], issuer: string) {
  if (kind === 'gradient') {
    const g = ctx.createRadialGradient(W * between(r, 0.2, 0.8), H * between(r, 0.2, 0.8), 1, W / 2, H / 2, W * 0.8);
    g.addColorStop(0, 'rgba(255,255,255,0.5)');
    g.addColorStop(1, `${palette.line}0.10)`);
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, W, H);
  } else if (kind === 'rosette') {
    // Hypotrochoids: the guilloche rosettes of banknotes and passports.
    for (let k = 0; k < 2; k++) {
      const cx = W * between(r, 0.25, 0.8);
      const cy = H * between(r, 0.25, 0.65);
      const R = H * between(r, 0.25, 0.42);
      const rr = R * between(r, 0.18, 0.38);
      const d = rr * between(r, 0.6, 1.4);
      ctx.strokeStyle = `${palette.line}${between(r, 0.18, 0.3).toFixed(2)})`;
      ctx.lineWidth = H * 0.0012;
      ctx.beginPath();
      for (let t = 0; t <= Math.PI * 2 * 23; t += 0.02) {
        const x = cx + (R - rr) * Math.cos(t) + d * Math.cos(((R - rr) / rr) * t);
        const y = cy + (R - rr) * Math.sin(t) - d * Math.sin(((R - rr) / rr) * t);
        if (t === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      }
      ctx.stroke();
    }
  } else if (kind === 'waves') {
    const n = Math.round(between(r, 24, 40));
    const amp = H * between(r, 0.01, 0.04);
    const freq = between(r, 2, 6);
    ctx.strokeStyle = `${palette.line}${between(r, 0.15, 0.28).toFixed(2)})`;
    ctx.lineWidth = H * 0.0011;
    for (let i = 0; i < n; i++) {
      const y0 = (H * i) / n;
      ctx.beginPath();
      for (let x = 0; x <= W; x += W / 200) {
        const y = y0 + amp * Math.sin((x / W) * Math.PI * 2 * freq + i * 0.35) + amp * 0.5 * Math.sin((x / W) * Math.PI * 9 + i);
        if (x === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      }
      ctx.stroke();
    }
  } else if (kind === 'microprint') {
    // Lines of tiny repeated text: the detector must not take them for fields.
    ctx.fillStyle = `${palette.line}0.22)`;
    ctx.font = `${H * 0.011}px "Gen DejaVu Sans"`;
    const line = `${issuer} ${STATES[issuer]?.local ?? ''} `.repeat(12);
    const step = H * between(r, 0.045, 0.08);
    for (let y = step; y < H * 0.72; y += step) ctx.fillText(line, -W * r() * 0.2, y);
  }
}

async function portraitOf(h: GenHolder, r: Rand, w: number, h2: number, ghost = false): Promise<Buffer> {
  const base = await selfie(h.face);
  // The selfie is 560 px square with the face in the middle: crops differ in zoom and framing.
  const ch = Math.round(560 * between(r, 0.72, 1));
  const cw = Math.min(560, Math.round((ch * w) / h2));
  const left = Math.max(0, Math.min(560 - cw, Math.round((560 - cw) / 2 + between(r, -0.06, 0.06) * 560)));
  const top = Math.max(0, Math.min(560 - ch, Math.round((560 - ch) * between(r, 0.1, 0.6))));
  let img = sharp(base).extract({ left, top, width: cw, height: ch }).resize(Math.round(w), Math.round(h2), { fit: 'cover' });
  if (ghost) img = img.grayscale().linear(0.35, 165);
  else if (r() < 0.35) img = img.grayscale();
  return img.png().toBuffer();
}

export interface RenderedPage {
  png: Buffer;
  width: number;
  height: number;
}

/** Renders one flat, upright data page (PNG) at `pxPerMm` (10 ≈ 254 dpi). */
export async function renderPage(family: LayoutFamily, h: GenHolder, seed: number, pxPerMm = 10): Promise<RenderedPage> {
  const spec = LAYOUTS[family];
  const r = seeded(seed * 7919 + 17);
  const [Wmm, Hmm] = spec.mm;
  const W = Math.round(Wmm * pxPerMm);
  const H = Math.round(Hmm * pxPerMm);
  const u = pxPerMm; // px per mm
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  const palette = pick(r, PALETTES);
  const paper = ctx.createLinearGradient(0, 0, W, H);
  paper.addColorStop(0, palette.paper[0]!);
  paper.addColorStop(0.5, palette.paper[1]!);
  paper.addColorStop(1, palette.paper[2]!);
  ctx.fillStyle = paper;
  ctx.fillRect(0, 0, W, H);
  for (const b of spec.backgrounds) if (b !== 'ghost') drawBackground(ctx, b, W, H, r, palette, h.issuing);

  const valueFont = pick(r, spec.valueFonts);
  const labelFont = pick(r, spec.labelFonts);
  const card = spec.kind !== 'td3';
  const margin = (card ? 3.2 : 5) * u;
  // The MRZ: OCR-B at the ICAO pitch of 2.54 mm a character, lines about 4.2 mm apart (3.6 on a TD1).
  const lines = generatedMrz(h, spec.kind);
  const pitch = 2.54 * u;
  const lineGap = (spec.kind === 'td1' ? 3.7 : 4.3) * u;
  const mrzBottom = H - (card ? 2.6 : 4.5) * u;
  const mrzTop = mrzBottom - lines.length * lineGap;

  // Header: the state, the document's title in the layout's languages.
  const kindWord = spec.kind === 'td3' ? 'passport' : 'card';
  const headSize = (card ? 3.0 : 3.8) * u;
  ctx.fillStyle = palette.head;
  ctx.font = `${headSize}px "${valueFont}"`;
  const state = STATES[h.issuing]!;
  ctx.fillText(`${state.local === state.english ? state.local : `${state.local}`}`, margin, margin + headSize * 0.9);
  ctx.font = `${headSize * 0.62}px "${labelFont}"`;
  const title = [...new Set(spec.langs.map((l) => TITLES[kindWord][l]))].join(' / ');
  ctx.fillText(title, margin, margin + headSize * 1.9);
  const top = margin + headSize * 2.5;

  // Portrait: 35 × 45 mm on a passport, about 22 × 28 mm on a card.
  const ph = Math.min(mrzTop - top - 3 * u, (card ? 30 : 45) * u);
  const pw = ph * 0.78;
  const px = spec.portrait === 'left' ? margin : W - margin - pw;
  const py = top + 1 * u;
  ctx.drawImage(await loadImage(await portraitOf(h, r, pw, ph)), px, py, pw, ph);
  ctx.strokeStyle = palette.label;
  ctx.lineWidth = 0.2 * u;
  ctx.strokeRect(px, py, pw, ph);
  if (spec.backgrounds.includes('ghost')) {
    // A faint copy of the portrait elsewhere on the page (a watermark-like ghost image).
    const gw = pw * 0.45;
    const gh = ph * 0.45;
    const gx = spec.portrait === 'left' ? W - margin - gw : margin + pw + 4 * u;
    const gy = Math.max(top, mrzTop - gh - 2 * u);
    ctx.globalAlpha = 0.45;
    ctx.drawImage(await loadImage(await portraitOf(h, r, gw, gh, true)), spec.portrait === 'left' ? gx : W - margin - pw - gw - 3 * u, gy, gw, gh);
    ctx.globalAlpha = 1;
  }

  // Fields, in rows: a wide field takes a row; narrow ones share it when there are two columns.
  const fx0 = spec.portrait === 'left' ? px + pw + 4 * u : margin;
  const fx1 = spec.portrait === 'left' ? W - margin : px - 4 * u;
  const rows: FieldKey[][] = [];
  for (const key of spec.fields) {
    const last = rows.at(-1);
    if (spec.columns === 2 && !WIDE.has(key) && last && last.length === 1 && !WIDE.has(last[0]!)) last.push(key);
    else rows.push([key]);
  }
  const avail = mrzTop - 2 * u - top;
  const rowH = Math.min((card ? 8.2 : 10) * u, avail / rows.length);
  const labelSize = rowH * (spec.labels === 'above' ? 0.27 : 0.34) * between(r, 0.92, 1.05);
  const valueSize = rowH * (spec.labels === 'above' ? 0.4 : 0.46) * between(r, 0.92, 1.04);
  const colW = (fx1 - fx0) / spec.columns;
  ctx.font = `${labelSize}px "${labelFont}"`;
  const labelW = spec.labels === 'beside' ? Math.max(...spec.fields.map((k) => ctx.measureText(labelOf(k, spec)).width)) + 2 * u : 0;
  rows.forEach((row, ri) => {
    row.forEach((key, ci) => {
      const x = fx0 + ci * colW;
      const y = top + ri * rowH;
      const number = spec.numbered ? `${spec.fields.indexOf(key) + 1}. ` : '';
      ctx.fillStyle = palette.label;
      ctx.font = `${labelSize}px "${labelFont}"`;
      const label = number + labelOf(key, spec);
      const value = valueOf(key, h, spec);
      if (spec.labels === 'above') {
        ctx.fillText(label, x, y + labelSize, colW * (ci === row.length - 1 ? spec.columns - ci : 1) - 1.5 * u);
        ctx.fillStyle = palette.ink;
        ctx.font = `${valueSize}px "${valueFont}"`;
        ctx.fillText(value, x, y + labelSize + valueSize * 1.15, colW * row.length - 1 * u);
      } else {
        ctx.fillText(label, x, y + valueSize * 0.9, labelW - 1.5 * u);
        ctx.fillStyle = palette.ink;
        ctx.font = `${valueSize}px "${valueFont}"`;
        ctx.fillText(value, x + labelW, y + valueSize * 0.9, fx1 - x - labelW);
      }
    });
  });

  // A signature: a few strokes over the bottom of the field area.
  ctx.strokeStyle = 'rgba(20,30,90,0.75)';
  ctx.lineWidth = 0.35 * u;
  ctx.beginPath();
  const sx = spec.portrait === 'left' ? px + pw * 0.1 : px + pw * 0.1;
  const sy = Math.min(mrzTop - 3 * u, py + ph + 3 * u);
  ctx.moveTo(sx, sy);
  for (let i = 0; i < 5; i++) ctx.bezierCurveTo(sx + (i + 0.3) * 3 * u, sy - between(r, 1, 3) * u, sx + (i + 0.6) * 3 * u, sy + between(r, 0, 2) * u, sx + (i + 1) * 3 * u, sy - between(r, 0, 1) * u);
  ctx.stroke();

  // The zone: a lighter band, then OCR-B at a fixed pitch.
  ctx.fillStyle = 'rgba(255,255,255,0.6)';
  ctx.fillRect(0, mrzTop - 1.6 * u, W, H - mrzTop + 1.6 * u);
  ctx.fillStyle = '#101010';
  ctx.font = `${pitch * 1.58}px "OCR-B"`;
  const mrzLeft = (W - lines[0]!.length * pitch) / 2;
  lines.forEach((line, li) => {
    const y = mrzTop + (li + 1) * lineGap - 0.6 * u;
    [...line].forEach((c, ci) => ctx.fillText(c, mrzLeft + ci * pitch, y));
  });
  return { png: canvas.toBuffer('image/png'), width: W, height: H };
}

// ---------------------------------------------------------------------------------------------
// Photographs and scans

/**
 * `scan`: a flatbed scan; `photo`: a phone photo on a desk; `low`: a scan sent small, soft and
 * heavily compressed (420-640 px wide, blurred, JPEG quality 30-50: a messaging app's copy, a
 * thumbnail), where correct documents fail check digits because they are unreadable, not wrong.
 */
export type Condition = 'scan' | 'photo' | 'low';
export type Point = [number, number];

export interface Capture {
  /** JPEG bytes, as a client would send them. */
  bytes: Buffer;
  width: number;
  height: number;
  /** The page's corners in the capture: top left, top right, bottom right, bottom left. */
  corners: [Point, Point, Point, Point];
  /** What was done, for reports. */
  notes: string[];
}

/**
 * Maps the unit square onto a quadrilateral (Heckbert, "Fundamentals of texture mapping", 1989):
 * (u, v) → (x, y). Its inverse maps the capture's pixels back onto the page.
 */
function squareToQuad(q: [Point, Point, Point, Point]) {
  const [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = q;
  const dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2;
  const sx = x0 - x1 + x2 - x3, sy = y0 - y1 + y2 - y3;
  const den = dx1 * dy2 - dx2 * dy1;
  const g = (sx * dy2 - dx2 * sy) / den;
  const hh = (dx1 * sy - sx * dy1) / den;
  const a = x1 - x0 + g * x1, b = x3 - x0 + hh * x3, c = x0;
  const d = y1 - y0 + g * y1, e = y3 - y0 + hh * y3, f = y0;
  // The adjoint inverts the projective map (up to scale).
  const A = e - f * hh, B = c * hh - b, C = b * f - c * e;
  const D = f * g - d, E = a - c * g, F = c * d - a * f;
  const G = d * hh - e * g, Hh = b * g - a * hh, I = a * e - b * d;
  return (x: number, y: number): Point => {
    const w = G * x + Hh * y + I;
    return [(A * x + B * y + C) / w, (D * x + E * y + F) / w];
  };
}

/** A desk: wood, a cloth, or a cluttered table with papers and a pen (strong straight edges). */
export type Desk = 'wood' | 'cloth' | 'clutter' | 'dark';
function drawDesk(ctx: SKRSContext2D, W: number, H: number, r: Rand, chosen?: Desk): string {
  const drawn = pick(r, ['wood', 'cloth', 'clutter', 'dark'] as const);
  const kind = chosen ?? drawn;
  if (kind === 'wood') {
    ctx.fillStyle = pick(r, ['#8a6240', '#a07850', '#6e4b30']);
    ctx.fillRect(0, 0, W, H);
    for (let i = 0; i < 160; i++) {
      ctx.strokeStyle = `rgba(${r() < 0.5 ? '40,20,5' : '200,160,110'},${between(r, 0.05, 0.18).toFixed(2)})`;
      ctx.lineWidth = between(r, 1, 6);
      const y = r() * H;
      ctx.beginPath();
      ctx.moveTo(0, y);
      ctx.bezierCurveTo(W / 3, y + between(r, -30, 30), (2 * W) / 3, y + between(r, -30, 30), W, y + between(r, -20, 20));
      ctx.stroke();
    }
  } else if (kind === 'cloth') {
    ctx.fillStyle = pick(r, ['#3c5a78', '#6a3c48', '#4d6b4a', '#777777']);
    ctx.fillRect(0, 0, W, H);
    ctx.strokeStyle = 'rgba(255,255,255,0.08)';
    ctx.lineWidth = 2;
    const step = between(r, 14, 30);
    for (let x = 0; x < W; x += step) {
      ctx.beginPath();
      ctx.moveTo(x, 0);
      ctx.lineTo(x, H);
      ctx.stroke();
    }
    for (let y = 0; y < H; y += step) {
      ctx.beginPath();
      ctx.moveTo(0, y);
      ctx.lineTo(W, y);
      ctx.stroke();
    }
  } else {
    ctx.fillStyle = kind === 'dark' ? '#2a2c30' : pick(r, ['#b8b2a6', '#9aa0a8', '#c9c1b0']);
    ctx.fillRect(0, 0, W, H);
    if (kind === 'clutter') {
      // Other papers with lines of text, a pen, a keyboard's edge.
      for (let i = 0; i < 4; i++) {
        ctx.save();
        ctx.translate(r() * W, r() * H);
        ctx.rotate(between(r, -0.6, 0.6));
        const pw = between(r, 0.25, 0.5) * W;
        const ph = pw * 1.41;
        ctx.fillStyle = pick(r, ['#f4f4ef', '#fffdf4', '#e8eef4']);
        ctx.fillRect(-pw / 2, -ph / 2, pw, ph);
        ctx.fillStyle = 'rgba(30,30,30,0.55)';
        ctx.font = `${pw * 0.035}px "Gen Specimen Serif"`;
        for (let y = -ph / 2 + pw * 0.08; y < ph / 2; y += pw * 0.05) ctx.fillText('Lorem ipsum dolor sit amet consectetur adipiscing', -pw / 2 + pw * 0.08, y);
        ctx.restore();
      }
      ctx.save();
      ctx.translate(r() * W, r() * H);
      ctx.rotate(r() * Math.PI);
      ctx.fillStyle = '#1d3b8f';
      ctx.fillRect(0, 0, W * 0.3, H * 0.014);
      ctx.restore();
    }
  }
  return kind;
}

export interface PhotoOptions {
  /** Degrees; drawn from ±15 when not given. */
  rotation?: number;
  /** 0 = none, 0.15 = the far edge 15% shorter; drawn from 0.03-0.14 when not given. */
  tilt?: number;
  glare?: boolean;
  blur?: 'none' | 'defocus' | 'motion';
  desk?: Desk;
  /** Capture size; 2000 × 1500 when not given. */
  size?: [number, number];
}

/** A phone photograph of a page lying on a desk. */
export async function photograph(page: RenderedPage, seed: number, opts: PhotoOptions = {}): Promise<Capture> {
  const r = seeded(seed * 104729 + 3);
  const [W, H] = opts.size ?? [2000, 1500];
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  const notes = [`desk ${drawDesk(ctx, W, H, r, opts.desk)}`];

  const rotation = opts.rotation ?? between(r, -15, 15);
  const tilt = opts.tilt ?? between(r, 0.03, 0.14);
  const aspect = page.width / page.height;
  // The page's long side across most of the frame's long side (a page turned a quarter in a tall frame too).
  const docW = Math.max(W, H) * between(r, 0.55, 0.78);
  const docH = docW / aspect;
  const cx = W / 2 + between(r, -0.08, 0.08) * W;
  const cy = H / 2 + between(r, -0.06, 0.06) * H;
  // Tilt: one edge (top, bottom, left or right) further from the camera, so shorter.
  const edge = Math.floor(r() * 4);
  const s = tilt / 2;
  const base: Point[] = [[-docW / 2, -docH / 2], [docW / 2, -docH / 2], [docW / 2, docH / 2], [-docW / 2, docH / 2]];
  const shrunk = base.map(([x, y], i): Point => {
    const far = edge === 0 ? i < 2 : edge === 1 ? i === 1 || i === 2 : edge === 2 ? i >= 2 : i === 0 || i === 3;
    if (!far) return [x, y];
    return edge % 2 === 0 ? [x * (1 - 2 * s), y * (1 - s)] : [x * (1 - s), y * (1 - 2 * s)];
  });
  const rad = (rotation * Math.PI) / 180;
  const corners = shrunk.map(([x, y]): Point => [
    cx + x * Math.cos(rad) - y * Math.sin(rad) + between(r, -0.006, 0.006) * W,
    cy + x * Math.sin(rad) + y * Math.cos(rad) + between(r, -0.006, 0.006) * W,
  ]) as [Point, Point, Point, Point];
  notes.push(`rotation ${rotation.toFixed(1)}°`, `tilt ${(tilt * 100).toFixed(0)}%`);

  // The page's shadow on the desk.
  ctx.save();
  ctx.shadowColor = 'rgba(0,0,0,0.45)';
  ctx.shadowBlur = W * 0.012;
  ctx.shadowOffsetX = W * 0.004;
  ctx.shadowOffsetY = W * 0.006;
  ctx.fillStyle = '#777';
  ctx.beginPath();
  corners.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
  ctx.closePath();
  ctx.fill();
  ctx.restore();

  const out = ctx.getImageData(0, 0, W, H);
  const dst = out.data;
  const src = (await sharp(page.png).ensureAlpha().raw().toBuffer({ resolveWithObject: true }));
  const sw = src.info.width;
  const sh = src.info.height;
  const sd = src.data;
  // Pixel → page: the inverse of page → pixel (square → quad, with the square scaled to the page).
  const toPage = squareToQuad(corners);
  const xs = corners.map(([x]) => x);
  const ys = corners.map(([, y]) => y);
  const x0 = Math.max(0, Math.floor(Math.min(...xs)));
  const x1 = Math.min(W - 1, Math.ceil(Math.max(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const y1 = Math.min(H - 1, Math.ceil(Math.max(...ys)));
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const [u, v] = toPage(x + 0.5, y + 0.5);
      if (u < 0 || u > 1 || v < 0 || v > 1) continue;
      const fx = Math.min(sw - 1.001, Math.max(0, u * sw - 0.5));
      const fy = Math.min(sh - 1.001, Math.max(0, v * sh - 0.5));
      const ix = Math.floor(fx);
      const iy = Math.floor(fy);
      const ax = fx - ix;
      const ay = fy - iy;
      const k = (y * W + x) * 4;
      for (let c = 0; c < 3; c++) {
        const p00 = sd[(iy * sw + ix) * 4 + c]!;
        const p10 = sd[(iy * sw + ix + 1) * 4 + c]!;
        const p01 = sd[((iy + 1) * sw + ix) * 4 + c]!;
        const p11 = sd[((iy + 1) * sw + ix + 1) * 4 + c]!;
        dst[k + c] = (p00 * (1 - ax) + p10 * ax) * (1 - ay) + (p01 * (1 - ax) + p11 * ax) * ay;
      }
    }
  }

  // Light: uneven (a lamp to one side), a warm or cool cast, and a glare spot over the page.
  const lx = r() * W;
  const ly = r() * H;
  const fall = between(r, 0.25, 0.5);
  const cast = [between(r, 0.94, 1.06), between(r, 0.96, 1.03), between(r, 0.92, 1.06)];
  const glare = opts.glare ?? r() < 0.75;
  const gx = between(r, 0.2, 0.8);
  const gy = between(r, 0.2, 0.85);
  const [gcx, gcy] = (() => {
    // A point on the page (bilinear between its corners).
    const top: Point = [corners[0][0] + (corners[1][0] - corners[0][0]) * gx, corners[0][1] + (corners[1][1] - corners[0][1]) * gx];
    const bot: Point = [corners[3][0] + (corners[2][0] - corners[3][0]) * gx, corners[3][1] + (corners[2][1] - corners[3][1]) * gx];
    return [top[0] + (bot[0] - top[0]) * gy, top[1] + (bot[1] - top[1]) * gy];
  })();
  const gr = docW * between(r, 0.05, 0.12);
  const gPeak = between(r, 0.75, 1.2);
  if (glare) notes.push('glare');
  const noise = between(r, 2.5, 7);
  const diag = Math.hypot(W, H);
  const gauss = () => {
    // Box-Muller from the seeded stream.
    const a = Math.max(1e-9, r());
    return Math.sqrt(-2 * Math.log(a)) * Math.cos(2 * Math.PI * r());
  };
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const k = (y * W + x) * 4;
      const light = 1.08 - fall * (Math.hypot(x - lx, y - ly) / diag);
      const g = glare ? gPeak * Math.exp(-((x - gcx) ** 2 + (y - gcy) ** 2) / (2 * gr * gr)) : 0;
      const n = noise * gauss();
      for (let c = 0; c < 3; c++) {
        const v = dst[k + c]! * light * cast[c]!;
        // A glare spot leaves a trace of the print at its heart (a laminate reflects, it does not erase).
        dst[k + c] = Math.max(0, Math.min(255, v + (255 - v) * Math.min(0.93, g) + n));
      }
    }
  }
  notes.push(`noise σ${noise.toFixed(1)}`);
  let img = sharp(Buffer.from(dst.buffer, dst.byteOffset, dst.length), { raw: { width: W, height: H, channels: 4 } }).removeAlpha();
  const blur = opts.blur ?? pick(r, ['defocus', 'motion', 'defocus', 'none'] as const);
  if (blur === 'defocus') {
    const sigma = between(r, 0.6, 1.5);
    img = sharp(await img.blur(sigma).raw().toBuffer(), { raw: { width: W, height: H, channels: 3 } });
    notes.push(`defocus σ${sigma.toFixed(1)}`);
  } else if (blur === 'motion') {
    const len = 3 + Math.floor(r() * 5);
    const kernel = Array.from({ length: len * len }, (_, i) => (Math.floor(i / len) === Math.floor(len / 2) ? 1 / len : 0));
    img = sharp(await img.convolve({ width: len, height: len, kernel }).raw().toBuffer(), { raw: { width: W, height: H, channels: 3 } });
    notes.push(`motion ${len}px`);
  }
  const quality = Math.round(between(r, 62, 88));
  notes.push(`jpeg q${quality}`);
  return { bytes: await img.jpeg({ quality }).toBuffer(), width: W, height: H, corners, notes };
}

/** A capture made small, soft and heavily compressed (`low`); its corners scaled with it. */
async function lowQuality(c: Capture, seed: number): Promise<Capture> {
  const r = seeded(seed * 65537 + 23);
  const width = Math.round(between(r, 420, 640));
  const sigma = between(r, 0.8, 2);
  const quality = Math.round(between(r, 30, 50));
  const bytes = await sharp(c.bytes).resize({ width }).blur(sigma).jpeg({ quality }).toBuffer();
  const meta = await sharp(bytes).metadata();
  const k = meta.width! / c.width;
  const corners = c.corners.map(([x, y]): Point => [x * k, y * k]) as Capture['corners'];
  return { bytes, width: meta.width!, height: meta.height!, corners, notes: [...c.notes, `${width} px`, `blur σ${sigma.toFixed(1)}`, `jpeg q${quality}`] };
}

/** A flatbed scan: the page alone, at most 1.5° askew, a little softness, JPEG. */
export async function scan(page: RenderedPage, seed: number): Promise<Capture> {
  const r = seeded(seed * 65537 + 11);
  const angle = between(r, -1.5, 1.5);
  const quality = Math.round(between(r, 78, 92));
  let img = sharp(page.png).rotate(angle, { background: '#fbfbf8' });
  const sigma = between(r, 0.3, 0.8);
  img = sharp(await img.blur(sigma).png().toBuffer());
  const bytes = await img.jpeg({ quality }).toBuffer();
  const meta = await sharp(bytes).metadata();
  const [w, hh] = [page.width, page.height];
  const rad = (angle * Math.PI) / 180;
  const [cxs, cys] = [meta.width! / 2, meta.height! / 2];
  const corners = ([[-w / 2, -hh / 2], [w / 2, -hh / 2], [w / 2, hh / 2], [-w / 2, hh / 2]] as Point[]).map(([x, y]): Point => [
    cxs + x * Math.cos(rad) - y * Math.sin(rad), cys + x * Math.sin(rad) + y * Math.cos(rad),
  ]) as [Point, Point, Point, Point];
  return { bytes, width: meta.width!, height: meta.height!, corners, notes: [`scan ${angle.toFixed(1)}°`, `blur σ${sigma.toFixed(1)}`, `jpeg q${quality}`] };
}

export interface GeneratedCase {
  family: LayoutFamily;
  kind: DocKind;
  condition: Condition;
  holder: GenHolder;
  expected: ExpectedData;
  capture: Capture;
  seed: number;
}

/** One document of a family under a condition, all from the seed. */
export async function generateCase(family: LayoutFamily, condition: Condition, seed: number, opts: { forged?: boolean } = {}): Promise<GeneratedCase> {
  const kind = kindOf(family);
  const genuine = generateHolder(seeded(seed));
  const holder = opts.forged ? forge(genuine, seeded(seed + 53), kind) : genuine;
  const r = seeded(seed + 101);
  // A phone page is rendered finer (a 12 MP camera sees a card at 14-18 px/mm); a scan at 250-300 dpi.
  const pxPerMm = condition === 'photo' ? (kind === 'td3' ? 13 : 18) : between(r, 9.5, 11.8);
  const page = await renderPage(family, holder, seed, pxPerMm);
  const capture = condition === 'photo' ? await photograph(page, seed) : condition === 'low' ? await lowQuality(await scan(page, seed), seed) : await scan(page, seed);
  return { family, kind, condition, holder, expected: expectedData(holder, kind), capture, seed };
}
