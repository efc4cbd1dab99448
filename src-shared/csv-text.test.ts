// Reading a customer's file as Excel saves it, over the bytes each kind of file really holds.
// Letters used: é ß ø (in Windows-1252 and Latin-1), ł and Ș (in neither: Excel's "CSV (Comma
// delimited)" writes them as "?"), and from Windows-1252's 0x80-0x9F, where Latin-1 has control
// codes: € (0x80), ’ (0x92), “ (0x93), ” (0x94).
import { describe, expect, it } from 'vitest';
import { decodeText, detectEncoding, hasLostLetter, headerDelimiter, readTextFile, workbookFormat } from './csv-text';

const bytes = (...parts: (number[] | string)[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

// The same line, "René;Strauß;Søren", as each kind of file holds it.
const UTF8_LINE = bytes('Ren', [0xc3, 0xa9], ';Strau', [0xc3, 0x9f], ';S', [0xc3, 0xb8], 'ren');
const CP1252_LINE = bytes('Ren', [0xe9], ';Strau', [0xdf], ';S', [0xf8], 'ren');

/** UTF-16 LE as Excel's "Unicode Text" writes it: two bytes per code unit, low byte first. */
function utf16le(text: string, bom = true): Uint8Array {
  const out = bom ? [0xff, 0xfe] : [];
  for (let i = 0; i < text.length; i++) out.push(text.charCodeAt(i) & 0xff, text.charCodeAt(i) >> 8);
  return Uint8Array.from(out);
}

describe('detectEncoding', () => {
  it('takes a byte order mark at its word: UTF-8, UTF-16 LE, UTF-16 BE', () => {
    expect(detectEncoding(bytes([0xef, 0xbb, 0xbf], 'name'))).toEqual({ encoding: 'utf-8', evidence: 'bom', guessed: false });
    expect(detectEncoding(bytes([0xff, 0xfe], 'n', [0], 'a', [0]))).toEqual({ encoding: 'utf-16le', evidence: 'bom', guessed: false });
    expect(detectEncoding(bytes([0xfe, 0xff], [0], 'n', [0], 'a'))).toEqual({ encoding: 'utf-16be', evidence: 'bom', guessed: false });
  });

  it('knows UTF-16 without a mark by its zero bytes (a guess)', () => {
    expect(detectEncoding(utf16le('first_name\tlast_name\r\nSøren\tŁukasz\r\n', false))).toEqual({ encoding: 'utf-16le', evidence: 'nul_pattern', guessed: true });
    const be = bytes([0, 0x6e, 0, 0x61, 0, 0x6d, 0, 0x65, 0x01, 0x41, 0, 0x0a]); // "name" Ł \n
    expect(detectEncoding(be)).toEqual({ encoding: 'utf-16be', evidence: 'nul_pattern', guessed: true });
    // Even a file of names in another script has its delimiters, digits and line ends as ASCII.
    expect(detectEncoding(utf16le('имя,дата\r\nИван,1980-01-02\r\nПётр,1975-05-06\r\n', false)).encoding).toBe('utf-16le');
  });

  it('reads valid UTF-8 as UTF-8, and plain ASCII as what every reading agrees on', () => {
    expect(detectEncoding(UTF8_LINE)).toEqual({ encoding: 'utf-8', evidence: 'valid_utf8', guessed: false });
    expect(detectEncoding(bytes('first_name,last_name\r\nMaren,Holloway\r\n'))).toEqual({ encoding: 'utf-8', evidence: 'ascii', guessed: false });
    expect(detectEncoding(new Uint8Array())).toEqual({ encoding: 'utf-8', evidence: 'empty', guessed: false });
  });

  it('reads bytes that are not UTF-8 as Windows-1252, and says it guessed', () => {
    expect(detectEncoding(CP1252_LINE)).toEqual({ encoding: 'windows-1252', evidence: 'not_utf8', guessed: true });
    // One bad byte deep in a large file is enough: the whole file is checked, not a sample.
    const late = new Uint8Array(300_000).fill(0x61);
    late[299_990] = 0xe9;
    expect(detectEncoding(late).encoding).toBe('windows-1252');
    // A UTF-8 sequence cut short, a lone continuation byte, an overlong form: all not UTF-8.
    for (const b of [bytes('Ren', [0xc3]), bytes([0x80], 'abc'), bytes([0xc0, 0xaf])]) expect(detectEncoding(b).evidence).toBe('not_utf8');
  });

  it('cannot tell Windows-1252 text that happens to be valid UTF-8 (Ã© is é in UTF-8): it is read as UTF-8', () => {
    expect(detectEncoding(bytes([0xc3, 0xa9]))).toMatchObject({ encoding: 'utf-8', guessed: false });
  });
});

describe('decodeText', () => {
  it('reads Windows-1252 with its own 0x80-0x9F, not Latin-1 control codes', () => {
    expect(decodeText(CP1252_LINE, 'windows-1252')).toBe('René;Strauß;Søren');
    expect(decodeText(bytes([0x80], ' 12', [0x92], 's ', [0x93], 'Ren', [0xe9], [0x94]), 'windows-1252')).toBe('€ 12’s “René”');
    expect(decodeText(bytes([0x8a, 0x8c, 0x8e, 0x9a, 0x9c, 0x9e, 0x9f, 0x85, 0x96, 0x97]), 'windows-1252')).toBe('ŠŒŽšœžŸ…–—');
    // Latin-1's printable half is the same in Windows-1252.
    const latin1 = Uint8Array.from({ length: 96 }, (_, i) => 0xa0 + i);
    expect(decodeText(latin1, 'windows-1252')).toBe(String.fromCharCode(...Array.from({ length: 96 }, (_, i) => 0xa0 + i)));
  });

  it('makes the five bytes Windows-1252 leaves undefined U+FFFD, so they are seen', () => {
    expect(decodeText(bytes([0x81, 0x8d, 0x8f, 0x90, 0x9d]), 'windows-1252')).toBe('\uFFFD'.repeat(5));
  });

  it('reads ł and Ș from UTF-8 and UTF-16; Windows-1252 has no byte for them', () => {
    expect(decodeText(bytes([0xc5, 0x82], 'ukasz ', [0xc8, 0x98], 'tefan'), 'utf-8')).toBe('łukasz Ștefan');
    expect(decodeText(utf16le('łukasz Ștefan'), 'utf-16le')).toBe('łukasz Ștefan');
    expect(decodeText(bytes([0x01, 0x42, 0x02, 0x18]), 'utf-16be')).toBe('łȘ');
    // No byte of Windows-1252 decodes to either.
    const all = decodeText(Uint8Array.from({ length: 256 }, (_, i) => i), 'windows-1252');
    expect(all).not.toContain('ł');
    expect(all).not.toContain('Ș');
  });

  it('leaves the byte order mark out, and shows bytes of another encoding as U+FFFD', () => {
    expect(decodeText(bytes([0xef, 0xbb, 0xbf], 'name'), 'utf-8')).toBe('name');
    expect(decodeText(utf16le('name'), 'utf-16le')).toBe('name');
    expect(decodeText(CP1252_LINE, 'utf-8')).toBe('Ren\uFFFD;Strau\uFFFD;S\uFFFDren');
  });
});

describe('readTextFile', () => {
  it('reads an Excel "Unicode Text" file: UTF-16 LE with its mark, cells separated by tabs', () => {
    const file = utf16le('first_name\tlast_name\tdate_of_birth\r\nSøren\tŁukaszewicz\t31/12/1984\r\n"Ana, Maria"\tȘtefănescu\t05/03/1979\r\n');
    expect([...file.subarray(0, 6)]).toEqual([0xff, 0xfe, 0x66, 0x00, 0x69, 0x00]);
    const read = readTextFile(file);
    expect(read.encoding).toBe('utf-16le');
    expect(read.text.split('\r\n')[1]).toBe('Søren\tŁukaszewicz\t31/12/1984');
    expect(headerDelimiter(read.text)).toBe('\t');
  });

  it('reads an Excel "CSV (Comma delimited)" file as Windows-1252; read as UTF-8 instead, its letters are lost and seen', () => {
    const file = bytes('first_name;last_name\r\n', [...CP1252_LINE.subarray(0, 11)], '\r\nMa', [0xeb], 'lle;D', [0x92], 'Arcy\r\n');
    const read = readTextFile(file);
    expect(read).toMatchObject({ encoding: 'windows-1252', detected: { encoding: 'windows-1252', guessed: true } });
    expect(read.text).toBe('first_name;last_name\r\nRené;Strauß\r\nMaëlle;D’Arcy\r\n');
    expect(headerDelimiter(read.text)).toBe(';');
    const asUtf8 = readTextFile(file, 'utf-8');
    expect(asUtf8.encoding).toBe('utf-8');
    expect(asUtf8.detected.encoding).toBe('windows-1252');
    expect(hasLostLetter(asUtf8.text.split('\r\n')[1]!)).toBe(true);
  });

  it('reads an Excel "CSV UTF-8" file with its mark', () => {
    const read = readTextFile(bytes([0xef, 0xbb, 0xbf], 'first_name,last_name\r\n', [0xc5, 0x81], 'ukasz,', [0xc8, 0x98], 'erban\r\n'));
    expect(read.text).toBe('first_name,last_name\r\nŁukasz,Șerban\r\n');
    expect(read.detected).toEqual({ encoding: 'utf-8', evidence: 'bom', guessed: false });
  });
});

describe('what a file lost', () => {
  it('flags U+FFFD and the "?" Excel writes for a letter its code page lacks', () => {
    expect(hasLostLetter('Ren\uFFFD')).toBe(true);
    expect(hasLostLetter('?ukasz')).toBe(true);
    for (const n of ['René', 'Łukasz', 'Ștefan', 'D’Arcy', "O'Brien", 'Anne-Marie']) expect(hasLostLetter(n), n).toBe(false);
  });

  it('knows a workbook saved as .xlsx or .xls, which is not text', () => {
    expect(workbookFormat(bytes('PK', [3, 4, 20, 0]))).toBe('xlsx');
    expect(workbookFormat(bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0]))).toBe('xls');
    expect(workbookFormat(bytes('first_name,last_name'))).toBeNull();
  });
});

describe('headerDelimiter', () => {
  it('takes the delimiter the header line holds most of, a comma when it holds none', () => {
    expect(headerDelimiter('first_name,last_name,date_of_birth\r\nA;B,C,D')).toBe(',');
    expect(headerDelimiter('first_name;last_name;date_of_birth\r\nA,B;C;D')).toBe(';');
    expect(headerDelimiter('first_name\tlast_name\r\n')).toBe('\t');
    expect(headerDelimiter('name\nA,B')).toBe(',');
    expect(headerDelimiter('kind;name', [',', '\t'])).toBe(',');
  });
});
