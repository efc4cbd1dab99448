// The KYC screening report: one verification's screening signals and identity checks as
// an A4 PDF a compliance officer can hand to an auditor, and optional AES-256 password encryption.
// Everything happens in memory: no file, no temp file, no log line ever holds subject data. The
// report carries no images and no raw biometric data (no face descriptors): what the document said,
// the checks' results with the face match's similarity against its threshold, and what the
// screening found.
//
// Encryption runs qpdf compiled to WebAssembly (@neslinesli93/qpdf-wasm) on its in-memory file
// system. Checked against 0.3.0 (qpdf 12.2.0): loading it installs no process handlers
// (uncaughtException, unhandledRejection, exit and signals are untouched) and never calls
// process.exit, but every run of qpdf's main sets process.exitCode to qpdf's exit status, so
// runQpdf puts the previous value back. main can be run again and again on one instance; the
// instance is loaded once, on first use, and runs are queued one at a time because they share the
// instance's file system.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { PDFDocument, type PDFPage, type RGB, StandardFonts, rgb } from 'pdf-lib';
import { fit, printable, transliterated, wrap, type Fonts } from '../pdf/text';
import { isoDateText, utcInstantText as instant } from '../../../../src-shared/dates';
import type { ListVersion } from '../../../../src-shared/contracts/screening';

export { printable };

/**
 * A list as the report names it: its version exactly as the screening answered it (whatever
 * ListVersion carries, so fields added there arrive here), and the title readers know it by.
 */
export type ReportList = ListVersion & { title: string };

/** One identity check as the report names it; `detail` carries measured values a reader needs with a failure. */
export interface ReportCheck {
  name: string;
  result: 'pass' | 'fail' | 'not_checked';
  detail?: string | undefined;
}

/** Who made something: an API key (its name and public prefix, never the key or secret) or a signed-in analyst. */
export type ReportActor =
  | { kind: 'api_key'; name: string; prefix: string }
  | { kind: 'analyst'; email: string }
  /** A hosted verification link made in the console, without a key (no analyst is signed in on the subject's phone). */
  | { kind: 'hosted_link' };

export interface KycReportInput {
  verificationId: string;
  environment: 'test' | 'live';
  /** The customer organisation's name. */
  organisation: string;
  /** ISO 8601: when the verification ran. */
  verifiedAt: string;
  /** ISO 8601: when this report was made; also the PDF's creation date. */
  generatedAt: string;
  /** Who ran the verification, and who asked for this report. */
  verifiedBy: ReportActor;
  generatedBy: ReportActor;
  /** As read from the identity document. dateOfBirth is YYYY-MM-DD, nationality ISO alpha-3. */
  subject: { name: string; dateOfBirth: string | null; nationality: string | null };
  screening: {
    status: 'Cleared' | 'Potential Match';
    totalHits: number;
    /** ISO 8601. */
    screenedAt: string;
    listsChecked: ReportList[];
    /** matchScore is 0-100; reasons are short explanations such as 'name: exact'. */
    records: { name: string; category: string; matchScore: number; list: string; reasons: string[] }[];
  };
  identity: {
    verified: boolean;
    documentType: string | null;
    issuingCountry: string | null;
    /** YYYY-MM-DD. */
    documentExpiry: string | null;
    /** Why it did not verify (the answer's `error`), when it did not. */
    reason: string | null;
    /** Similarity and threshold on the answer's 0-100 scale; null when no face pair could be compared. */
    faceMatch: { similarity: number; threshold: number; isMatch: boolean } | null;
    /** Every other check: the selfie's and the document's, in the order they ran. */
    checks: ReportCheck[];
  };
}

// ---------------------------------------------------------------------------------------------
// Values as a reader expects them

const NOT_AVAILABLE = 'Not available';

/**
 * A calendar date as YYYY-MM-DD, the report's one date style (instants: "YYYY-MM-DD HH:MM:SS UTC");
 * a US MM/DD/YYYY is turned round, anything else is printed as given.
 */
export function calendarDate(date: string | null): string {
  return date ? isoDateText(date) : NOT_AVAILABLE;
}

/** Similarity and threshold on the product's published 0-100 scale (docs/faces.md), one decimal. */
const oneDecimal = (n: number): string => n.toFixed(1);

/** All identity checks: the face match first (the one a reader looks for), then the others. */
export function identityChecks(identity: KycReportInput['identity']): ReportCheck[] {
  const f = identity.faceMatch;
  const face: ReportCheck = f
    ? { name: 'Face match', result: f.isMatch ? 'pass' : 'fail', detail: `similarity ${oneDecimal(f.similarity)}, threshold ${oneDecimal(f.threshold)}` }
    : { name: 'Face match', result: 'not_checked' };
  return [face, ...identity.checks];
}

/** "Checks passed 13 of 14. Failed: face match (similarity 41.0, threshold 48.0)." and what could not be checked. */
export function checksSummary(checks: readonly ReportCheck[]): string {
  const measured = checks.filter((c) => c.result !== 'not_checked');
  const passed = measured.filter((c) => c.result === 'pass').length;
  const named = (c: ReportCheck) => (c.detail && c.result === 'fail' ? `${c.name} (${c.detail})` : c.name);
  const failed = measured.filter((c) => c.result === 'fail').map(named);
  const unchecked = checks.filter((c) => c.result === 'not_checked').map(named);
  return [
    `Checks passed ${passed} of ${measured.length}.`,
    ...(failed.length ? [`Failed: ${failed.join('; ')}.`] : []),
    ...(unchecked.length ? [`Not checked: ${unchecked.join('; ')}.`] : []),
  ].join(' ');
}

/** Who made it, as a reader identifies them: a key by its name and public prefix, an analyst by e-mail. */
export function actorText(a: ReportActor): string {
  if (a.kind === 'api_key') return `API key "${a.name}" (${a.prefix}...)`;
  return a.kind === 'analyst' ? `Analyst ${a.email}` : 'Hosted verification link made in the console';
}

/** A list's version date: the date it states, else the date it was retrieved, said as such. */
export function listVersionDate(l: ReportList): string {
  if (l.list_date) return calendarDate(l.list_date);
  return l.retrieval_date ? `${calendarDate(l.retrieval_date)} (retrieved)` : 'No date stated';
}

/** Notes printed after a list's version date, one rule a line. */
const LIST_NOTES: ((l: ReportList) => string | null)[] = [
  // Older than the organisation's window for its kind when the screening ran (ListVersion.stale).
  (l) => (l.stale ? '(out of date)' : null),
];

export function listNotes(l: ReportList): string[] {
  return LIST_NOTES.map((note) => note(l)).filter((n): n is string => n !== null);
}

/** How many hex digits of a list's SHA-256 are printed: 64 bits tell any two files apart; the PDF's keywords hold all 64. */
const CHECKSUM_SHOWN = 16;
export const shortChecksum = (sha256: string): string => (sha256.length > CHECKSUM_SHOWN ? `${sha256.slice(0, CHECKSUM_SHOWN)}...` : sha256);

function score(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

// ---------------------------------------------------------------------------------------------
// Layout

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const CONTENT_WIDTH = A4[0] - 2 * MARGIN;
/** Lowest y body content may reach; the footer lives below it. */
const BODY_BOTTOM = 64;

const COLOR = {
  ink: rgb(0.12, 0.14, 0.17),
  muted: rgb(0.4, 0.43, 0.47),
  rule: rgb(0.8, 0.82, 0.85),
  band: rgb(0.11, 0.2, 0.33),
  bandText: rgb(0.78, 0.84, 0.92),
  tableHead: rgb(0.92, 0.93, 0.95),
  zebra: rgb(0.97, 0.975, 0.98),
  testBand: rgb(0.99, 0.8, 0.25),
  testText: rgb(0.35, 0.22, 0),
  clearedFill: rgb(0.86, 0.95, 0.89),
  clearedText: rgb(0.08, 0.4, 0.2),
  matchFill: rgb(1, 0.93, 0.8),
  matchText: rgb(0.6, 0.3, 0),
};

interface Column {
  title: string;
  width: number;
  align?: 'left' | 'right';
}

const MATCH_COLUMNS: Column[] = [
  { title: '#', width: 22, align: 'right' },
  { title: 'Name', width: 118 },
  { title: 'Category', width: 62 },
  { title: 'List', width: 96 },
  { title: 'Score', width: 38, align: 'right' },
  { title: 'Reasons', width: CONTENT_WIDTH - 22 - 118 - 62 - 96 - 38 },
];
const LIST_COLUMNS: Column[] = [
  { title: 'List', width: 300 },
  { title: 'Version date', width: 94 },
  { title: 'SHA-256', width: CONTENT_WIDTH - 300 - 94 },
];

/** A cursor over the pages: knows where the next line goes and starts a new page when needed. */
class ReportWriter {
  page!: PDFPage;
  y = 0;
  readonly pages: PDFPage[] = [];

  constructor(
    readonly doc: PDFDocument,
    readonly fonts: Fonts,
    readonly input: KycReportInput,
  ) {}

  text(s: string, x: number, y: number, size: number, opts: { bold?: boolean; color?: RGB } = {}): void {
    this.page.drawText(printable(s), {
      x, y, size, font: opts.bold ? this.fonts.bold : this.fonts.regular, color: opts.color ?? COLOR.ink,
    });
  }

  width(s: string, size: number, bold = false): number {
    return (bold ? this.fonts.bold : this.fonts.regular).widthOfTextAtSize(printable(s), size);
  }

  rule(y: number, color = COLOR.rule, thickness = 0.6): void {
    this.page.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness, color });
  }

  /** The first page opens with the full header; later pages with a one-line reminder of whose report it is. */
  newPage(): void {
    this.page = this.doc.addPage(A4);
    this.pages.push(this.page);
    const top = A4[1];
    if (this.pages.length === 1) {
      const bandHeight = 78;
      this.page.drawRectangle({ x: 0, y: top - bandHeight, width: A4[0], height: bandHeight, color: COLOR.band });
      this.text('KYC screening report', MARGIN, top - 40, 21, { bold: true, color: rgb(1, 1, 1) });
      const org = fit(this.input.organisation, this.fonts.regular, 11, CONTENT_WIDTH - 110);
      this.text(org, MARGIN, top - 60, 11, { color: COLOR.bandText });
      const tag = 'CONFIDENTIAL';
      this.text(tag, A4[0] - MARGIN - this.width(tag, 8, true), top - 36, 8, { bold: true, color: COLOR.bandText });
      this.y = top - bandHeight;
    } else {
      this.text('KYC screening report', MARGIN, top - 36, 10, { bold: true, color: COLOR.band });
      const id = `Verification ${this.input.verificationId}`;
      this.text(id, A4[0] - MARGIN - this.width(id, 8.5), top - 36, 8.5, { color: COLOR.muted });
      this.rule(top - 44);
      this.y = top - 44;
    }
    if (this.input.environment === 'test') {
      const h = 22;
      this.page.drawRectangle({ x: 0, y: this.y - h, width: A4[0], height: h, color: COLOR.testBand });
      const label = 'TEST ENVIRONMENT';
      this.text(label, MARGIN, this.y - 15, 10, { bold: true, color: COLOR.testText });
      this.text('Made with a test key: not a live verification.', MARGIN + this.width(label, 10, true) + 10, this.y - 15, 9,
        { color: COLOR.testText });
      this.y -= h;
    }
    this.y -= 22;
  }

  /** Starts a new page unless `height` more points fit above the footer. */
  ensure(height: number): void {
    if (this.y - height < BODY_BOTTOM) this.newPage();
  }

  /** A section title with a rule under it, kept on the same page as the first `keep` points of its body. */
  section(title: string, keep: number): void {
    this.ensure(30 + keep);
    this.text(title, MARGIN, this.y - 12, 12.5, { bold: true, color: COLOR.band });
    this.rule(this.y - 18, COLOR.band, 0.8);
    this.y -= 32;
  }

  /** Label/value rows: labels in a fixed column, values wrapped in the rest. */
  fields(rows: [label: string, value: string][]): void {
    const labelWidth = 130;
    const size = 10;
    const lineHeight = 13.5;
    for (const [label, value] of rows) {
      const lines = wrap(value, this.fonts.regular, size, CONTENT_WIDTH - labelWidth);
      this.ensure(lines.length * lineHeight);
      this.text(label, MARGIN, this.y - size, 9, { color: COLOR.muted });
      lines.forEach((line, i) => this.text(line, MARGIN + labelWidth, this.y - size - i * lineHeight, size,
        { color: value === NOT_AVAILABLE ? COLOR.muted : COLOR.ink }));
      this.y -= lines.length * lineHeight + 4;
    }
  }

  /** Body text across the full width. */
  paragraph(s: string): void {
    const lines = wrap(s, this.fonts.regular, 10, CONTENT_WIDTH);
    this.ensure(lines.length * 13.5);
    for (const line of lines) {
      this.text(line, MARGIN, this.y - 10, 10);
      this.y -= 13.5;
    }
    this.y -= 4;
  }

  /** Small grey text across the full width: provenance and reading notes. */
  note(s: string): void {
    const lines = wrap(s, this.fonts.regular, 8.5, CONTENT_WIDTH);
    this.ensure(lines.length * 11);
    for (const line of lines) {
      this.text(line, MARGIN, this.y - 8.5, 8.5, { color: COLOR.muted });
      this.y -= 11;
    }
    this.y -= 3;
  }

  private tableHead(columns: Column[]): void {
    const h = 18;
    this.page.drawRectangle({ x: MARGIN, y: this.y - h, width: CONTENT_WIDTH, height: h, color: COLOR.tableHead });
    let x = MARGIN;
    for (const c of columns) {
      const tx = c.align === 'right' ? x + c.width - 5 - this.width(c.title, 8.5, true) : x + 5;
      this.text(c.title, tx, this.y - 12.5, 8.5, { bold: true, color: COLOR.muted });
      x += c.width;
    }
    this.y -= h;
  }

  /**
   * A table whose cells wrap; a cell given as a list shows one bulleted item a line. Rows never
   * split unless one is taller than a whole page (the rest then carries the row's first cell
   * again); a new page says "<title> (continued)" and repeats the header row, so every page of the
   * table reads on its own.
   */
  table(title: string, columns: Column[], rows: (string | string[])[][]): void {
    const size = 9;
    const lineHeight = 11.5;
    const pad = 5;
    const bullet = '\u2022';
    const indent = this.width(`${bullet} `, size);
    const cellLines = (cell: string | string[], width: number): { text: string; x: number }[] => {
      if (typeof cell === 'string') return wrap(cell, this.fonts.regular, size, width).map((text) => ({ text, x: 0 }));
      return cell.flatMap((item) => wrap(item, this.fonts.regular, size, width - indent)
        .map((text, k) => (k === 0 ? { text: `${bullet} ${text}`, x: 0 } : { text, x: indent })));
    };
    this.tableHead(columns);
    rows.forEach((cells, r) => {
      const lines = cells.map((cell, i) => cellLines(cell, (columns[i]?.width ?? 0) - 2 * pad));
      const total = Math.max(...lines.map((l) => l.length));
      let from = 0;
      while (from < total) {
        const room = Math.floor((this.y - BODY_BOTTOM - 2 * pad) / lineHeight);
        const wholeRowFitsFresh = (total - from) * lineHeight + 2 * pad <= A4[1] - 150 - BODY_BOTTOM;
        if (room < total - from && (wholeRowFitsFresh || room < 2)) {
          this.newPage();
          this.text(`${title} (continued)`, MARGIN, this.y - 10, 10, { bold: true, color: COLOR.band });
          this.y -= 18;
          this.tableHead(columns);
          continue;
        }
        const count = Math.min(room, total - from);
        const h = count * lineHeight + 2 * pad;
        if (r % 2 === 1) this.page.drawRectangle({ x: MARGIN, y: this.y - h, width: CONTENT_WIDTH, height: h, color: COLOR.zebra });
        let x = MARGIN;
        columns.forEach((c, i) => {
          const shown = (lines[i] ?? []).slice(from, from + count);
          const first = lines[0]?.[0];
          if (from > 0 && i === 0 && shown.length === 0 && first) shown.push(first);
          shown.forEach((line, k) => {
            const tx = c.align === 'right' ? x + c.width - pad - this.width(line.text, size) : x + pad + line.x;
            this.text(line.text, tx, this.y - pad - size + 1.5 - k * lineHeight, size);
          });
          x += c.width;
        });
        this.y -= h;
        this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: A4[0] - MARGIN, y: this.y }, thickness: 0.4, color: COLOR.rule });
        from += count;
      }
    });
    this.y -= 10;
  }

  /** The status row: its value in a coloured pill, in the value column of the label/value rows. */
  badge(label: string, fill: RGB, color: RGB): void {
    const size = 10.5;
    const w = this.width(label, size, true) + 20;
    const h = 20;
    this.ensure(h + 6);
    this.page.drawRectangle({ x: MARGIN + 130, y: this.y - h + 3, width: w, height: h, color: fill, borderColor: color, borderWidth: 0.8 });
    this.text('Status', MARGIN, this.y - 10, 9, { color: COLOR.muted });
    this.text(label, MARGIN + 140, this.y - 10.5, size, { bold: true, color });
    this.y -= h + 6;
  }

  /** Footers go on last, when the page count is known. */
  footers(): void {
    const disclaimer = 'Screening signals, not a compliance decision. This report contains no images or raw biometric data.';
    this.pages.forEach((page, i) => {
      this.page = page;
      this.rule(44);
      this.text(disclaimer, MARGIN, 32, 7.5, { color: COLOR.muted });
      this.text(`Verification ${this.input.verificationId}`, MARGIN, 21, 7.5, { color: COLOR.muted });
      const n = `Page ${i + 1} of ${this.pages.length}`;
      this.text(n, A4[0] - MARGIN - this.width(n, 8, true), 32, 8, { bold: true, color: COLOR.ink });
    });
  }
}

// ---------------------------------------------------------------------------------------------
// The report

/** Renders the report; the same input always gives the same bytes. */
export async function renderKycReport(input: KycReportInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const generated = new Date(Date.parse(input.generatedAt));
  doc.setTitle(printable(`KYC screening report ${input.verificationId}`), { showInWindowTitleBar: true });
  doc.setProducer('Compliance Console');
  doc.setCreator('Compliance Console');
  doc.setLanguage('en');
  // The full checksum of every list, for a machine to compare (the table prints the first 16 hex digits).
  if (input.screening.listsChecked.length) doc.setKeywords(input.screening.listsChecked.map((l) => `sha256:${l.source}=${l.sha256}`));
  if (!Number.isNaN(generated.getTime())) {
    doc.setCreationDate(generated);
    doc.setModificationDate(generated);
  }
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  const w = new ReportWriter(doc, fonts, input);
  w.newPage();
  metaRow(w);

  const { subject, screening, identity } = input;
  w.section('Subject', 60);
  w.fields([
    ['Name', subject.name],
    ['Date of birth', calendarDate(subject.dateOfBirth)],
    ['Nationality', subject.nationality ?? NOT_AVAILABLE],
  ]);
  w.note(transliterated(subject.name)
    ? 'As read from the identity document. The name is written in another script there and is shown transliterated to Latin letters.'
    : 'As read from the identity document.');
  w.y -= 12;

  w.section('Screening outcome', 80);
  if (screening.status === 'Cleared') w.badge('Cleared', COLOR.clearedFill, COLOR.clearedText);
  else w.badge('Potential match \u2014 review required', COLOR.matchFill, COLOR.matchText);
  w.fields([
    ['Total hits', String(screening.totalHits)],
    ['Screened at', instant(screening.screenedAt)],
    ['Lists checked', String(screening.listsChecked.length)],
  ]);
  w.y -= 12;

  w.section(`Matches (${screening.records.length})`, 75);
  if (screening.records.length === 0) {
    w.paragraph('No potential matches were found on the lists checked.');
  } else {
    w.table('Matches', MATCH_COLUMNS, screening.records.map((m, i) => [
      String(i + 1), m.name, m.category, m.list, score(m.matchScore), m.reasons,
    ]));
    const notes: string[] = [];
    if (screening.records.length < screening.totalHits) {
      notes.push(`Showing ${screening.records.length} of ${screening.totalHits} hits.`);
    }
    if (screening.records.some((m) => transliterated(m.name))) {
      notes.push('Names written in other scripts are shown transliterated to Latin letters.');
    }
    notes.push('Score: how closely the listed entry matches the subject, 0-100. A match is a signal for review, not a finding.');
    w.note(notes.join(' '));
  }
  w.y -= 12;

  w.section('Identity checks', 90);
  w.fields([
    ['Verified', identity.verified ? 'Yes' : 'No'],
    ['Document type', identity.documentType ?? NOT_AVAILABLE],
    ['Issuing country', identity.issuingCountry ?? NOT_AVAILABLE],
    ['Document expiry', calendarDate(identity.documentExpiry)],
    ...(identity.reason ? [['Reason', identity.reason] as [string, string]] : []),
    ['Face match', faceMatchText(identity.faceMatch)],
    ['Checks', checksSummary(identityChecks(identity))],
  ]);
  w.note('Face match: the similarity of the selfie and the document portrait on a 0-100 scale; the faces match at or above the threshold.');
  w.y -= 12;

  // Room for the table's header and its first row under the title: never a header alone at a page's foot.
  w.section('Lists checked', 75);
  if (screening.listsChecked.length === 0) w.paragraph('No lists were recorded for this screening.');
  else {
    w.table('Lists checked', LIST_COLUMNS, screening.listsChecked.map((l) => [
      l.title, [listVersionDate(l), ...listNotes(l)].join(' '), shortChecksum(l.sha256),
    ]));
    w.note('Version date: the publication date the list states; "retrieved" where it states none and the date the list was obtained is shown. ' +
      'SHA-256: the first 16 hex digits of the checksum of the list as imported; the PDF\'s keywords hold the full checksums.' +
      (screening.listsChecked.some((l) => l.stale) ? ' Out of date: older than the organisation\'s freshness window for its kind when the screening ran.' : ''));
  }
  w.y -= 10;

  w.footers();
  return doc.save();
}

function faceMatchText(f: KycReportInput['identity']['faceMatch']): string {
  if (!f) return 'Not compared: no face to compare on the selfie or the document';
  return `${f.isMatch ? 'Match' : 'No match'}: similarity ${oneDecimal(f.similarity)} against threshold ${oneDecimal(f.threshold)}`;
}

/** Verification id, environment and the two times in four columns under the header band; then who ran it and who made this report. */
function metaRow(w: ReportWriter): void {
  const { input } = w;
  const testEnv = input.environment === 'test';
  metaCells(w, [
    { label: 'Verification ID', value: input.verificationId, width: 0.4 },
    { label: 'Environment', value: testEnv ? 'Test' : 'Live', width: 0.12, color: testEnv ? COLOR.matchText : COLOR.ink },
    { label: 'Verified at', value: instant(input.verifiedAt), width: 0.24 },
    { label: 'Generated at', value: instant(input.generatedAt), width: 0.24 },
  ]);
  w.y -= 8;
  metaCells(w, [
    { label: 'Verification run by', value: actorText(input.verifiedBy), width: 0.5 },
    { label: 'Report generated by', value: actorText(input.generatedBy), width: 0.5 },
  ]);
  w.rule(w.y);
  w.y -= 22;
}

/** One row of label-over-value cells, `width` a share of the content width; values wrap in their cell. */
function metaCells(w: ReportWriter, cells: { label: string; value: string; width: number; color?: RGB }[]): void {
  let x = MARGIN;
  let tallest = 0;
  for (const c of cells) {
    const width = CONTENT_WIDTH * c.width;
    w.text(c.label, x, w.y - 8, 8, { color: COLOR.muted });
    const lines = wrap(c.value, w.fonts.bold, 9, width - 10);
    lines.forEach((line, k) => w.text(line, x, w.y - 21 - k * 12, 9, { bold: true, color: c.color ?? COLOR.ink }));
    tallest = Math.max(tallest, lines.length);
    x += width;
  }
  w.y -= 22 + (tallest - 1) * 12 + 12;
}

// ---------------------------------------------------------------------------------------------
// Encryption with qpdf (WebAssembly)

/** The part of the Emscripten module this file uses. */
interface QpdfModule {
  callMain(args: string[]): number;
  FS: {
    writeFile(path: string, data: Uint8Array): void;
    readFile(path: string): Uint8Array;
    unlink(path: string): void;
    init(stdin: () => number | null, stdout: (byte: number | null) => void, stderr: (byte: number | null) => void): void;
  };
}
type QpdfFactory = (options: {
  locateFile: (file: string) => string;
  thisProgram: string;
  preRun: ((module: QpdfModule) => void)[];
}) => Promise<QpdfModule>;

interface Qpdf {
  module: QpdfModule;
  /** What qpdf printed on stdout and stderr during the current run (it would otherwise go to console.log). */
  output: number[];
}

let qpdfLoad: Promise<Qpdf> | null = null;
let qpdfQueue: Promise<unknown> = Promise.resolve();

/**
 * Loads qpdf once. The wasm file is found next to the package's script and read with
 * fs.readFileSync (this build ignores `wasmBinary`; in Node it never fetches). Its stdin, stdout
 * and stderr are replaced: by default it would read the host's stdin with a blocking readSync and
 * print to console.log/console.error; now it reads nothing and what it says is kept for the error.
 */
function loadQpdf(): Promise<Qpdf> {
  qpdfLoad ??= (async () => {
    const wasmPath = createRequire(import.meta.url).resolve('@neslinesli93/qpdf-wasm/dist/qpdf.wasm');
    const imported: { default: unknown } = await import('@neslinesli93/qpdf-wasm');
    const factory = imported.default as QpdfFactory;
    const output: number[] = [];
    const capture = (byte: number | null): void => {
      if (byte !== null && output.length < 64 * 1024) output.push(byte);
    };
    const module = await factory({
      locateFile: () => wasmPath,
      thisProgram: 'qpdf',
      preRun: [(m) => m.FS.init(() => null, capture, capture)],
    });
    return { module, output };
  })();
  qpdfLoad.catch(() => { qpdfLoad = null; });
  return qpdfLoad;
}

/** Runs `task` after every earlier one has finished: qpdf runs share one file system. */
function serialised<T>(task: () => Promise<T>): Promise<T> {
  const run = qpdfQueue.then(task, task);
  qpdfQueue = run.catch(() => undefined);
  return run;
}

/**
 * Runs qpdf's main with `args` and returns its exit status and what it printed. An instance that
 * aborts is dropped, so the next run loads a fresh one.
 */
function runQpdf(qpdf: Qpdf, args: string[]): { status: number; output: string } {
  const exitCode = process.exitCode;
  qpdf.output.length = 0;
  try {
    const status = qpdf.module.callMain([...args]);
    return { status, output: new TextDecoder().decode(new Uint8Array(qpdf.output)) };
  } catch (err) {
    qpdfLoad = null;
    throw err;
  } finally {
    process.exitCode = exitCode;
    qpdf.output.length = 0;
  }
}

/** qpdf's exit status for "succeeded with warnings". */
const QPDF_WARNINGS = 3;

/**
 * Encrypts a PDF with AES-256 (PDF 2.0 security handler, R6): it opens only with `password`. The
 * owner password is random and never kept, so nobody can lift the protection without the user
 * password. Input and output exist only in qpdf's in-memory file system, and are removed before
 * this returns, also when it fails.
 */
export function encryptPdf(pdf: Uint8Array, password: string): Promise<Uint8Array> {
  if (password.length === 0 || password.includes('\0')) {
    return Promise.reject(new Error('encryptPdf needs a non-empty password without NUL characters'));
  }
  return serialised(async () => {
    const qpdf = await loadQpdf();
    const { FS } = qpdf.module;
    const [input, output] = ['/report-in.pdf', '/report-out.pdf'];
    try {
      FS.writeFile(input, pdf);
      // The --name=value forms keep a password that starts with "-" or "@" from being read as an
      // option or a file of arguments.
      const run = runQpdf(qpdf, [
        '--encrypt', `--user-password=${password}`, `--owner-password=${randomBytes(32).toString('hex')}`, '--bits=256', '--',
        input, output,
      ]);
      if (run.status !== 0 && run.status !== QPDF_WARNINGS) {
        throw new Error(`qpdf could not encrypt the report (exit ${run.status}): ${run.output.trim().slice(0, 300)}`);
      }
      return FS.readFile(output);
    } finally {
      for (const path of [input, output]) {
        try {
          FS.unlink(path);
        } catch {
          // Not written (the run failed before it): nothing to remove.
        }
      }
    }
  });
}
