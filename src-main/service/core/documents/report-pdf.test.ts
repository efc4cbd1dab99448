// The screening report as a reader and an auditor see it: the PDF opens, its text says what it
// should (read back with poppler's pdftotext where installed), it carries no images, names in
// any script print, and encryption locks the text behind the password with AES-256.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDict, PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encryptPdf, type KycReportInput, printable, renderKycReport } from './report-pdf';

const PDFTOTEXT = '/usr/bin/pdftotext';
const hasPdftotext = existsSync(PDFTOTEXT);
const PDFTOPPM = '/usr/bin/pdftoppm';
const SECTIONS = ['KYC screening report', 'Subject', 'Screening outcome', 'Matches', 'Identity checks', 'Lists checked'];
const DISCLAIMER = 'Screening signals, not a compliance decision. This report contains no images or raw biometric data.';
const SDN_SHA = 'a3f1c9e07b2d4458e6a1b0c2d3e4f5061728394a5b6c7d8e9f00112233445566';
const EU_SHA = '0b7e2c94d1f35a6b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d';
const UN_SHA = 'ffee00112233445566778899aabbccddeeff00112233445566778899aabbccdd';

/** A synthetic verification; `matches` potential matches with long, wrapping reasons. */
function sampleReport(matches: number, overrides: Partial<KycReportInput> = {}): KycReportInput {
  const records = Array.from({ length: matches }, (_, i) => ({
    name: i % 3 === 0 ? `Ivan Petrovich Sidorov-Kuznetsov ${i + 1}` : `Jonathan Q. Example ${i + 1}`,
    category: i % 4 === 0 ? 'PEP' : 'Sanctions',
    matchScore: 99 - i * 1.5,
    list: i % 2 === 0 ? 'OFAC SDN' : 'EU Consolidated Financial Sanctions List',
    reasons: i % 5 === 0
      ? ['name: exact', 'date of birth: same year', 'nationality: same', 'alias: transliteration variant of the listed primary name']
      : ['name: close (token reordered)', 'date of birth: same year'],
  }));
  return {
    verificationId: 'ver_7hQk2LmX9pR4tW1vZ8nB3cYd',
    environment: 'test',
    organisation: 'Northwind Payments Ltd',
    verifiedAt: '2026-11-20T14:02:11.000Z',
    generatedAt: '2026-11-21T09:30:00.000Z',
    subject: { name: 'Margaret Example-Whitfield', dateOfBirth: '1980-04-12', nationality: 'GBR' },
    screening: {
      status: matches > 0 ? 'Potential Match' : 'Cleared',
      totalHits: matches,
      screenedAt: '2026-11-20T14:02:12.000Z',
      listsChecked: [
        { source: 'us_ofac_sdn', kind: 'sanctions', title: 'OFAC Specially Designated Nationals and Blocked Persons List (SDN)', list_date: '2026-11-20', retrieval_date: null, sha256: SDN_SHA, published_at: '2026-11-20', stale: false },
        { source: 'eu_fsf', kind: 'sanctions', title: 'EU Consolidated Financial Sanctions List', list_date: '2026-11-19', retrieval_date: '2026-11-19', sha256: EU_SHA, published_at: '2026-11-19', stale: false },
        { source: 'un_sc', kind: 'sanctions', title: 'UN Security Council Consolidated List', list_date: null, retrieval_date: '2024-05-03', sha256: UN_SHA, published_at: '2024-05-03', stale: true },
      ],
      records,
    },
    verifiedBy: { kind: 'api_key', name: 'Onboarding backend', prefix: 'svk-Ab12Cd' },
    generatedBy: { kind: 'analyst', email: 'auditor@northwind.example' },
    identity: {
      verified: true, documentType: 'Passport', issuingCountry: 'GBR', documentExpiry: '2031-03-14', reason: null,
      faceMatch: { similarity: 82.4, threshold: 48, isMatch: true },
      checks: [
        { name: 'Selfie accepted', result: 'pass' },
        ...Array.from({ length: 10 }, (_, i) => ({ name: `Document check ${i + 1}`, result: 'pass' as const })),
        { name: 'Printed number matches the MRZ', result: 'not_checked' },
      ],
    },
    ...overrides,
  };
}

/** The text pdftotext reads from PDF bytes (piped in; no file). */
function pdfText(pdf: Uint8Array): string {
  return execFileSync(PDFTOTEXT, ['-layout', '-', '-'], { input: pdf }).toString('utf8');
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('latin1');
}

describe('renderKycReport', () => {
  // What an auditor sees: page 1 rasterised by poppler (as `pdftoppm` renders it to look at), A4,
  // with the dark header band on top, a body that is mostly paper, and text on it.
  it.skipIf(!existsSync(PDFTOPPM))('rasterises to an A4 page with the header band, a light body and printed text', async () => {
    const pdf = await renderKycReport(sampleReport(6));
    const png = execFileSync(PDFTOPPM, ['-png', '-r', '40', '-f', '1', '-l', '1', '-singlefile', '-'], { input: pdf });
    const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect(info.height / info.width).toBeCloseTo(297 / 210, 1);
    const rowMean = (y: number) => {
      let sum = 0;
      for (let x = 0; x < info.width; x++) sum += data[y * info.width + x]!;
      return sum / info.width;
    };
    expect(rowMean(Math.round(info.height * 0.03))).toBeLessThan(100);
    let dark = 0;
    let light = 0;
    for (let i = Math.round(info.height * 0.2) * info.width; i < data.length; i++) {
      if (data[i]! < 128) dark++;
      else light++;
    }
    expect(light / (dark + light)).toBeGreaterThan(0.85);
    expect(dark).toBeGreaterThan(500);
  });

  it('renders a cleared report on at most two pages and a 40-match report over several, without images', async () => {
    const cleared = await renderKycReport(sampleReport(0, { environment: 'live' }));
    const busy = await renderKycReport(sampleReport(40));
    for (const pdf of [cleared, busy]) {
      expect(latin1(pdf.subarray(0, 5))).toBe('%PDF-');
      expect(latin1(pdf)).not.toMatch(/\/Subtype\s*\/Image/);
      const doc = await PDFDocument.load(pdf, { updateMetadata: false });
      expect(doc.getProducer()).toBe('Compliance Console');
      expect(doc.getCreationDate()?.toISOString()).toBe('2026-11-21T09:30:00.000Z');
      expect(doc.getSubject()).toBeUndefined();
      // The one machine field: every list's full checksum.
      expect(doc.getKeywords()).toBe(`sha256:us_ofac_sdn=${SDN_SHA} sha256:eu_fsf=${EU_SHA} sha256:un_sc=${UN_SHA}`);
      for (const page of doc.getPages()) {
        expect(page.getSize()).toEqual({ width: 595.28, height: 841.89 });
        // pdf-lib writes an empty /XObject dictionary on every page: it must stay empty.
        const xobjects = page.node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
        expect(xobjects?.keys() ?? []).toEqual([]);
      }
    }
    // A cleared report: the outcome and the identity checks on page 1, the lists (with their dates and checksums) after.
    expect((await PDFDocument.load(cleared)).getPageCount()).toBeLessThanOrEqual(2);
    expect((await PDFDocument.load(busy)).getPageCount()).toBeGreaterThan(1);
  });

  it('is the same bytes for the same input', async () => {
    const input = sampleReport(3);
    expect(Buffer.from(await renderKycReport(input)).equals(Buffer.from(await renderKycReport(input)))).toBe(true);
  });

  it.skipIf(!hasPdftotext)('reads as a report: sections, subject, outcome, pages, footers', async () => {
    const cleared = pdfText(await renderKycReport(sampleReport(0, { environment: 'live' })));
    for (const s of [...SECTIONS, 'Margaret Example-Whitfield', 'ver_7hQk2LmX9pR4tW1vZ8nB3cYd', 'Page 1 of ', 'Cleared',
      '1980-04-12', 'Northwind Payments Ltd', '2026-11-21 09:30:00 UTC', 'UN Security Council Consolidated List', 'Checks passed 12 of 12']) {
      expect(cleared).toContain(s);
    }
    expect(cleared).not.toContain('TEST ENVIRONMENT');
    expect(cleared).not.toContain('review required');

    const pdf = await renderKycReport(sampleReport(40));
    const pages = (await PDFDocument.load(pdf)).getPageCount();
    const text = pdfText(pdf);
    for (const s of [...SECTIONS, 'Margaret Example-Whitfield', 'Potential match \u2014 review required', 'TEST ENVIRONMENT']) {
      expect(text).toContain(s);
    }
    // Every page has its footer and the table header; the last match made it in.
    const byPage = text.split('\f').filter((p) => p.trim());
    expect(byPage).toHaveLength(pages);
    byPage.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} of ${pages}`);
      expect(page).toContain('ver_7hQk2LmX9pR4tW1vZ8nB3cYd');
      expect(page.replace(/\s+/g, ' ')).toContain(DISCLAIMER);
      expect(page).toContain('TEST ENVIRONMENT');
    });
    const tablePages = byPage.filter((p) => /Jonathan Q\. Example|Sidorov/.test(p));
    expect(tablePages.length).toBeGreaterThan(1);
    for (const p of tablePages) expect(p).toMatch(/#\s+Name\s+Category\s+List\s+Score\s+Reasons/);
    expect(text).toContain('Sidorov-Kuznetsov 40');
    expect(text).toContain('Matches (continued)');
  });

  it.skipIf(!hasPdftotext)('splits a match taller than a page across pages, losing nothing', async () => {
    const input = sampleReport(2);
    const first = input.screening.records[0];
    if (first) first.reasons = Array.from({ length: 90 }, (_, k) => `reason ${k}: an explanation long enough to wrap in its column`);
    const pdf = await renderKycReport(input);
    const text = pdfText(pdf).replace(/\s+/g, ' ');
    for (const k of [0, 45, 89]) expect(text).toContain(`reason ${k}: an explanation`);
    expect((await PDFDocument.load(pdf)).getPageCount()).toBeGreaterThan(2);
  });

  it.skipIf(!hasPdftotext)('names each list by its title with its version date (or retrieval date, said as such) and checksum: no internal ids', async () => {
    const text = pdfText(await renderKycReport(sampleReport(0)));
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('OFAC Specially Designated Nationals and Blocked Persons List (SDN)');
    expect(flat).toContain('EU Consolidated Financial Sanctions List');
    expect(text).toMatch(/2026-11-20\s+a3f1c9e07b2d4458\.\.\./);
    expect(text).toMatch(/2026-11-19\s+0b7e2c94d1f35a6b\.\.\./);
    expect(flat).toMatch(/2024-05-03 (ffee001122334455\.\.\. )?\(retrieved\) \(out of date\)/);
    expect(flat).toContain('"retrieved" where it states none');
    // The stale list (ListVersion.stale) is marked, and the mark explained; the others are not.
    expect(flat.match(/\(out of date\)/g)).toHaveLength(1);
    expect(flat).toContain('Out of date: older than the organisation\'s freshness window');
    expect(text).not.toContain(SDN_SHA);
    expect(text).not.toMatch(/us_ofac_sdn|eu_fsf|un_sc|Version not stated/);
  });

  it.skipIf(!hasPdftotext)('never leaves the lists table\'s header alone at the foot of a page, wherever the table starts', async () => {
    // The table starts lower with each match and each line of reason; its first row is a retrieved list (two lines).
    for (let matches = 0; matches <= 8; matches++) {
      for (let lines = 0; lines <= 8; lines++) {
        const input = sampleReport(matches);
        input.screening.listsChecked.reverse();
        input.identity.reason = lines ? Array.from({ length: lines * 5 }, () => 'words that wrap').join(' ') : null;
        const pages = pdfText(await renderKycReport(input)).split('\f');
        for (const page of pages.filter((p) => /List\s+Version date\s+SHA-256/.test(p))) {
          expect(page, `${matches} matches, ${lines} lines`).toMatch(/[0-9a-f]{16}\.\.\./);
        }
      }
    }
  });

  it.skipIf(!hasPdftotext)('names every failed check, the face match\'s similarity against its threshold, and what was not checked', async () => {
    const input = sampleReport(0);
    input.identity = {
      ...input.identity, verified: false, reason: 'The selfie does not match the face on the ID document',
      faceMatch: { similarity: 41, threshold: 48, isMatch: false },
      checks: [
        { name: 'Selfie accepted', result: 'pass' },
        { name: 'Not expired', result: 'fail' },
        ...Array.from({ length: 11 }, (_, i) => ({ name: `Document check ${i + 1}`, result: 'pass' as const })),
        { name: 'Printed number matches the MRZ', result: 'not_checked' },
      ],
    };
    const flat = pdfText(await renderKycReport(input)).replace(/\s+/g, ' ');
    expect(flat).toContain('Checks passed 12 of 14. Failed: Face match (similarity 41.0, threshold 48.0); Not expired. Not checked: Printed number matches the MRZ.');
    expect(flat).toContain('Face match No match: similarity 41.0 against threshold 48.0');
    expect(flat).toContain('Reason The selfie does not match the face on the ID document');

    input.identity = { ...input.identity, faceMatch: null };
    const none = pdfText(await renderKycReport(input)).replace(/\s+/g, ' ');
    expect(none).toContain('Not compared: no face to compare');
    expect(none).toMatch(/Not checked: Face match; Printed number/);
  });

  it.skipIf(!hasPdftotext)('says which key ran the verification and who generated the report, never more of a key than its prefix', async () => {
    const flat = pdfText(await renderKycReport(sampleReport(0))).replace(/\s+/g, ' ');
    expect(flat).toContain('Verification run by Report generated by API key "Onboarding backend" (svk-Ab12Cd...) Analyst auditor@northwind.example');
    const byKey = sampleReport(0, { generatedBy: { kind: 'api_key', name: 'Audit exports', prefix: 'svk-Zz99Yy' } });
    expect(pdfText(await renderKycReport(byKey)).replace(/\s+/g, ' ')).toContain('API key "Audit exports" (svk-Zz99Yy...)');
  });

  it.skipIf(!hasPdftotext)('prints every date as YYYY-MM-DD and every time as YYYY-MM-DD HH:MM:SS UTC, whatever style it came in', async () => {
    const input = sampleReport(3, {
      subject: { name: 'Margaret Example-Whitfield', dateOfBirth: '04/12/1980', nationality: 'GBR' },
    });
    input.identity.documentExpiry = '03/14/2031';
    const text = pdfText(await renderKycReport(input));
    expect(text).toContain('1980-04-12');
    expect(text).toContain('2031-03-14');
    for (const t of ['2026-11-20 14:02:11 UTC', '2026-11-21 09:30:00 UTC', '2026-11-20 14:02:12 UTC']) expect(text).toContain(t);
    // No other style anywhere: no slashed dates, month names, or times without their zone.
    expect(text).not.toMatch(/\d{1,2}\/\d{1,2}\/\d{2,4}/);
    expect(text).not.toMatch(/\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{4}|\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{1,2},? \d{4}/);
    expect(text).not.toMatch(/\d{2}:\d{2}:\d{2}(?! UTC)/);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });

  it('prints names in any script, transliterated where Helvetica has no letters for them', async () => {
    const names = ['Łukasz Żółć', 'Владимир Путин', '李小龍', 'José Müller', 'محمد بن سلمان', 'Ζωή 😀\u0000\tTab'];
    const input = sampleReport(names.length);
    input.subject.name = 'Владимир Путин';
    input.organisation = 'Żabka Polska sp. z o.o.';
    input.screening.records.forEach((r, i) => { r.name = names[i] ?? r.name; r.reasons = [`alias: ${names[i]}`]; });
    const pdf = await renderKycReport(input);
    expect(latin1(pdf.subarray(0, 5))).toBe('%PDF-');

    // What printable keeps, Helvetica can encode.
    const font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    for (const name of names) expect(() => font.encodeText(printable(name))).not.toThrow();
    expect(printable('Łukasz Żółć')).toBe('Lukasz Zólc');
    expect(printable('Владимир Путин')).toBe('Vladimir Putin');
    expect(printable('李小龍')).toBe('LiXiaoLong');
    expect(printable('José Müller')).toBe('José Müller');

    if (hasPdftotext) {
      const text = pdfText(pdf);
      for (const s of ['Vladimir Putin', 'Lukasz Zólc', 'LiXiaoLong', 'José Müller', 'Zabka Polska', 'transliterated']) {
        expect(text).toContain(s);
      }
    }
  });
});

describe('encryptPdf', () => {
  it('locks the report behind the password with AES-256', async () => {
    const plain = await renderKycReport(sampleReport(2));
    const locked = await encryptPdf(plain, 'correct horse');
    const raw = latin1(locked);
    expect(raw.slice(0, 5)).toBe('%PDF-');
    expect(raw).toMatch(/\/Encrypt\s+\d+\s+0\s+R/);
    // The encryption dictionary (never itself encrypted): the standard security handler's AES-256
    // revision, V 5 and R 6, with AESV3 for streams and strings.
    const dict = /obj\s*(<<(?:(?!endobj)[^])*\/Filter\s*\/Standard(?:(?!endobj)[^])*)endobj/.exec(raw)?.[1] ?? '';
    expect(dict).toMatch(/\/V\s+5\b/);
    expect(dict).toMatch(/\/R\s+6\b/);
    expect(dict).toMatch(/\/CFM\s*\/AESV3/);
    expect(dict).toMatch(/\/StmF\s*\/StdCF/);
    expect(raw).not.toContain('Margaret');
    await expect(PDFDocument.load(locked)).rejects.toThrow(/encrypted/i);
  });

  it.skipIf(!hasPdftotext)('opens with the password and not without it', async () => {
    const locked = await encryptPdf(await renderKycReport(sampleReport(2)), 'correct horse');
    // pdftotext reads an encrypted PDF only from a file; synthetic data only, removed afterwards.
    const dir = mkdtempSync(join(tmpdir(), 'kyc-report-test-'));
    try {
      const file = join(dir, 'report.pdf');
      writeFileSync(file, locked);
      const text = execFileSync(PDFTOTEXT, ['-upw', 'correct horse', file, '-']).toString('utf8');
      expect(text).toContain('Margaret Example-Whitfield');
      expect(text).toContain('KYC screening report');
      expect(() => execFileSync(PDFTOTEXT, [file, '-'], { stdio: 'pipe' })).toThrow();
      expect(() => execFileSync(PDFTOTEXT, ['-upw', 'battery staple', file, '-'], { stdio: 'pipe' })).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('encrypts again and again on the one qpdf instance, also when called at once, and leaves process.exitCode alone', async () => {
    const plain = await renderKycReport(sampleReport(1));
    const first = await encryptPdf(plain, 'first password');
    const second = await encryptPdf(plain, 'second password');
    const together = await Promise.all([encryptPdf(plain, 'a'), encryptPdf(plain, 'b'), encryptPdf(plain, '-@odd password')]);
    for (const locked of [first, second, ...together]) {
      expect(latin1(locked.subarray(0, 5))).toBe('%PDF-');
      expect(latin1(locked)).toContain('/Encrypt');
    }
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(false);
    expect(process.exitCode).toBeUndefined();
  });

  it('fails on input that is not a PDF, and works afterwards', async () => {
    await expect(encryptPdf(new TextEncoder().encode('not a pdf'), 'pw')).rejects.toThrow(/qpdf could not encrypt/);
    expect(process.exitCode).toBeUndefined();
    await expect(encryptPdf(await renderKycReport(sampleReport(0)), '')).rejects.toThrow(/non-empty password/);
    const locked = await encryptPdf(await renderKycReport(sampleReport(0)), 'pw');
    expect(latin1(locked)).toContain('/Encrypt');
  });
});
