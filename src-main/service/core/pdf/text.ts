// Text for the PDFs the service makes with pdf-lib's standard fonts (the KYC report, report
// exports): what Helvetica can print (WinAnsi, with any-ascii transliteration for the rest),
// wrapping and cutting to a width.
import anyAscii from 'any-ascii';
import type { PDFFont } from 'pdf-lib';

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/**
 * The characters of Windows-1252 above ASCII that are not Latin-1: with ASCII and Latin-1 these are
 * all the standard fonts' WinAnsi encoding can print.
 */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

function winAnsi(ch: string): boolean {
  const cp = ch.codePointAt(0) ?? 0;
  return (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || WIN_ANSI_EXTRA.has(ch);
}

/**
 * The text as Helvetica can print it: what WinAnsi encodes stays (José Müller keeps its accents),
 * other letters are transliterated by any-ascii (Łukasz → Lukasz, Владимир → Vladimir, 李小龍 →
 * LiXiaoLong), controls and line breaks become spaces, and whatever is still unprintable is dropped.
 */
export function printable(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    if (winAnsi(ch)) out += ch === '\u00ad' ? '' : ch === '\u00a0' ? ' ' : ch;
    else if (/[\p{Cc}\p{Zl}\p{Zp}\p{Zs}]/u.test(ch)) out += ' ';
    else for (const t of anyAscii(ch)) if (winAnsi(t)) out += t;
  }
  return out.replace(/ {2,}/g, ' ').trim();
}

/** Whether printing changed letters, not just spacing: the reader is then told it is a transliteration. */
export function transliterated(text: string): boolean {
  const squash = (s: string): string => s.replace(/\s+/g, '');
  return squash(printable(text)) !== squash(text.normalize('NFC').replace(/[\u00ad\p{Cc}]/gu, ''));
}

/** Splits text into lines no wider than `width`; a word longer than a line is broken inside. */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const fits = (s: string): boolean => font.widthOfTextAtSize(s, size) <= width;
  const lines: string[] = [];
  let line = '';
  for (let word of printable(text).split(' ')) {
    if (!word) continue;
    const joined = line ? `${line} ${word}` : word;
    if (fits(joined)) {
      line = joined;
      continue;
    }
    if (line) lines.push(line);
    while (!fits(word)) {
      let cut = 1;
      while (cut < word.length && fits(word.slice(0, cut + 1))) cut++;
      lines.push(word.slice(0, cut));
      word = word.slice(cut);
    }
    line = word;
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

/** The text cut to `width`, ending in "..." when something was cut. */
export function fit(text: string, font: PDFFont, size: number, width: number): string {
  let s = printable(text);
  if (font.widthOfTextAtSize(s, size) <= width) return s;
  while (s && font.widthOfTextAtSize(`${s}...`, size) > width) s = s.slice(0, -1);
  return `${s.trimEnd()}...`;
}

