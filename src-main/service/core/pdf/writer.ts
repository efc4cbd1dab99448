// The one layout engine of the service's PDFs (pdf-lib, A4, the standard Helvetica fonts): the KYC
// screening report (core/documents/report-pdf.ts) and the report exports (core/exports/pdf.ts)
// draw through it and keep only their content. A writer is a cursor over the pages: it knows where
// the next line goes and starts a new page when a block would run into the footer; each page opens
// with the document's own header (a banner on the first, a running head after, the test band) and
// gets the footer with "Page n of m" once the page count is known.
//
// Blocks: section headings kept with the start of their body, paragraphs and notes, label/value
// rows, label-over-value cells, summary tiles, tables whose cells wrap (a cell given as a list is
// bulleted), whose header row repeats on every page they run over and whose rows split only when
// taller than a page, pills, vector charts and their legends. Text goes through printable()
// (pdf/text.ts): what Helvetica cannot print is transliterated, never dropped silently.
import type { PDFDocument, PDFFont, PDFImage, PDFPage, RGB } from 'pdf-lib';

/**
 * A colour as pdf-lib draws it. Made here rather than with pdf-lib's rgb(): pdf-lib is loaded at
 * the first document (`Pdf.create`), not when the service starts (it is ~0.3 s of CPU a start).
 */
const rgb = (red: number, green: number, blue: number): RGB => ({ type: 'RGB' as RGB['type'], red, green, blue });
import type { ChartModel, Tone } from '../../../../src-shared/charts/charts';
import { fit, printable, wrap, type Fonts } from './text';

/** The page every document uses: A4 portrait, one margin all round the body, the footer below BODY_BOTTOM. */
export const PAGE = {
  width: 595.28,
  height: 841.89,
  margin: 48,
  /** Lowest y body content may reach; the footer lives below it. */
  bodyBottom: 64,
} as const;
export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const RIGHT = PAGE.width - PAGE.margin;
/** The label column of label/value rows. */
const FIELD_LABEL_WIDTH = 130;

/** The print palette. */
export const INK = {
  ink: rgb(0.12, 0.14, 0.17),
  muted: rgb(0.4, 0.43, 0.47),
  rule: rgb(0.8, 0.82, 0.85),
  grid: rgb(0.9, 0.91, 0.93),
  band: rgb(0.11, 0.2, 0.33),
  bandText: rgb(0.78, 0.84, 0.92),
  white: rgb(1, 1, 1),
  tile: rgb(0.965, 0.972, 0.98),
  tileEdge: rgb(0.86, 0.88, 0.91),
  tableHead: rgb(0.92, 0.93, 0.95),
  zebra: rgb(0.97, 0.975, 0.98),
  testBand: rgb(0.99, 0.8, 0.25),
  testText: rgb(0.35, 0.22, 0),
  good: rgb(0.1, 0.5, 0.27),
  goodFill: rgb(0.87, 0.95, 0.9),
  warn: rgb(0.66, 0.4, 0),
  warnFill: rgb(1, 0.94, 0.82),
  bad: rgb(0.72, 0.14, 0.14),
  badFill: rgb(0.99, 0.89, 0.89),
};

const SERIES = [rgb(0.16, 0.38, 0.63), rgb(0.2, 0.6, 0.56), rgb(0.93, 0.6, 0.18), rgb(0.55, 0.4, 0.7), rgb(0.85, 0.33, 0.4), rgb(0.45, 0.52, 0.6)];

/** The print colour of a chart tone (src-shared/charts names tones; the console maps them to CSS tokens). */
export function toneColor(t: Tone): RGB {
  switch (t) {
    case 'pass': return rgb(0.24, 0.65, 0.42);
    case 'fail': return rgb(0.86, 0.36, 0.34);
    case 'total': return INK.band;
    case 'neutral': return rgb(0.6, 0.64, 0.69);
    case 'critical': return rgb(0.7, 0.1, 0.13);
    case 'high': return rgb(0.9, 0.42, 0.16);
    case 'medium': return rgb(0.95, 0.73, 0.2);
    case 'low': return rgb(0.3, 0.66, 0.43);
    default: return SERIES[Number(t.slice('series-'.length)) % SERIES.length] ?? INK.muted;
  }
}

export interface TextStyle {
  bold?: boolean;
  color?: RGB;
}

export interface Column {
  title: string;
  width: number;
  align?: 'left' | 'right';
}

/** A table cell: text that wraps, or a list shown one bulleted item a line. */
export type Cell = string | string[];

/** How dense a table is: regular for documents read line by line, compact for tables of figures. */
export interface TableStyle {
  size: number;
  lineHeight: number;
  pad: number;
  headHeight: number;
  headSize: number;
  /** Rows kept on the page with the header row, so a header never stands alone at a page's foot. */
  keepRows: number;
}
/** Space between a cell's text and its column's edges (`pad` is above and below). */
const CELL_PAD_X = 5;
export const TABLE: Record<'regular' | 'compact', TableStyle> = {
  regular: { size: 9, lineHeight: 11.5, pad: 5, headHeight: 18, headSize: 8.5, keepRows: 1 },
  compact: { size: 8.5, lineHeight: 11, pad: 2.5, headHeight: 17, headSize: 7.5, keepRows: 3 },
};

export interface Tile {
  label: string;
  value: string;
  sub?: string | undefined;
  /** The stripe's and the value's colour. */
  accent?: RGB | undefined;
  /** A triangle before the value, for a change up or down. */
  trend?: 'up' | 'down' | undefined;
}

export interface CellBlock {
  label: string;
  value: string;
  /** Share of the content width. */
  share: number;
  color?: RGB | undefined;
}

export interface PdfMeta {
  title: string;
  /** ISO 8601: the PDF's creation and modification dates (left out when it does not parse). */
  createdAt: string;
  /** Machine-readable fields a PDF can carry (the KYC report's list checksums). */
  keywords?: string[] | undefined;
}

/** Draws a page's head (banner or running head, test band) and leaves `w.y` under it. */
export type PageHeader = (w: PdfWriter, pageNumber: number) => void;

/** The two lines under the rule of every page's footer, left of "Page n of m". */
export type PageFooter = [string, string];

export class PdfWriter {
  page!: PDFPage;
  /** Where the next block starts, in points from the page's bottom. */
  y = 0;
  readonly pages: PDFPage[] = [];

  private constructor(readonly doc: PDFDocument, readonly fonts: Fonts, private readonly header: PageHeader) {}

  /** A new document with its metadata set and fonts embedded; the first page is started. */
  static async create(meta: PdfMeta, header: PageHeader): Promise<PdfWriter> {
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const doc = await PDFDocument.create({ updateMetadata: false });
    doc.setTitle(printable(meta.title), { showInWindowTitleBar: true });
    doc.setProducer('Compliance Console');
    doc.setCreator('Compliance Console');
    doc.setLanguage('en');
    if (meta.keywords?.length) doc.setKeywords(meta.keywords);
    const created = new Date(Date.parse(meta.createdAt));
    if (!Number.isNaN(created.getTime())) {
      doc.setCreationDate(created);
      doc.setModificationDate(created);
    }
    const fonts = { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) };
    return new PdfWriter(doc, fonts, header);
  }

  /** A PNG for the page, or null when it is not one (a document leaves out a picture it cannot read rather than failing). */
  async png(bytes: Uint8Array | null): Promise<PDFImage | null> {
    if (!bytes) return null;
    try {
      return await this.doc.embedPng(bytes);
    } catch {
      return null;
    }
  }

  /** Footers on every page (the count is known now), and the bytes; the same input always gives the same bytes. */
  async finish(footer: PageFooter): Promise<Uint8Array> {
    this.pages.forEach((page, i) => {
      this.page = page;
      this.rule(44);
      const n = `Page ${i + 1} of ${this.pages.length}`;
      const room = CONTENT_WIDTH - this.width(n, 8, true) - 20;
      this.text(fit(footer[0], this.fonts.regular, 7.5, room), PAGE.margin, 32, 7.5, { color: INK.muted });
      this.text(fit(footer[1], this.fonts.regular, 7.5, room), PAGE.margin, 21, 7.5, { color: INK.muted });
      this.right(n, RIGHT, 32, 8, { bold: true });
    });
    return this.doc.save();
  }

  // -------------------------------------------------------------------------------------------
  // Drawing

  font(bold = false): PDFFont {
    return bold ? this.fonts.bold : this.fonts.regular;
  }

  text(s: string, x: number, y: number, size: number, o: TextStyle = {}): void {
    this.page.drawText(printable(s), { x, y, size, font: this.font(o.bold), color: o.color ?? INK.ink });
  }

  width(s: string, size: number, bold = false): number {
    return this.font(bold).widthOfTextAtSize(printable(s), size);
  }

  /** Text ending at `xRight`. */
  right(s: string, xRight: number, y: number, size: number, o: TextStyle = {}): void {
    this.text(s, xRight - this.width(s, size, o.bold), y, size, o);
  }

  /** Lines of text no wider than `width`. */
  wrap(s: string, size: number, width: number, bold = false): string[] {
    return wrap(s, this.font(bold), size, width);
  }

  /** The text cut to `width` with "...". */
  fit(s: string, size: number, width: number, bold = false): string {
    return fit(s, this.font(bold), size, width);
  }

  /** A rule across the body at `y`. */
  rule(y = this.y, color = INK.rule, thickness = 0.6): void {
    this.line(PAGE.margin, y, RIGHT, y, color, thickness);
  }

  line(x1: number, y1: number, x2: number, y2: number, color: RGB, thickness: number): void {
    this.page.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness, color });
  }

  rect(x: number, y: number, width: number, height: number, color: RGB, border?: { color: RGB; width: number }): void {
    this.page.drawRectangle({ x, y, width, height, color, ...(border ? { borderColor: border.color, borderWidth: border.width } : {}) });
  }

  /** A label in a rounded-off box (its text's baseline at `y`); returns the box's width. */
  pill(label: string, x: number, y: number, size: number, fill: RGB, color: RGB): number {
    const pad = 0.9 * size;
    const w = this.width(label, size, true) + 2 * pad;
    this.rect(x, y - 0.58 * size, w, 1.8 * size, fill, { color, width: 0.7 });
    this.text(label, x + pad, y, size, { bold: true, color });
    return w;
  }

  // -------------------------------------------------------------------------------------------
  // Pages

  /** Starts a new page with the document's header. */
  newPage(): void {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.pages.push(this.page);
    this.header(this, this.pages.length);
    this.y -= 22;
  }

  /** Starts a new page unless `height` more points fit above the footer. */
  ensure(height: number): void {
    if (this.y - height < PAGE.bodyBottom) this.newPage();
  }

  /** The first page's band: an optional kicker over the title, the subtitle, a tag or a logo at the right. */
  banner(b: { kicker?: string; title: string; subtitle: string; tag?: string; logo?: PDFImage | null }): void {
    const top = PAGE.height;
    const k = b.kicker ? 12 : 0;
    const h = 84 + k;
    this.rect(0, top - h, PAGE.width, h, INK.band);
    let textRight = RIGHT;
    if (b.logo) {
      const scale = Math.min(150 / b.logo.width, 52 / b.logo.height);
      const w = b.logo.width * scale;
      const lh = b.logo.height * scale;
      // A light plate keeps a dark logo readable on the band.
      this.rect(RIGHT - w - 12, top - h / 2 - lh / 2 - 6, w + 12, lh + 12, INK.white);
      this.page.drawImage(b.logo, { x: RIGHT - w - 6, y: top - h / 2 - lh / 2, width: w, height: lh });
      textRight = RIGHT - w - 24;
    }
    if (b.tag) {
      this.right(b.tag, RIGHT, top - 36 - k, 8, { bold: true, color: INK.bandText });
      textRight -= this.width(b.tag, 8, true) + 24;
    }
    if (b.kicker) this.text(b.kicker, PAGE.margin, top - 28, 8, { bold: true, color: INK.bandText });
    const room = textRight - PAGE.margin;
    this.text(this.fit(b.title, 20, room, true), PAGE.margin, top - 40 - k, 20, { bold: true, color: INK.white });
    this.text(this.fit(b.subtitle, 11.5, room), PAGE.margin, top - 62 - k, 11.5, { color: INK.bandText });
    this.y = top - h;
  }

  /** Later pages' head: whose document this is at the left, what it covers at the right, a rule under. */
  runningHead(left: string, right: string): void {
    const top = PAGE.height;
    const rightWidth = this.width(right, 8.5);
    this.text(this.fit(left, 9.5, CONTENT_WIDTH - rightWidth - 20, true), PAGE.margin, top - 36, 9.5, { bold: true, color: INK.band });
    this.right(right, RIGHT, top - 36, 8.5, { color: INK.muted });
    this.rule(top - 44);
    this.y = top - 44;
  }

  /** The band every page of a test-environment document carries under its head. */
  testBand(note: string): void {
    const h = 22;
    this.rect(0, this.y - h, PAGE.width, h, INK.testBand);
    const label = 'TEST ENVIRONMENT';
    this.text(label, PAGE.margin, this.y - 15, 10, { bold: true, color: INK.testText });
    this.text(note, PAGE.margin + this.width(label, 10, true) + 10, this.y - 15, 9, { color: INK.testText });
    this.y -= h;
  }

  // -------------------------------------------------------------------------------------------
  // Blocks

  /** A section title with a rule under it (and a note at the right), kept on the page with the first `keep` points of its body. */
  section(title: string, keep: number, note?: string): void {
    this.ensure(30 + keep);
    this.text(title, PAGE.margin, this.y - 12, 12.5, { bold: true, color: INK.band });
    if (note) this.right(note, RIGHT, this.y - 11, 8, { color: INK.muted });
    this.rule(this.y - 18, INK.band, 0.8);
    this.y -= 30;
  }

  /** Lines of text across the body; a block that does not fit starts a new page. */
  private lines(s: string, size: number, lineHeight: number, after: number, color: RGB): void {
    const lines = this.wrap(s, size, CONTENT_WIDTH);
    this.ensure(lines.length * lineHeight);
    for (const line of lines) {
      this.text(line, PAGE.margin, this.y - size, size, { color });
      this.y -= lineHeight;
    }
    this.y -= after;
  }

  /** Body text. */
  paragraph(s: string): void {
    this.lines(s, 10, 13.5, 4, INK.ink);
  }

  /** Small grey text: provenance, reading notes, why something is missing. */
  note(s: string): void {
    this.lines(s, 8.5, 11, 4, INK.muted);
  }

  /** Label/value rows: labels in a fixed column, values wrapped in the rest (a muted value reads as "nothing here"). */
  fields(rows: [label: string, value: string][], o: { muted?: (value: string) => boolean } = {}): void {
    const size = 10;
    const lineHeight = 13.5;
    for (const [label, value] of rows) {
      const lines = this.wrap(value, size, CONTENT_WIDTH - FIELD_LABEL_WIDTH);
      this.ensure(lines.length * lineHeight);
      this.text(label, PAGE.margin, this.y - size, 9, { color: INK.muted });
      const color = o.muted?.(value) ? INK.muted : INK.ink;
      lines.forEach((line, i) => this.text(line, PAGE.margin + FIELD_LABEL_WIDTH, this.y - size - i * lineHeight, size, { color }));
      this.y -= lines.length * lineHeight + 4;
    }
  }

  /** A label/value row whose value is a pill (a status). */
  pillField(label: string, value: string, fill: RGB, color: RGB): void {
    const size = 10.5;
    const h = 1.8 * size + 7;
    this.ensure(h);
    this.text(label, PAGE.margin, this.y - 10, 9, { color: INK.muted });
    this.pill(value, PAGE.margin + FIELD_LABEL_WIDTH, this.y - 11, size, fill, color);
    this.y -= h;
  }

  /** Rows of label-over-value cells across the width (a document's facts under its banner), values wrapped in their cell; a rule under. */
  cells(rows: CellBlock[][]): void {
    rows.forEach((row, r) => {
      if (r > 0) this.y -= 8;
      let x = PAGE.margin;
      let tallest = 1;
      for (const c of row) {
        const width = CONTENT_WIDTH * c.share;
        this.text(c.label, x, this.y - 8, 8, { color: INK.muted });
        const lines = this.wrap(c.value, 9, width - 10, true);
        lines.forEach((line, k) => this.text(line, x, this.y - 21 - k * 12, 9, { bold: true, color: c.color ?? INK.ink }));
        tallest = Math.max(tallest, lines.length);
        x += width;
      }
      this.y -= 34 + (tallest - 1) * 12;
    });
    this.rule();
    this.y -= 20;
  }

  /**
   * Summary tiles, `perRow` to a row: a figure, its label and an optional line under it. The line
   * wraps onto a second one rather than being cut ("1,014 screenings, 338 rescreens"); a row whose
   * line wraps is that much taller.
   */
  tiles(items: Tile[], perRow = 4): void {
    const gap = 10;
    const w = (CONTENT_WIDTH - gap * (perRow - 1)) / perRow;
    const subLines = (t: Tile): string[] => {
      if (!t.sub) return [];
      const lines = this.wrap(t.sub, 7.5, w - 18);
      return lines.length <= 2 ? lines : [lines[0]!, this.fit(lines.slice(1).join(' '), 7.5, w - 18)];
    };
    for (let i = 0; i < items.length; i += perRow) {
      const row = items.slice(i, i + perRow);
      const subs = row.map(subLines);
      const extra = Math.max(1, ...subs.map((l) => l.length)) - 1;
      const h = 58 + extra * 9;
      this.ensure(h + 8);
      row.forEach((t, k) => {
        const x = PAGE.margin + k * (w + gap);
        const accent = t.accent ?? INK.band;
        this.rect(x, this.y - h, w, h, INK.tile, { color: INK.tileEdge, width: 0.6 });
        this.rect(x, this.y - h, 3, h, accent);
        this.text(this.fit(t.label.toUpperCase(), 7, w - 18, true), x + 11, this.y - 15, 7, { bold: true, color: INK.muted });
        let vx = x + 11;
        if (t.trend) {
          // The arrow glyphs are not in WinAnsi: drawn as triangles.
          const path = t.trend === 'up' ? 'M 0 0 L 5 -8 L 10 0 Z' : 'M 0 -8 L 5 0 L 10 -8 Z';
          this.page.drawSvgPath(path, { x: vx, y: this.y - 36, color: accent });
          vx += 14;
        }
        this.text(this.fit(t.value, 18, x + w - 7 - vx, true), vx, this.y - 37, 18, { bold: true, color: t.accent ?? INK.ink });
        subs[k]!.forEach((line, n) => this.text(line, x + 11, this.y - 50 - n * 9, 7.5, { color: INK.muted }));
      });
      this.y -= h + 10;
    }
    this.y -= 6;
  }

  /**
   * A table whose cells wrap; a cell given as a list shows one bulleted item a line. The header row
   * is kept with the first rows; rows never split unless one is taller than a whole page (the rest
   * then carries the row's first cell again); a new page says "<title> (continued)" and repeats
   * the header row, so every page of the table reads on its own. No rows: the `empty` line.
   */
  table(title: string, columns: Column[], rows: Cell[][], o: { style?: TableStyle; empty?: string } = {}): void {
    const t = o.style ?? TABLE.regular;
    const { size, lineHeight, pad } = t;
    const bullet = '\u2022';
    const indent = this.width(`${bullet} `, size);
    const cellLines = (cell: Cell, width: number): { text: string; x: number }[] => {
      if (typeof cell === 'string') return this.wrap(cell, size, width).map((text) => ({ text, x: 0 }));
      return cell.flatMap((item) => this.wrap(item, size, width - indent)
        .map((text, k) => (k === 0 ? { text: `${bullet} ${text}`, x: 0 } : { text, x: indent })));
    };
    const laidOut = rows.map((cells) => cells.map((cell, i) => cellLines(cell, (columns[i]?.width ?? 0) - 2 * CELL_PAD_X)));
    const freshPage = PAGE.height - 150 - PAGE.bodyBottom;
    // The header keeps its first rows with it; a row taller than a page is split anyway, so two of its lines are enough.
    let kept = rows.length ? 0 : lineHeight + 2 * pad;
    for (const lines of laidOut.slice(0, Math.max(1, t.keepRows))) {
      const h = Math.max(1, ...lines.map((l) => l.length)) * lineHeight + 2 * pad;
      if (h > freshPage) {
        kept += 2 * lineHeight + 2 * pad;
        break;
      }
      kept += h;
    }
    this.ensure(t.headHeight + kept);
    this.tableHead(columns, t);
    if (rows.length === 0) {
      this.text(o.empty ?? 'Nothing to show.', PAGE.margin + CELL_PAD_X, this.y - pad - size + 1.5, size, { color: INK.muted });
      this.y -= lineHeight + 2 * pad + 12;
      return;
    }
    laidOut.forEach((lines, r) => {
      const total = Math.max(1, ...lines.map((l) => l.length));
      let from = 0;
      while (from < total) {
        const room = Math.floor((this.y - PAGE.bodyBottom - 2 * pad) / lineHeight);
        const wholeRowFitsFresh = (total - from) * lineHeight + 2 * pad <= freshPage;
        if (room < total - from && (wholeRowFitsFresh || room < 2)) {
          this.newPage();
          this.text(`${title} (continued)`, PAGE.margin, this.y - 10, 10, { bold: true, color: INK.band });
          this.y -= 18;
          this.tableHead(columns, t);
          continue;
        }
        const count = Math.min(room, total - from);
        const h = count * lineHeight + 2 * pad;
        if (r % 2 === 1) this.rect(PAGE.margin, this.y - h, CONTENT_WIDTH, h, INK.zebra);
        let x = PAGE.margin;
        columns.forEach((c, i) => {
          const shown = (lines[i] ?? []).slice(from, from + count);
          const first = lines[0]?.[0];
          if (from > 0 && i === 0 && shown.length === 0 && first) shown.push(first);
          shown.forEach((line, k) => {
            const tx = c.align === 'right' ? x + c.width - CELL_PAD_X - this.width(line.text, size) : x + CELL_PAD_X + line.x;
            this.text(line.text, tx, this.y - pad - size + 1.5 - k * lineHeight, size);
          });
          x += c.width;
        });
        this.y -= h;
        this.rule(this.y, INK.rule, 0.4);
        from += count;
      }
    });
    this.y -= 12;
  }

  private tableHead(columns: Column[], t: TableStyle): void {
    const h = t.headHeight;
    this.rect(PAGE.margin, this.y - h, CONTENT_WIDTH, h, INK.tableHead);
    let x = PAGE.margin;
    const baseline = this.y - h / 2 - t.headSize * 0.35;
    for (const c of columns) {
      const title = this.fit(c.title, t.headSize, c.width - 2 * CELL_PAD_X, true);
      if (c.align === 'right') this.right(title, x + c.width - CELL_PAD_X, baseline, t.headSize, { bold: true, color: INK.muted });
      else this.text(title, x + CELL_PAD_X, baseline, t.headSize, { bold: true, color: INK.muted });
      x += c.width;
    }
    this.y -= h;
  }

  // -------------------------------------------------------------------------------------------
  // Charts (models from src-shared/charts: SVG coordinates, y down)

  /** Draws a chart model with its top-left corner at (x, top). */
  chart(m: ChartModel, x: number, top: number): void {
    const page = this.page;
    const px = (sx: number) => x + sx;
    const py = (sy: number) => top - sy;
    for (const t of m.yTicks) {
      if (m.rects.length === 0) {
        this.line(px(m.plot.x), py(t.pos), px(m.plot.x + m.plot.width), py(t.pos), INK.grid, 0.4);
        this.right(t.label, px(m.plot.x) - 4, py(t.pos) - 2.5, 7, { color: INK.muted });
      } else {
        this.right(this.fit(t.label, 7.5, m.plot.x - 8), px(m.plot.x) - 5, py(t.pos) - 2.7, 7.5, { color: INK.ink });
      }
    }
    if (m.rects.length > 0) {
      for (const t of m.xTicks) {
        this.line(px(t.pos), py(m.plot.y), px(t.pos), py(m.plot.y + m.plot.height), INK.grid, 0.4);
        this.text(t.label, px(t.pos) - this.width(t.label, 6.5) / 2, py(m.plot.y + m.plot.height) - 9, 6.5, { color: INK.muted });
      }
    } else {
      for (const t of m.xTicks) this.text(t.label, px(t.pos) - this.width(t.label, 7) / 2, py(m.plot.y + m.plot.height) - 11, 7, { color: INK.muted });
    }
    for (const p of m.paths) {
      if (!p.d) continue;
      const at = p.kind === 'arc' ? { x: px(m.plot.x), y: py(m.plot.y) } : { x, y: top };
      if (p.kind === 'line') page.drawSvgPath(p.d, { ...at, borderColor: toneColor(p.tone), borderWidth: 1.3 });
      else page.drawSvgPath(p.d, { ...at, color: toneColor(p.tone), ...(p.kind === 'area' ? { opacity: 0.85 } : {}) });
    }
    for (const r of m.rects) this.rect(px(r.x), py(r.y + r.height), Math.max(0.01, r.width), r.height, toneColor(r.tone));
    if (m.rects.length === 0 && m.paths.length > 0 && m.paths[0]?.kind !== 'arc') {
      this.line(px(m.plot.x), py(m.plot.y + m.plot.height), px(m.plot.x + m.plot.width), py(m.plot.y + m.plot.height), INK.muted, 0.6);
    }
  }

  /** A chart's key: a swatch and a label per item, in a row or (vertical) a column. */
  legend(items: { label: string; tone: Tone; value?: string }[], x: number, top: number, vertical = false): void {
    let cx = x;
    let cy = top;
    for (const it of items) {
      this.rect(cx, cy - 7, 8, 8, toneColor(it.tone));
      const label = it.value ? `${it.label}  ${it.value}` : it.label;
      this.text(label, cx + 12, cy - 6.5, 8);
      if (vertical) cy -= 14;
      else cx += 12 + this.width(label, 8) + 16;
    }
  }
}
