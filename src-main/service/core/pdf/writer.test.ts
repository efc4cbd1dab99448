// The PDF writer both documents draw through, as a reader sees its pages (pdftotext where
// installed): page numbers, tables that carry their header over pages and wrap rather than cut,
// headers and section titles never left alone at a page's foot, rows taller than a page split
// without a line lost, and the document's metadata.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { CONTENT_WIDTH, PAGE, PdfWriter, TABLE, type Column } from './writer';

const hasPdftotext = existsSync('/usr/bin/pdftotext');

function pages(pdf: Uint8Array): string[] {
  return execFileSync('/usr/bin/pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8').split('\f').filter((p) => p.trim());
}

async function writer(meta: Partial<Parameters<typeof PdfWriter.create>[0]> = {}): Promise<PdfWriter> {
  const w = await PdfWriter.create({ title: 'A test document', createdAt: '2026-01-15T10:00:00.000Z', ...meta }, (p, n) => {
    if (n === 1) p.banner({ title: 'A test document', subtitle: 'Northwind' });
    else p.runningHead('A test document', 'Northwind');
  });
  w.newPage();
  return w;
}

const COLUMNS: Column[] = [{ title: 'Item', width: CONTENT_WIDTH - 120 }, { title: 'Count', width: 120, align: 'right' }];
const FOOTER: [string, string] = ['Left line', 'Second line'];

describe.skipIf(!hasPdftotext)('PdfWriter', () => {
  it('numbers every page and repeats a table\'s header, titled "(continued)", on each page it runs over', async () => {
    const w = await writer();
    w.section('Items', 40);
    w.table('Items', COLUMNS, Array.from({ length: 120 }, (_, i) => [`Item ${i + 1}`, String(i + 1)]), { style: TABLE.compact });
    const text = pages(await w.finish(FOOTER));
    expect(text.length).toBeGreaterThanOrEqual(3);
    text.forEach((p, i) => {
      expect(p).toContain(`Page ${i + 1} of ${text.length}`);
      expect(p).toContain('Left line');
      expect(p).toMatch(/Item\s+Count/);
      if (i > 0) expect(p).toContain('Items (continued)');
    });
    const all = text.join('\n');
    for (let i = 1; i <= 120; i++) expect(all).toMatch(new RegExp(`Item ${i}\\s+${i}\\n`));
  });

  it('wraps a cell too long for its column instead of cutting it, in every table style', async () => {
    const long = 'A very long API key name that goes on and on, well beyond the width of its column in this table';
    for (const style of [TABLE.regular, TABLE.compact]) {
      const w = await writer();
      w.table('Keys', [{ title: 'Key', width: 120 }, { title: 'Count', width: 60, align: 'right' }], [[long, '7']], { style });
      const flat = pages(await w.finish(FOOTER)).join(' ').replace(/\s+/g, ' ');
      for (const word of long.split(' ')) expect(flat).toContain(word);
      expect(flat).not.toContain('...');
    }
  });

  it('never leaves a table\'s header alone at the foot of a page: it goes over with its first rows', async () => {
    for (const [style, rowHeight] of [[TABLE.regular, 21.5], [TABLE.compact, 16]] as const) {
      const w = await writer();
      // Room for the header and one row less than the style keeps with it.
      w.y = PAGE.bodyBottom + style.headHeight + rowHeight * style.keepRows - 2;
      w.table('Items', COLUMNS, Array.from({ length: 5 }, (_, i) => [`Item ${i + 1}`, String(i + 1)]), { style });
      const text = pages(await w.finish(FOOTER));
      expect(text).toHaveLength(2);
      expect(text[0]).not.toMatch(/Item\s+Count/);
      expect(text[1]).toMatch(/Item\s+Count\s+Item 1\s+1/);
    }
  });

  it('keeps a section title on the page with the start of its body', async () => {
    const w = await writer();
    w.y = PAGE.bodyBottom + 60;
    w.section('Lists checked', 75);
    w.paragraph('The first line of the section.');
    const text = pages(await w.finish(FOOTER));
    expect(text[0]).not.toContain('Lists checked');
    expect(text[1]).toMatch(/Lists checked\s+The first line of the section\./);
  });

  it('splits a row taller than a page over pages without losing a line, starting it where it is', async () => {
    const w = await writer();
    w.section('Matches', 75);
    const reasons = Array.from({ length: 90 }, (_, k) => `reason ${k}: an explanation long enough to wrap in its column`);
    w.table('Matches', [{ title: 'Name', width: 120 }, { title: 'Reasons', width: CONTENT_WIDTH - 120 }], [['Jonathan Q. Example', reasons]]);
    const text = pages(await w.finish(FOOTER));
    expect(text.length).toBeGreaterThanOrEqual(2);
    expect(text[0]).toMatch(/Name\s+Reasons/);
    expect(text[0]).toContain('reason 0:');
    const flat = text.join(' ').replace(/\s+/g, ' ');
    for (let k = 0; k < 90; k++) expect(flat).toContain(`reason ${k}: an explanation`);
    // Each page the row runs onto names it again.
    for (const p of text.slice(1)) expect(p).toContain('Jonathan Q. Example');
  });

  it('writes the metadata: title, producer, creation date, keywords only when there are some', async () => {
    const withKeywords = await PDFDocument.load(await (await writer({ keywords: ['sha256:a=1', 'sha256:b=2'] })).finish(FOOTER), { updateMetadata: false });
    expect(withKeywords.getTitle()).toBe('A test document');
    expect(withKeywords.getProducer()).toBe('Compliance Console');
    expect(withKeywords.getCreationDate()?.toISOString()).toBe('2026-01-15T10:00:00.000Z');
    expect(withKeywords.getKeywords()).toBe('sha256:a=1 sha256:b=2');
    for (const page of withKeywords.getPages()) expect(page.getSize()).toEqual({ width: 595.28, height: 841.89 });
    const without = await PDFDocument.load(await (await writer({ keywords: [], createdAt: 'not a time' })).finish(FOOTER), { updateMetadata: false });
    expect(without.getKeywords()).toBeUndefined();
    expect(without.getCreationDate()).toBeUndefined();
  });
});
