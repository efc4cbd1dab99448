// A customer's CSV as spreadsheets save it, before any cell is read: which encoding its bytes are
// in, its text, and the delimiter between its cells. Excel writes four kinds of text file:
//   "CSV UTF-8"            UTF-8 with a byte order mark (EF BB BF)
//   "CSV (Comma delimited)" the Windows "ANSI" code page: Windows-1252 in Western Europe and the
//                           Americas; a letter it has no byte for (ł, Ș, Cyrillic) is saved as "?";
//                           the delimiter is ";" where the decimal separator is a comma
//   "Unicode Text"         UTF-16 little-endian with a byte order mark, cells separated by tabs
//   (and other tools: UTF-8 without a mark, UTF-16 without a mark)
// A file that is not valid UTF-8 is read as Windows-1252, which for printable text is a superset of
// Latin-1 (ISO-8859-1): it only adds letters and signs (€ ‘ ’ “ ” Š Œ Ž š œ ž Ÿ …) where Latin-1 has
// control codes. That reading is a guess, and the caller lets the person choose another.
// Pure: runs in the console (its CSV worker, the list dialog) and the service alike.

export type TextEncodingName = 'utf-8' | 'windows-1252' | 'utf-16le' | 'utf-16be';

export const TEXT_ENCODINGS: readonly TextEncodingName[] = ['utf-8', 'windows-1252', 'utf-16le', 'utf-16be'];

export const ENCODING_LABEL: Record<TextEncodingName, string> = {
  'utf-8': 'UTF-8',
  'windows-1252': 'Windows-1252',
  'utf-16le': 'UTF-16 LE',
  'utf-16be': 'UTF-16 BE',
};

/**
 * How the encoding was told: a byte order mark; the pattern of zero bytes UTF-16 leaves in mostly
 * Latin text; valid UTF-8 with letters beyond ASCII; plain ASCII (every reading agrees); bytes that
 * are not UTF-8; or no bytes at all.
 */
export type EncodingEvidence = 'bom' | 'nul_pattern' | 'valid_utf8' | 'ascii' | 'not_utf8' | 'empty';

export interface EncodingGuess {
  encoding: TextEncodingName;
  evidence: EncodingEvidence;
  /** The bytes could as well be read another way: the person is shown a choice. */
  guessed: boolean;
}

/** Windows-1252's bytes 0x80-0x9F (the rest are Latin-1's); U+FFFD where the code page has no character. */
const CP1252_HIGH = [
  0x20ac, 0xfffd, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0xfffd, 0x017d, 0xfffd,
  0xfffd, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0xfffd, 0x017e, 0x0178,
];

/** The zero bytes of the first 64 KiB, by position: UTF-16 LE puts them after ASCII letters, BE before. */
const NUL_SAMPLE = 64 * 1024;

function nulPattern(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.length, NUL_SAMPLE) & ~1;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) even++;
    if (bytes[i + 1] === 0) odd++;
  }
  // Text files in UTF-8 or a code page hold no zero bytes; UTF-16 holds one per ASCII character
  // (digits, delimiters and line ends at least, in a file of any script).
  const pairs = n / 2;
  if (odd > 0 && odd >= pairs / 10 && even * 10 <= odd) return 'utf-16le';
  if (even > 0 && even >= pairs / 10 && odd * 10 <= even) return 'utf-16be';
  return null;
}

function bomOf(bytes: Uint8Array): TextEncodingName | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

const isAscii = (bytes: Uint8Array) => bytes.every((b) => b < 0x80);

/** The strict reading as UTF-8, or null when the bytes are not UTF-8. */
function strictUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Which encoding the bytes are in, and how sure that is. */
export function detectEncoding(bytes: Uint8Array): EncodingGuess {
  return readDetected(bytes).guess;
}

function readDetected(bytes: Uint8Array): { guess: EncodingGuess; text: string | null } {
  if (bytes.length === 0) return { guess: { encoding: 'utf-8', evidence: 'empty', guessed: false }, text: '' };
  const bom = bomOf(bytes);
  if (bom) return { guess: { encoding: bom, evidence: 'bom', guessed: false }, text: null };
  const utf16 = nulPattern(bytes);
  if (utf16) return { guess: { encoding: utf16, evidence: 'nul_pattern', guessed: true }, text: null };
  const utf8 = strictUtf8(bytes);
  if (utf8 !== null) return { guess: { encoding: 'utf-8', evidence: isAscii(bytes) ? 'ascii' : 'valid_utf8', guessed: false }, text: utf8 };
  return { guess: { encoding: 'windows-1252', evidence: 'not_utf8', guessed: true }, text: null };
}

function windows1252(bytes: Uint8Array): string {
  const parts: string[] = [];
  const units = new Uint16Array(Math.min(bytes.length, 0x2000));
  for (let start = 0; start < bytes.length; start += units.length) {
    const end = Math.min(bytes.length, start + units.length);
    for (let i = start; i < end; i++) {
      const b = bytes[i]!;
      units[i - start] = b >= 0x80 && b < 0xa0 ? CP1252_HIGH[b - 0x80]! : b;
    }
    parts.push(String.fromCharCode(...units.subarray(0, end - start)));
  }
  return parts.join('');
}

/**
 * The text of the bytes read in one encoding, its byte order mark left out. Bytes that are not
 * that encoding become U+FFFD (never dropped), so a wrong choice shows in the text.
 */
export function decodeText(bytes: Uint8Array, encoding: TextEncodingName): string {
  if (encoding === 'windows-1252') return windows1252(bytes);
  // TextDecoder takes a leading mark of its own encoding off (ignoreBOM is false).
  return new TextDecoder(encoding).decode(bytes);
}

export interface TextFile {
  text: string;
  /** The encoding the text was read in: the detected one unless another was chosen. */
  encoding: TextEncodingName;
  detected: EncodingGuess;
}

/** Detects the encoding and reads the text in it, or in `chosen` when the person chose another. */
export function readTextFile(bytes: Uint8Array, chosen?: TextEncodingName | null): TextFile {
  const { guess, text } = readDetected(bytes);
  const encoding = chosen ?? guess.encoding;
  return { text: text !== null && encoding === guess.encoding ? text : decodeText(bytes, encoding), encoding, detected: guess };
}

/**
 * A name with a letter that did not survive: U+FFFD where bytes were not the encoding they were
 * read in, or "?" where a program saving in a code page had no byte for it (Excel's "CSV (Comma
 * delimited)" writes Łukasz as ?ukasz). No one's name holds either.
 */
export function hasLostLetter(name: string): boolean {
  return /[\uFFFD?]/.test(name);
}

/** A spreadsheet saved in its own format, not as text: "xlsx" (a zip) or "xls" (a compound file). */
export function workbookFormat(bytes: Uint8Array): 'xlsx' | 'xls' | null {
  const starts = (sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts([0x50, 0x4b, 0x03, 0x04])) return 'xlsx';
  if (starts([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'xls';
  return null;
}

export type Delimiter = ',' | ';' | '\t';

/**
 * The delimiter a file's header line uses: the one of comma, semicolon and tab it holds most of
 * (column names hold none of them); a comma when it holds none.
 */
export function headerDelimiter(text: string, allowed: readonly Delimiter[] = [',', ';', '\t']): Delimiter {
  const eol = text.indexOf('\n');
  const head = eol < 0 ? text : text.slice(0, eol);
  let best: Delimiter = allowed.includes(',') ? ',' : allowed[0]!;
  let most = 0;
  for (const d of allowed) {
    const count = head.split(d).length - 1;
    if (count > most) [best, most] = [d, count];
  }
  return best;
}
