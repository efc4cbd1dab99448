// Identity, KYC-plus and the KYC report, on the real document reader (a child process) and the
// real face models, with specimen documents rendered by code.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { AgeIdResponse, AgeSelfieResponse } from '../../../../src-shared/contracts/age';
import type { ComplianceResult, IdentityResult, ReportResult } from '../../../../src-shared/contracts/documents';
import { closeAll, testService, type TestService } from '../harness';
import { degrade, HOLDERS, mrzLines, renderSpecimen, type Holder, type SpecimenOptions } from '../document-fixtures';
import * as fx from '../face-fixtures';
import { isOfficialSource, SOURCE_INFO } from '../../core/screening/lists/sources';
import { recordedModels } from '../recorded-models';
import { THRESHOLD_SIMILARITY } from '../../core/faces/match';

// The flows around the models are this file's subject: their outputs replay from a recording.
const models = recordedModels('documents');

afterAll(closeAll);

let t: TestService;
let key: { id: string; api_key: string; secret: string };
/** Live keys pay; test keys never do. */
let live: { id: string; api_key: string; secret: string };
beforeAll(async () => {
  t = await testService({ plan: 'pro', models });
  key = await t.key({ scopes: ['identity', 'compliance'] });
  live = await t.key({ env: 'live', scopes: ['identity', 'compliance'] });
  await t.grant(1000);
  await t.s.webhooks.create({ orgId: t.orgId, url: 'https://receiver.example/hooks', env: 'live', events: ['compliance.completed', 'compliance.hit_detected', 'compliance.report_ready'], createdBy: null });
}, 60_000);

const b64 = (b: Buffer) => b.toString('base64');
const doc = async (h: Holder, o: SpecimenOptions = {}, how: Parameters<typeof degrade>[1] = 'clean') => b64(await degrade(await renderSpecimen(h, o), how));
const submit = (body: Record<string, unknown>, k = key.api_key) =>
  t.json<IdentityResult & Record<string, unknown>>('POST', '/api/identity/v1/submit', { key: k, body });
/** A report PDF's text in drawing order (poppler's pdftotext -raw: a wrapped table cell stays together), piped: no file. */
const reportText = (pdfBase64: string) =>
  execFileSync('pdftotext', ['-raw', '-', '-'], { input: Buffer.from(pdfBase64, 'base64') }).toString('utf8').replace(/\s+/g, ' ');
const ledger = () => t.s.db.prepare('SELECT * FROM verifications ORDER BY created_at').all() as Record<string, unknown>[];

describe('POST /api/identity/v1/submit', () => {
  const erika = HOLDERS[1]!;

  it('verifies a selfie against its passport: document data as read, every check named, 30 credits, a ledger row without subject data', async () => {
    const before = (await t.s.credits.balance(t.orgId));
    const { status, body, res } = await submit({
      selfie_b64: b64(await fx.selfie('b')), id_front_b64: await doc(erika, { kind: 'td3' }), name: 'Erika Mustermann', date_of_birth: '1964-08-12',
    }, live.api_key);
    expect(status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(body.verified).toBe(true);
    expect(body.document_data).toEqual({
      name: 'ERIKA MUSTERMANN', date_of_birth: '08/12/1964', document_type: 'passport', document_number: 'C01X00T47',
      expiry_date: '10/31/2030', issuing_country: 'DEU', nationality: 'DEU', sex: 'F',
    });
    expect(body.mrz!.lines).toEqual(mrzLines(erika, 'td3'));
    expect(body.review).toEqual([]);
    expect(body.face_match.is_match).toBe(true);
    expect(body.authenticity.is_genuine).toBe(true);
    expect(body.authenticity.checks.map((c) => c.check)).toEqual(expect.arrayContaining(['mrz_found', 'check_digit_composite', 'not_expired', 'printed_name_matches_mrz', 'portrait_face_present']));
    expect(body.claims).toEqual([
      { field: 'name', result: 'match', detail: expect.any(String) },
      { field: 'date_of_birth', result: 'match', detail: expect.any(String) },
    ]);
    expect(body.credits_consumed).toBe(30);
    expect((await t.s.credits.balance(t.orgId))).toBe(before - 30);
    const row = ledger().find((r) => r.id === body.verification_id)!;
    expect(row).toMatchObject({ product: 'identity', status: 'PASS' });
    expect(JSON.stringify(row)).not.toMatch(/MUSTERMANN|C01X00T47|1964/);
  }, 60_000);

  it('answers a different face as not verified (face_mismatch), and a claimed name that differs as a mismatch without echoing it', async () => {
    const { body } = await submit({ selfie_b64: b64(await fx.selfie('c')), id_front_b64: await doc(erika, { kind: 'td1' }), name: 'Zebulon Quartermaine' });
    expect(body.verified).toBe(false);
    expect(body.failure_reason).toBe('face_mismatch');
    expect(body.face_match.is_match).toBe(false);
    expect(body.claims).toEqual([{ field: 'name', result: 'mismatch', detail: expect.any(String) }]);
    expect(JSON.stringify(body)).not.toContain('Zebulon');
  }, 60_000);

  it('fails an expired document, a wrong check digit and a printed name that differs from the MRZ, each by its named check; a printed date one digit off is reviewed', async () => {
    const expired = await submit({ selfie_b64: b64(await fx.selfie('b')), id_front_b64: await doc({ ...HOLDERS[9]!, face: 'b' }) });
    expect(expired.body.failure_reason).toBe('document_expired');
    expect(expired.body.authenticity.checks.find((c) => c.check === 'not_expired')!.result).toBe('fail');

    const digit = await submit({ selfie_b64: b64(await fx.selfie('b')), id_front_b64: await doc(erika, { badCheckDigit: true }) });
    expect(digit.body.authenticity.is_genuine).toBe(false);
    expect(digit.body.verified).toBe(false);
    // The printed number confirms the zone's as read, so its failing digit is the document's, not a misreading.
    expect(digit.body.failure_reason).toBe('document_inconsistent');

    const edited = await submit({ selfie_b64: b64(await fx.selfie('b')), id_front_b64: await doc(erika, { vizMismatch: true }) });
    expect(edited.body.verified).toBe(false);
    const failed = edited.body.authenticity.checks.filter((c) => c.result === 'fail').map((c) => c.check);
    expect(failed).toEqual(['printed_name_matches_mrz']);
    // The printed year edited by three (one digit apart, as a misreading would be) is named for review, not failed.
    expect(edited.body.authenticity.checks.find((c) => c.check === 'printed_date_of_birth_matches_mrz')!.result).toBe('not_checked');
    expect(edited.body.review).toContainEqual(expect.objectContaining({ field: 'date_of_birth', reason: 'printed_differs' }));
  }, 120_000);

  it('flags a printed surname a letter away from the MRZ\'s for review (names carry no check digit): not verified, the MRZ\'s reading answered, both readings given; age by the same ID still verifies', async () => {
    const id = await doc(erika, { printedSurname: 'MUSTERNANN' });
    const { body } = await submit({ selfie_b64: b64(await fx.selfie('b')), id_front_b64: id });
    expect(body).toMatchObject({ verified: false, failure_reason: 'document_needs_review' });
    expect(body.error).not.toMatch(/MUSTER/);
    expect(body.document_data!.name).toBe('ERIKA MUSTERMANN');
    expect(body.review).toEqual([{ field: 'surname', reason: 'printed_differs', mrz: 'MUSTERMANN', printed: 'MUSTERNANN', detail: expect.any(String) }]);
    expect(body.mrz!.printed).toContainEqual({ field: 'surname', agreement: 'review' });
    expect(body.authenticity.is_genuine).toBe(true);
    expect(body.authenticity.checks.find((c) => c.check === 'printed_name_matches_mrz')!.result).toBe('not_checked');
    expect((await t.s.ledger.get(body.verification_id))).toMatchObject({ status: 'FAIL', error_code: 'document_needs_review' });

    // An age check takes only the date of birth from the document, which its check digit decides.
    const age = await t.json<AgeIdResponse>('POST', '/api/v1/verify-age/step3', {
      key: (await t.key({ scopes: ['age'] })).api_key, body: { image_selfie_b64: b64(await fx.selfie('b')), image_id_b64: id, min_age: 21, use_case: 'custom' },
    });
    expect(age.body).toMatchObject({ verified: true, dob: '08/12/1964' });
  }, 120_000);

  it('reads holders born 1927 and 1936 whose pages print two-digit years (27, 36) as the MRZ does, with an expiry in 2027', async () => {
    const saved = t.clock.now();
    t.clock.set(Date.UTC(2026, 5, 1, 12));
    try {
      const elder: Holder = { ...erika, dob: '1927-03-01', expiry: '2027-02-28', issued: '2017-03-01' };
      const passport = await submit({ selfie_b64: b64(await fx.selfie('b')), id_front_b64: await doc(elder, { twoDigitYears: true }), date_of_birth: '1927-03-01' });
      expect(passport.body).toMatchObject({ verified: true, document_data: { date_of_birth: '03/01/1927', expiry_date: '02/28/2027' } });
      expect(passport.body.authenticity.checks.find((c) => c.check === 'printed_date_of_birth_matches_mrz')!.result).toBe('pass');
      expect(passport.body.claims).toEqual([{ field: 'date_of_birth', result: 'match', detail: expect.any(String) }]);

      const card: Holder = { ...erika, dob: '1936-12-31', expiry: '2027-01-15', issued: '2017-01-16' };
      const age = await t.json<AgeIdResponse>('POST', '/api/v1/verify-age/step3', {
        key: (await t.key({ scopes: ['age'] })).api_key,
        body: { image_selfie_b64: b64(await fx.selfie('b')), image_id_b64: await doc(card, { kind: 'td1', twoDigitYears: true }), min_age: 21, use_case: 'custom' },
      });
      expect(age.body).toMatchObject({ verified: true, dob: '12/31/1936', actual_age: 89 });
      expect(age.body.authenticity!.checks.find((c) => c.check === 'printed_date_of_birth_matches_mrz')!.result).toBe('pass');
    } finally {
      t.clock.set(saved);
    }
  }, 120_000);

  it('sends a holder born 1917 (17 in the zone, 1917 printed) to review, identity and age alike: two digits cannot tell the century', async () => {
    const id = await doc({ ...erika, dob: '1917-03-29' });
    const { body } = await submit({ selfie_b64: b64(await fx.selfie('b')), id_front_b64: id });
    expect(body).toMatchObject({ verified: false, failure_reason: 'document_needs_review', document_data: { date_of_birth: '03/29/2017' } });
    expect(body.review).toEqual([expect.objectContaining({ field: 'date_of_birth', mrz: '03/29/2017', printed: '03/29/1917' })]);
    expect(body.mrz!.printed).toContainEqual({ field: 'date_of_birth', agreement: 'review' });
    const age = await t.json<AgeIdResponse>('POST', '/api/v1/verify-age/step3', {
      key: (await t.key({ scopes: ['age'] })).api_key, body: { image_selfie_b64: b64(await fx.selfie('b')), image_id_b64: id, min_age: 21, use_case: 'custom' },
    });
    expect(age.body).toMatchObject({ verified: false, reason: 'document_needs_review' });
  }, 120_000);

  it('answers an image that is no document as unreadable, and a broken image as 400 naming the field (not billed)', async () => {
    const selfie = b64(await fx.selfie('a'));
    const unreadable = await submit({ selfie_b64: selfie, id_front_b64: selfie });
    expect(unreadable.body).toMatchObject({ verified: false, failure_reason: 'document_unreadable', document_data: null });
    const before = (await t.s.credits.balance(t.orgId));
    const broken = await submit({ selfie_b64: selfie, id_front_b64: b64(await fx.truncated()) });
    expect(broken.status).toBe(400);
    expect(JSON.stringify(broken.body)).toContain('id_front_b64');
    expect((await t.s.credits.balance(t.orgId))).toBe(before);
    const badDate = await submit({ selfie_b64: selfie, id_front_b64: selfie, date_of_birth: '12.08.1964' });
    expect(badDate.status).toBe(400);
    expect(JSON.stringify(badDate.body)).not.toContain('12.08.1964');
  }, 60_000);

  it('needs a key with the identity scope', async () => {
    const other = await t.key({ scopes: ['human'] });
    const selfie = b64(await fx.selfie('a'));
    const wrong = await submit({ selfie_b64: selfie, id_front_b64: selfie }, other.api_key);
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('API key does not have the required scope');
    expect((await submit({ selfie_b64: selfie, id_front_b64: selfie }, 'svk-' + 'x'.repeat(32))).status).toBe(401);
  });

  it('a crashed reader fails only its request (503, not billed); the next request gets a fresh reader', async () => {
    // The reader process itself is the subject: nothing replayed.
    models.live = true;
    onTestFinished(() => {
      models.live = false;
    });
    // A loaded reader, so the crash lands on the read and not on the models loading.
    t.s.documents.start();
    await expect.poll(() => t.s.documents.stats().ready, { timeout: 60_000 }).toBe(true);
    const before = (await t.s.credits.balance(t.orgId));
    const pending = submit({ selfie_b64: b64(await fx.selfie('b')), id_front_b64: await doc(erika) });
    setTimeout(() => t.s.documents.crash(), 400);
    const crashed = await pending;
    expect(crashed.status).toBe(503);
    expect(crashed.body).toMatchObject({ code: 'DOCUMENT_READER_FAILED' });
    expect((await t.s.credits.balance(t.orgId))).toBe(before);
    const next = await submit({ selfie_b64: b64(await fx.selfie('b')), id_front_b64: await doc(erika) });
    expect(next.body.verified).toBe(true);
  }, 90_000);
});

describe('POST /api/kyc/v1/submit_plus and generate_report', () => {
  it('screens the document holder: a listed person is a Potential Match (not verified); the report PDF holds the hit and no image, and can be encrypted', async () => {
    const listed: Holder = { surname: 'PUTIN', given: 'VLADIMIR VLADIMIROVICH', dob: '1952-10-07', sex: 'M', nationality: 'RUS', issuing: 'RUS', number: '720000001', expiry: '2031-01-01', issued: '2021-01-02', face: 'c' };
    const { status, body } = await t.json<ComplianceResult>('POST', '/api/kyc/v1/submit_plus', {
      key: live.api_key, body: { selfie_b64: b64(await fx.selfie('c')), id_front_b64: await doc(listed) },
    });
    expect(status).toBe(200);
    expect(body.compliance_screening.status).toBe('Potential Match');
    expect(body.compliance_screening.total_hits).toBeGreaterThan(0);
    expect(body.compliance_screening.found_records![0]).toMatchObject({ name: expect.stringMatching(/PUTIN/i), category: 'Sanctions' });
    // The identity itself verifies: the hit alone makes it unverified.
    expect(body.face_match.is_match).toBe(true);
    expect(body.authenticity.is_genuine).toBe(true);
    expect(body).toMatchObject({ verified: false, failure_reason: 'screening_hit' });
    expect(body.credits_consumed).toBe(50);
    const events = t.s.db.prepare("SELECT type, payload FROM webhook_events WHERE type LIKE 'compliance.%'").all() as { type: string; payload: string }[];
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['compliance.completed', 'compliance.hit_detected']));
    expect(events.map((e) => e.payload).join()).not.toMatch(/PUTIN|1952|720000001/i);

    // Another environment's key cannot have it; another key of the same organisation and environment can.
    expect((await t.json('POST', '/api/kyc/v1/generate_report', { key: key.api_key, body: { verification_id: body.verification_id } })).status).toBe(404);
    const auditor = await t.key({ env: 'live', scopes: ['compliance'] });
    const report = await t.json<ReportResult>('POST', '/api/kyc/v1/generate_report', { key: auditor.api_key, body: { verification_id: body.verification_id } });
    expect(report.status).toBe(200);
    expect(report.res.headers.get('cache-control')).toBe('no-store');
    const pdf = Buffer.from(report.body.pdf_base64, 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).not.toContain('/Subtype /Image');
    expect(report.body).toMatchObject({ success: true, encrypted: false, size_bytes: pdf.length });

    const text = reportText(report.body.pdf_base64);
    // Each list by its title, its version date (or its retrieval date, said so) and the start of its checksum.
    const lists = (await t.s.screening.ready())!.versions;
    expect(lists.length).toBeGreaterThan(0);
    for (const v of lists) {
      const title = isOfficialSource(v.source) ? SOURCE_INFO[v.source].title : v.source;
      const date = v.list_date ?? `${v.retrieval_date} (retrieved)`;
      // Lists older than the organisation's window are marked "(out of date)" after their date.
      expect(text).toMatch(new RegExp(`${escapeRe(title)} ${escapeRe(date)}( \\(out of date\\))? ${v.sha256.slice(0, 16)}\\.\\.\\.`));
    }
    expect(text).not.toMatch(/Version not stated|us_ofac_sdn/);
    // Every check counted, the face match with its similarity against the threshold.
    const checks = body.authenticity.checks.filter((c) => c.result !== 'not_checked').length + 2;
    expect(text).toContain(`Checks passed ${checks} of ${checks}.`);
    expect(text).toContain(`Face match Match: similarity ${body.face_match.similarity.toFixed(1)} against threshold ${THRESHOLD_SIMILARITY.toFixed(1)}`);
    // Who ran it and who asked for the report: key names and public prefixes, never a key or secret.
    expect(text).toContain(`Verification run by API key "test" (${live.api_key.slice(0, 10)}...) Report generated by API key "test" (${auditor.api_key.slice(0, 10)}...)`);
    for (const k of [live, auditor]) for (const v of [k.api_key, k.secret, k.api_key.slice(10)]) expect(text).not.toContain(v);
    // One date style: the document's dates and every instant.
    expect(text).toContain('Date of birth 1952-10-07');
    expect(text).toContain('Document expiry 2031-01-01');
    expect(text).not.toMatch(/\d{2}\/\d{2}\/\d{4}/);
    expect(text).toContain(`${body.timestamp.slice(0, 19).replace('T', ' ')} UTC`);

    const locked = await t.json<ReportResult>('POST', '/api/kyc/v1/generate_report', { key: live.api_key, body: { verification_id: body.verification_id, report_password: 'auditor 2026' } });
    expect(locked.body.encrypted).toBe(true);
    expect(Buffer.from(locked.body.pdf_base64, 'base64').toString('latin1')).toContain('/Encrypt');
  }, 90_000);

  it('answers 404 for an unknown verification, and REPORT_UNAVAILABLE once the 30-minute window has passed', async () => {
    const unknown = await t.json('POST', '/api/kyc/v1/generate_report', { key: key.api_key, body: { verification_id: 'kyc_nope' } });
    expect(unknown.status).toBe(404);
    const { body } = await t.json<ComplianceResult>('POST', '/api/kyc/v1/submit_plus', {
      key: key.api_key, body: { selfie_b64: b64(await fx.selfie('b')), id_front_b64: await doc(HOLDERS[1]!) },
    });
    expect(body.compliance_screening.status).toBe('Cleared');
    expect(body.verified).toBe(true);
    t.clock.advance(31 * 60_000);
    const gone = await t.json('POST', '/api/kyc/v1/generate_report', { key: key.api_key, body: { verification_id: body.verification_id } });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: 'REPORT_UNAVAILABLE' });
  }, 90_000);

  it('mobile status answers identity and compliance verifications by id', async () => {
    const row = ledger().find((r) => r.product === 'identity' && r.env === 'test')!;
    const { status, body } = await t.json('GET', `/api/mobile/v1/identity/status/${row.id as string}`, { key: key.api_key });
    expect(status).toBe(200);
    expect(body).toMatchObject({ verification_id: row.id, product: 'identity' });
  });
});

describe('console try: identity, KYC-plus and the report (session, test environment, free)', () => {
  it('reads a document for a signed-in analyst without charging; the KYC report comes back within the window; another organisation cannot have it', async () => {
    const cookie = await t.login();
    const before = (await t.s.credits.balance(t.orgId));
    const idv = await t.json<IdentityResult>('POST', '/api/console/try/identity', {
      cookie, body: { selfie_b64: b64(await fx.selfie('b')), id_front_b64: await doc(HOLDERS[1]!, { kind: 'td1' }) },
    });
    expect(idv.status).toBe(200);
    expect(idv.res.headers.get('cache-control')).toBe('no-store');
    expect(idv.body).toMatchObject({ verified: true, credits_consumed: 0, mrz: { format: 'TD1' } });
    expect(idv.body.mrz!.check_digits.every((d) => d.valid)).toBe(true);
    expect((await t.s.ledger.get(idv.body.verification_id))).toMatchObject({ env: 'test', api_key_id: null, product: 'identity', credits: 0 });

    // Another face than the portrait's: the report names the failed face match with its figures.
    const kyc = await t.json<ComplianceResult>('POST', '/api/console/try/kyc', {
      cookie, body: { selfie_b64: b64(await fx.selfie('c')), id_front_b64: await doc(HOLDERS[1]!) },
    });
    expect(kyc.body).toMatchObject({ credits_consumed: 0, verified: false, failure_reason: 'face_mismatch', compliance_screening: { performed: true, status: 'Cleared' } });
    expect((await t.s.credits.balance(t.orgId))).toBe(before);

    const other = await t.addOrg({ email: 'owner@other-docs.test' });
    const theirs = await t.json('POST', '/api/console/try/report', { cookie: await other.login(), body: { verification_id: kyc.body.verification_id } });
    expect(theirs.status).toBe(404);
    const report = await t.json<ReportResult>('POST', '/api/console/try/report', { cookie, body: { verification_id: kyc.body.verification_id } });
    expect(report.status).toBe(200);
    expect(report.res.headers.get('cache-control')).toBe('no-store');
    expect(Buffer.from(report.body.pdf_base64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    const text = reportText(report.body.pdf_base64);
    expect(text).toContain('Verification run by Analyst owner@example.test Report generated by Analyst owner@example.test');
    const face = kyc.body.face_match;
    expect(text).toContain(`Face match No match: similarity ${face.similarity.toFixed(1)} against threshold ${THRESHOLD_SIMILARITY.toFixed(1)}`);
    expect(text).toMatch(new RegExp(`Checks passed \\d+ of \\d+\\. Failed: Face match \\(similarity ${face.similarity.toFixed(1).replace('.', '\\.')}, threshold ${THRESHOLD_SIMILARITY.toFixed(1).replace('.', '\\.')}\\)`));
    expect(text).toContain('Reason The selfie does not match the face on the ID document');

    expect((await t.json('POST', '/api/console/try/identity', { body: { selfie_b64: 'x', id_front_b64: 'y' } })).status).toBe(401);
  }, 90_000);
});

describe('age by ID: POST /api/v1/verify-age/step3 and the single call with image_id_b64', () => {
  const erika = HOLDERS[1]!;
  const ageKey = () => t.key({ env: 'live', scopes: ['age'] });

  it('continues a step-2 flow that asked for an ID: verified by the document\'s date of birth, no second charge, the same ledger row; a second step 3 is 409', async () => {
    const k = await ageKey();
    const selfie = b64(await fx.selfie('b'));
    const before = (await t.s.credits.balance(t.orgId));
    // A minimum above any estimate sends the flow to step 3.
    const step2 = await t.json<AgeSelfieResponse>('POST', '/api/v1/verify-age/step2', { key: k.api_key, body: { image_selfie_b64: selfie, min_age: 99, use_case: 'custom' } });
    expect(step2.body).toMatchObject({ proceed_to_step3: true, credits_consumed: 10 });
    const rows = ledger().length;
    const step3 = await t.json<AgeIdResponse>('POST', '/api/v1/verify-age/step3', {
      key: k.api_key, body: { image_selfie_b64: selfie, image_id_b64: await doc(erika), min_age: 21, use_case: 'custom', verification_id: step2.body.verification_id },
    });
    expect(step3.status).toBe(200);
    expect(step3.res.headers.get('cache-control')).toBe('no-store');
    const age = new Date(t.clock.now()).getUTCFullYear() - 1964 - (new Date(t.clock.now()).toISOString().slice(5, 10) < '08-12' ? 1 : 0);
    expect(step3.body).toMatchObject({
      verified: true, method: 'selfie+id', status: 'success', actual_age: age, dob: '08/12/1964', credits_consumed: 0,
      verification_id: step2.body.verification_id, face_match_confidence: expect.any(Number),
    });
    expect((await t.s.credits.balance(t.orgId))).toBe(before - 10);
    expect(ledger()).toHaveLength(rows);
    const row = (await t.s.ledger.get(step2.body.verification_id))!;
    expect(row).toMatchObject({ status: 'success', credits: 10, error_code: null });
    expect(JSON.stringify(row)).not.toMatch(/1964|MUSTERMANN/);

    const again = await t.json('POST', '/api/v1/verify-age/step3', {
      key: k.api_key, body: { image_selfie_b64: selfie, image_id_b64: await doc(erika), verification_id: step2.body.verification_id },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: 'ERROR', code: 'FLOW_COMPLETED' });
  }, 90_000);

  it('refuses a minor by the document (below_minimum_age, minimum_age), charging a flow of its own when no step-2 id is named', async () => {
    const k = await ageKey();
    const rossi = { ...HOLDERS[8]!, face: 'b' as const };
    const before = (await t.s.credits.balance(t.orgId));
    const r = await t.json<AgeIdResponse>('POST', '/api/v1/verify-age/step3', {
      key: k.api_key, body: { image_selfie_b64: b64(await fx.selfie('b')), image_id_b64: await doc(rossi, {}, 'rotate'), min_age: 21, use_case: 'custom' },
    });
    expect(r.body).toMatchObject({ verified: false, status: 'failed', reason: 'below_minimum_age', minimum_age: 21, dob: '03/18/2009', credits_consumed: 10 });
    expect(r.body.actual_age).toBeLessThan(21);
    expect(r.body.method).toBeUndefined();
    expect((await t.s.credits.balance(t.orgId))).toBe(before - 10);
    expect((await t.s.ledger.get(r.body.verification_id))).toMatchObject({ product: 'age', status: 'failed', error_code: 'below_minimum_age', credits: 10 });
  }, 60_000);

  it('the single call with image_id_b64 answers step 3\'s shape; a face that is not the portrait fails as face_mismatch', async () => {
    const k = await ageKey();
    const one = await t.json<AgeIdResponse>('POST', '/api/v1/verify-age/verify', {
      key: k.api_key, body: { image_selfie_b64: b64(await fx.selfie('c')), image_id_b64: await doc(erika, { kind: 'td1' }) },
    });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ verified: false, status: 'failed', reason: 'face_mismatch', dob: '08/12/1964', credits_consumed: 10 });
    expect(one.body).not.toHaveProperty('estimated_age');
  }, 60_000);

  it('a step-2 id of another organisation, environment or product is 404 and nothing is read; a bad image is 400 naming its field; the age scope is needed', async () => {
    const k = await ageKey();
    const selfie = b64(await fx.selfie('b'));
    const other = await t.addOrg({ email: 'owner@other-age.test' });
    const theirs = await other.key({ env: 'live', scopes: ['age'] });
    await other.grant(20);
    const their2 = await t.json<AgeSelfieResponse>('POST', '/api/v1/verify-age/step2', { key: theirs.api_key, body: { image_selfie_b64: selfie, min_age: 99, use_case: 'custom' } });
    expect(their2.body.proceed_to_step3).toBe(true);
    const idv = await submit({ selfie_b64: selfie, id_front_b64: selfie }, live.api_key);
    for (const id of [their2.body.verification_id, idv.body.verification_id, 'age_nope']) {
      const r = await t.json('POST', '/api/v1/verify-age/step3', { key: k.api_key, body: { image_selfie_b64: selfie, image_id_b64: selfie, verification_id: id } });
      expect(r.status).toBe(404);
    }
    const test2 = await t.json<AgeSelfieResponse>('POST', '/api/v1/verify-age/step2', { key: (await t.key({ scopes: ['age'] })).api_key, body: { image_selfie_b64: selfie, min_age: 99, use_case: 'custom' } });
    expect((await t.json('POST', '/api/v1/verify-age/step3', { key: k.api_key, body: { image_selfie_b64: selfie, image_id_b64: selfie, verification_id: test2.body.verification_id } })).status).toBe(404);

    const broken = await t.json('POST', '/api/v1/verify-age/step3', { key: k.api_key, body: { image_selfie_b64: selfie, image_id_b64: b64(await fx.truncated()) } });
    expect(broken.status).toBe(400);
    expect(JSON.stringify(broken.body)).toContain('image_id_b64');
    const noScope = await t.json('POST', '/api/v1/verify-age/step3', { key: (await t.key({ env: 'live', scopes: ['identity'] })).api_key, body: { image_selfie_b64: selfie, image_id_b64: selfie } });
    expect(noScope.status).toBe(401);
  }, 60_000);

  it('a demo key simulates the ID answer without reading anything', async () => {
    const demo = await t.key({ scopes: ['age'], demo: true });
    const r = await t.json<AgeIdResponse>('POST', '/api/v1/verify-age/step3', { key: demo.api_key, body: { image_selfie_b64: b64(await fx.selfie('a')), image_id_b64: b64(await fx.selfie('a')), min_age: 21, use_case: 'custom' } });
    expect(r.body).toMatchObject({ verified: true, method: 'selfie+id', simulated: true, credits_consumed: 0 });
  });
});

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
