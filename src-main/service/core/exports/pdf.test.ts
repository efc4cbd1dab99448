// The report export PDF as a reader sees it (pdftotext where installed): title, organisation,
// period, environment, figures, "Page n of m", table headers repeated on every page a table runs
// over, the V2.1 sections, the credits section only for those who may see credits, and the logo.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ReportType } from '../../../../src-shared/contracts/reports';
import { fixtureBundle } from '../../test/fixtures/report-bundle';
import { renderReportPdf, type ReportPdfInput } from './pdf';
import { screeningVolumeText } from '../../../../src-shared/counting';

const hasPdftotext = existsSync('/usr/bin/pdftotext');

function input(over: Partial<ReportPdfInput> = {}): ReportPdfInput {
  return {
    exportId: 42, reportType: 'full-v21', env: 'live', from: '2026-01-01', to: '2026-03-31', generatedAt: '2026-04-01T08:15:00.000Z',
    organisation: { name: 'Northwind Payments Ltd', logo_png: null }, bundle: fixtureBundle(), ...over,
  };
}

function pages(pdf: Uint8Array): string[] {
  return execFileSync('/usr/bin/pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8').split('\f').filter((p) => p.trim());
}

describe('renderReportPdf', () => {
  it('an A4 report whose pages each say Page n of m', async () => {
    const pdf = await renderReportPdf(input());
    const doc = await PDFDocument.load(pdf);
    const n = doc.getPageCount();
    expect(n).toBeGreaterThanOrEqual(3);
    for (const p of doc.getPages()) expect(p.getSize()).toEqual({ width: 595.28, height: 841.89 });
    expect(doc.getTitle()).toBe('Enterprise analytics report (V2.1) \u2014 Northwind Payments Ltd');
    if (!hasPdftotext) return;
    const text = pages(pdf);
    expect(text).toHaveLength(n);
    text.forEach((p, i) => expect(p).toContain(`Page ${i + 1} of ${n}`));
    const all = text.join('\n');
    for (const s of [
      'Enterprise analytics report (V2.1)', 'Northwind Payments Ltd', '2026-01-01 \u2013 2026-03-31 (90 days)', 'Live', '2026-04-01 08:15:00 UTC',
      'COMPLIANCE SCORE', '87.3', '11,267', 'Verification volume', 'Product mix', 'Risk severity', 'Period comparison', '+412', '-1.4 pts',
      'Health checks', 'CRITICAL', 'WARNING', 'Credits run out in about 6 days', 'Usage by API key', 'Failure reasons', 'FACE NOT DETECTED', 'Error rate',
      'Widget performance', 'Regulatory coverage', 'Days until depletion',
    ]) expect(all, s).toContain(s);
    // A list check is not "passed": its rate is named for what it measures (issue 38).
    const coverage = all.slice(all.indexOf('Regulatory coverage'));
    expect(coverage).toMatch(/CHECKS CLEAR/);
    expect(coverage).not.toMatch(/\.\.\./);
    expect(coverage.slice(0, 400)).not.toMatch(/pass rate/i);
  });

  it('a long table repeats its header on every page it runs over', async () => {
    const keyNames = Array.from({ length: 140 }, (_, i) => `Store ${i + 1}`);
    const pdf = await renderReportPdf(input({ reportType: 'usage', bundle: { usage: fixtureBundle({ keyNames }).usage } }));
    if (!hasPdftotext) return;
    const text = pages(pdf);
    expect(text.length).toBeGreaterThanOrEqual(4);
    const withRows = text.filter((p) => /Store \d+/.test(p));
    expect(withRows.length).toBeGreaterThanOrEqual(3);
    for (const p of withRows) expect(p).toMatch(/API key\s+Key id\s+Verifications\s+Pass rate/);
    expect(text.filter((p) => p.includes('Usage by API key (continued)')).length).toBe(withRows.length - 1);
    expect(text.join('\n')).toContain('Store 140');
  });

  it('prints a long key name and list name in full: table cells wrap, nothing is cut', async () => {
    const name = 'A very long API key name that goes on and on beyond its column width';
    const lists = [{ source: 'a_user_list_with_a_rather_long_name_that_will_not_fit_in_its_column', kind: 'pep' as const, list_date: null, retrieval_date: null, sha256: 'ab'.repeat(32), published_at: '2025-05', stale: false }];
    const pdf = await renderReportPdf(input({ reportType: 'usage', bundle: { usage: fixtureBundle({ keyNames: [name, 'Short'] }).usage }, lists }));
    if (!hasPdftotext) return;
    const all = pages(pdf).join('\n');
    for (const word of name.split(' ')) expect(all).toContain(word);
    expect(all).toMatch(/beyond its column width/);
    // In drawing order (-raw) a wrapped cell's lines follow each other.
    const raw = execFileSync('/usr/bin/pdftotext', ['-raw', '-', '-'], { input: pdf }).toString('utf8');
    expect(raw.replace(/\s+/g, '')).toContain(lists[0]!.source);
    expect(all).not.toContain('...');
    // A list dated by its month is printed as its month.
    expect(all).toMatch(/PEP\s+2025-05\s/);
  });

  it.skipIf(!hasPdftotext)('a summary tile\'s line under its figure wraps rather than being cut (issue 38)', async () => {
    const b = fixtureBundle();
    const s = b.overview!.screening;
    const raw = execFileSync('/usr/bin/pdftotext', ['-raw', '-', '-'], { input: await renderReportPdf(input()) }).toString('utf8');
    expect(raw.replace(/\s+/g, ' ')).toContain(screeningVolumeText(s));
    expect(raw).not.toContain('\u2026');
  });

  it.skipIf(!hasPdftotext)('prints every date as YYYY-MM-DD and every time as YYYY-MM-DD HH:MM:SS UTC: no US or month-name dates (issue 26)', async () => {
    const lists = [
      { source: 'us_ofac_sdn', kind: 'sanctions' as const, list_date: '2026-03-02', retrieval_date: null, sha256: 'ab'.repeat(32), published_at: '2026-03-02', stale: false },
      { source: 'pep_list', kind: 'pep' as const, list_date: null, retrieval_date: null, sha256: 'cd'.repeat(32), published_at: '2025-05', stale: true },
    ];
    // Days that read differently as MM/DD and DD/MM: 2 Jan to 1 Feb.
    const all = pages(await renderReportPdf(input({ from: '2026-01-02', to: '2026-02-01', lists }))).join('\n');
    expect(all).toContain('2026-01-02 \u2013 2026-02-01 (31 days)');
    expect(all).toContain('2026-04-01 08:15:00 UTC');
    expect(all).toMatch(/Sanctions\s+2026-03-02\s/);
    expect(all).not.toMatch(/\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b/);
    expect(all).not.toMatch(/\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{4}|\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{1,2},? \d{4}/);
  });

  it('says when the credits section was left out for the maker\'s role', async () => {
    const pdf = await renderReportPdf(input({ bundle: fixtureBundle({ credits: false }) }));
    if (!hasPdftotext) return;
    const all = pages(pdf).join('\n');
    expect(all).not.toContain('Days until depletion');
    expect(all).toContain('The credits section is shown only in exports made by an owner, an admin or a member with the billing permission.');
  });

  it('marks test-environment reports on every page', async () => {
    const pdf = await renderReportPdf(input({ env: 'test', reportType: 'overview', bundle: { overview: fixtureBundle().overview } }));
    if (!hasPdftotext) return;
    for (const p of pages(pdf)) expect(p).toContain('TEST ENVIRONMENT');
  });

  it('draws the organisation\'s logo, and leaves out one that is not a PNG', async () => {
    const logo = new Uint8Array(await sharp({ create: { width: 240, height: 80, channels: 3, background: { r: 20, g: 90, b: 160 } } }).png().toBuffer());
    const withLogo = await renderReportPdf(input({ organisation: { name: 'Northwind', logo_png: logo } }));
    const without = await renderReportPdf(input({ organisation: { name: 'Northwind', logo_png: null } }));
    expect(withLogo.byteLength).toBeGreaterThan(without.byteLength);
    const bad = await renderReportPdf(input({ organisation: { name: 'Northwind', logo_png: new Uint8Array([1, 2, 3]) } }));
    expect(bad.byteLength).toBe(without.byteLength);
  });

  it('renders every report type from its own sections, an empty period included', async () => {
    const b = fixtureBundle({ days: 7 });
    const parts: Record<ReportType, Parameters<typeof renderReportPdf>[0]['bundle']> = {
      overview: { overview: b.overview }, volume: { volume: { series: [], totals: { total: 0, pass: 0, fail: 0 } } }, usage: { usage: b.usage },
      'risk-summary': { risk_summary: b.risk_summary }, 'widget-performance': { widget_performance: b.widget_performance }, full: b,
      'verification-v21': { v21_verification: b.v21_verification }, 'full-v21': { v21_verification: b.v21_verification, v21_full: b.v21_full },
    };
    for (const [reportType, bundle] of Object.entries(parts)) {
      const pdf = await renderReportPdf(input({ reportType: reportType as ReportType, bundle }));
      expect((await PDFDocument.load(pdf)).getPageCount(), reportType).toBeGreaterThanOrEqual(1);
    }
    if (hasPdftotext) {
      expect(pages(await renderReportPdf(input({ reportType: 'volume', bundle: parts.volume }))).join('\n')).toContain('No verifications in this period.');
    }
  });
});
