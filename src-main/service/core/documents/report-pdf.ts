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
import { printable, transliterated } from '../pdf/text';
import { CONTENT_WIDTH, INK, PdfWriter, type Column } from '../pdf/writer';
import { isoDateText, utcInstantText } from '../../../../src-shared/dates';
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
export function reportDate(date: string | null): string {
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
  if (l.list_date) return reportDate(l.list_date);
  return l.retrieval_date ? `${reportDate(l.retrieval_date)} (retrieved)` : 'No date stated';
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
// The report (pages, blocks, tables and footers are the shared writer's: core/pdf/writer.ts)

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

const notAvailable = (value: string): boolean => value === NOT_AVAILABLE;

/** Renders the report; the same input always gives the same bytes. */
export async function renderKycReport(input: KycReportInput): Promise<Uint8Array> {
  const w = await PdfWriter.create({
    title: `KYC screening report ${input.verificationId}`,
    createdAt: input.generatedAt,
    // The full checksum of every list, for a machine to compare (the table prints the first 16 hex digits).
    keywords: input.screening.listsChecked.map((l) => `sha256:${l.source}=${l.sha256}`),
  }, (p, n) => {
    // The first page opens with the full header; later pages with a one-line reminder of whose report it is.
    if (n === 1) p.banner({ title: 'KYC screening report', subtitle: input.organisation, tag: 'CONFIDENTIAL' });
    else p.runningHead('KYC screening report', `Verification ${input.verificationId}`);
    if (input.environment === 'test') p.testBand('Made with a test key: not a live verification.');
  });
  w.newPage();
  metaRows(w, input);

  const { subject, screening, identity } = input;
  w.section('Subject', 60);
  w.fields([
    ['Name', subject.name],
    ['Date of birth', reportDate(subject.dateOfBirth)],
    ['Nationality', subject.nationality ?? NOT_AVAILABLE],
  ], { muted: notAvailable });
  w.note(transliterated(subject.name)
    ? 'As read from the identity document. The name is written in another script there and is shown transliterated to Latin letters.'
    : 'As read from the identity document.');
  w.y -= 12;

  w.section('Screening outcome', 80);
  if (screening.status === 'Cleared') w.pillField('Status', 'Cleared', INK.goodFill, INK.good);
  else w.pillField('Status', 'Potential match \u2014 review required', INK.warnFill, INK.warn);
  w.fields([
    ['Total hits', String(screening.totalHits)],
    ['Screened at', utcInstantText(screening.screenedAt)],
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
    ['Document expiry', reportDate(identity.documentExpiry)],
    ...(identity.reason ? [['Reason', identity.reason] as [string, string]] : []),
    ['Face match', faceMatchText(identity.faceMatch)],
    ['Checks', checksSummary(identityChecks(identity))],
  ], { muted: notAvailable });
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

  return w.finish([
    'Screening signals, not a compliance decision. This report contains no images or raw biometric data.',
    `Verification ${input.verificationId}`,
  ]);
}

function faceMatchText(f: KycReportInput['identity']['faceMatch']): string {
  if (!f) return 'Not compared: no face to compare on the selfie or the document';
  return `${f.isMatch ? 'Match' : 'No match'}: similarity ${oneDecimal(f.similarity)} against threshold ${oneDecimal(f.threshold)}`;
}

/** Verification id, environment and the two times under the header band; then who ran it and who made this report. */
function metaRows(w: PdfWriter, input: KycReportInput): void {
  const testEnv = input.environment === 'test';
  w.cells([
    [
      { label: 'Verification ID', value: input.verificationId, share: 0.4 },
      { label: 'Environment', value: testEnv ? 'Test' : 'Live', share: 0.12, color: testEnv ? INK.warn : INK.ink },
      { label: 'Verified at', value: utcInstantText(input.verifiedAt), share: 0.24 },
      { label: 'Generated at', value: utcInstantText(input.generatedAt), share: 0.24 },
    ],
    [
      { label: 'Verification run by', value: actorText(input.verifiedBy), share: 0.5 },
      { label: 'Report generated by', value: actorText(input.generatedBy), share: 0.5 },
    ],
  ]);
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
