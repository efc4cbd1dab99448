// Privacy: canary subject data sent through every route (valid and invalid requests, query
// strings, paths, failed logins, billing with idempotency) leaves no trace in the data
// directory. The harness itself is shown to catch a canary wherever it lands.
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { BatchInfo, BatchRowResult } from '../../../src-shared/contracts/batch';
import type { SeenByAnalyst } from '../../../src-shared/contracts/review';
import { ORIGIN, closeAll, testService, type Call, type TestService } from './harness';
import { degrade, renderSpecimen } from './document-fixtures';
import { clip as encodeClip, withFaceImage } from './face-fixtures';
import { POSTGRES, testEngines } from './engines';
import { makeCanaries, scanForCanaries, type Canaries } from './privacy';
import { disposition, runBatch } from './review-support';

afterAll(closeAll);

describe('privacy harness', () => {
  it('finds a canary in the database file, its WAL, a log, and an export, in several encodings', async () => {
    const t = await testService();
    const c = makeCanaries();
    t.s.db.prepare("INSERT INTO meta (key, value) VALUES ('leak', ?)").run(c.fullName);
    expect(scanForCanaries(t.dataDir, c).some((h) => /console\.db/.test(h.file))).toBe(true);

    const u = await testService();
    appendFileSync(join(u.dataDir, 'logs', 'service.log'), c.lastName.toLowerCase());
    writeFileSync(join(u.dataDir, 'export.bin'), Buffer.from(c.documentNumber, 'utf16le'));
    writeFileSync(join(u.dataDir, 'img.b64'), c.imageB64);
    writeFileSync(join(u.dataDir, 'img.bin'), c.image);
    const files = scanForCanaries(u.dataDir, c).map((h) => h.file);
    expect(files).toEqual(expect.arrayContaining(['logs/service.log', 'export.bin', 'img.b64', 'img.bin']));
  });
});

/**
 * Where the ledger is: the data directory's SQLite file, or a database of its own on the test
 * run's PostgreSQL cluster (issue 40), whose data directory and server log are scanned as well.
 */
const LEDGERS = [
  { engine: 'SQLite', skip: null },
  { engine: 'PostgreSQL', skip: POSTGRES.url ? null : POSTGRES.why },
] as const;
const pgEngines = testEngines();

async function serviceOn(engine: (typeof LEDGERS)[number]['engine'], opts: Parameters<typeof testService>[0] = {}): Promise<{ t: TestService; scan: (c: Canaries) => Promise<unknown[]> }> {
  if (engine === 'SQLite') {
    const t = await testService(opts);
    return {
      t,
      scan: async (c) => {
        t.s.db.pragma('wal_checkpoint(PASSIVE)');
        return scanForCanaries(t.dataDir, c);
      },
    };
  }
  const db = await pgEngines.open('postgres');
  const t = await testService({ ...opts, database: db.url! });
  return {
    t,
    scan: async (c) => {
      // Pages on disk too, not only the write-ahead log (both are scanned).
      await sql`CHECKPOINT`.execute(db.engine.q);
      const cluster = dirname(POSTGRES.dataDir!);
      return [...scanForCanaries(t.dataDir, c), ...scanForCanaries(cluster, c).map((h) => ({ ...h, file: `postgres:${h.file}` }))];
    },
  };
}

describe('the scan of a PostgreSQL cluster', () => {
  it.skipIf(!POSTGRES.url)('finds a canary a table holds, in its pages and its write-ahead log', async () => {
    const { t, scan } = await serviceOn('PostgreSQL');
    const c = makeCanaries();
    await t.s.engine.q.insertInto('meta').values({ key: 'leak', value: c.fullName }).execute();
    const files = (await scan(c) as { file: string }[]).map((h) => h.file);
    expect(files.some((f) => /^postgres:data\/base\//.test(f))).toBe(true);
    expect(files.some((f) => /^postgres:data\/pg_wal\//.test(f))).toBe(true);
  });
});

describe.each(LEDGERS)('no subject data at rest ($engine)', ({ engine, skip }) => {
  it.skipIf(skip)(`after every route has seen junk, invalid and unauthenticated requests full of canaries, the data directory holds none of it${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const { t, scan } = await serviceOn(engine, { plan: 'pro' });
    const c = makeCanaries();
    const subject = {
      first_name: c.firstName, last_name: c.lastName, date_of_birth: c.dob, document_number: c.documentNumber,
      client_reference_id: c.clientReference, image_selfie_b64: c.imageB64,
    };
    const live = await t.key({ env: 'live' });
    const test = await t.key({ env: 'test' });
    const cookie = await t.login();
    await t.grant(1000);

    for (const r of t.routes) {
      const path = r.path.replace(/:[a-z_]+/g, encodeURIComponent(c.lastName));
      for (const key of [live.api_key, test.api_key, `svk-${c.firstName}`]) {
        await t.call(r.method, `${path}?name=${c.firstName}&dob=${c.dob}`, {
          key, cookie, headers: { 'Idempotency-Key': `idem-${Math.random()}` },
          ...(r.method === 'GET' ? {} : { body: { ...subject, subject } }),
        });
      }
    }
    // Failed logins and setups with canaries in every field.
    await t.call('POST', '/api/auth/login', { body: { email: `${c.firstName}@example.test`, password: c.lastName } });
    await t.call('POST', '/api/setup', { body: { organization: c.fullName, name: c.fullName, email: 'x@example.test', password: c.dob } });
    // A billable run whose request carried the subject: only the keyed fingerprint is kept.
    const key = await t.s.keys.lookup(live.api_key);
    if (!key.ok) throw new Error('key');
    const fp = t.s.idempotency.fingerprint('POST', '/api/compliance/v1/screen', JSON.stringify(subject));
    await t.s.billing.run({ key: key.key, operation: 'screen', idPrefix: 'scr', idempotency: { key: 'p-1', fingerprint: fp } }, async () => ({
      status: 'completed', confidence: null, billable: true, httpStatus: 200, result: subject,
    }));

    expect(await scan(c)).toEqual([]);
  }, 120_000);
});

/**
 * Every route, classified: either it takes subject data (a subject, a client reference) and has a
 * VALID canary-laden request below that must succeed, or it takes none by its contract. A route
 * added without a classification fails the test, so no route can be skipped by a body it refuses.
 */
const NO_SUBJECT_INPUT = [
  'GET /api/health', 'GET /api/openapi.json', 'GET /api/setup', 'POST /api/setup', 'POST /api/auth/login', 'POST /api/auth/token', 'POST /api/auth/logout',
  'GET /api/auth/me', 'GET /api/account', 'GET /api/home', 'PATCH /api/account/plan', 'GET /api/settings', 'PATCH /api/settings', 'GET /api/settings/list-freshness', 'PATCH /api/settings/list-freshness', 'GET /api/settings/app-schemes', 'PUT /api/settings/app-schemes', 'GET /api/settings/public-url', 'PUT /api/settings/public-url', 'GET /api/settings/hosted-attempts', 'PUT /api/settings/hosted-attempts', 'GET /api/settings/liveness', 'PUT /api/settings/liveness', 'GET /api/credits/ledger',
  'GET /api/audit/verify', 'GET /api/keys', 'POST /api/keys', 'POST /api/keys/:id/revoke', 'GET /api/webhooks', 'POST /api/webhooks',
  'DELETE /api/webhooks/:id', 'POST /api/webhooks/:id/test', 'GET /api/webhooks/:id/deliveries', 'GET /api/status/:verification_id',
  'POST /api/v1/verify-age/init', 'GET /api/screening/lists', 'POST /api/screening/lists/official', 'POST /api/screening/lists/user',
  'DELETE /api/screening/lists/user/:slug', 'POST /api/screening/lists/official/held/:source', 'DELETE /api/screening/lists/official/held/:source', 'GET /api/console/batches/preview', 'POST /api/console/batches', 'GET /api/console/batches/:id',
  'POST /api/console/batches/:id/cancel', 'POST /api/console/batches/:id/finish', 'GET /api/console/batches', 'POST /api/console/batches/:id/end',
  'POST /api/review/clearances/:id/approve',
  // The approval queue takes no input; what it answers of the analyst's view comes from memory (the send-back flow below reads it).
  // Approving takes no body (sending back takes a note: below).
  'GET /api/review/approvals', 'POST /api/review/approvals/:id/approve', 'GET /api/review/clearances',
  'POST /api/validate', 'GET /api/mobile/v1/human/status/:verification_id', 'GET /api/mobile/v1/age/status/:session_id',
  'GET /api/mobile/v1/identity/status/:session_id', 'GET /api/mobile/v1/compliance/status/:session_id',
  'POST /api/webhooks/:id/deliveries/:delivery/retry', 'POST /api/webhooks/:id/rotate-secret', 'POST /hosted/generate', 'POST /api/hosted/sessions', 'GET /api/onsite', 'POST /api/onsite/start', 'POST /api/onsite/stop', 'GET /api/team-server', 'POST /api/team-server/start', 'POST /api/team-server/stop', 'GET /api/webhooks/private-hosts', 'PUT /api/webhooks/private-hosts', 'POST /api/team/members/:id/end-sessions', 'GET /hosted/session/:token', 'GET /api/hosted/sessions', 'POST /api/hosted/sessions/:id/revoke',
  // Published flows: settings only (checked in routes/flows.test.ts); a flow's sessions are completed through POST /hosted/complete/:token below.
  'GET /api/hosted/flows', 'POST /api/hosted/flows', 'PUT /api/hosted/flows/:id', 'POST /api/hosted/flows/:id/enable', 'POST /api/hosted/flows/:id/disable',
  'POST /hosted/flow/:slug/start',
  'GET /api/age-gate', 'PUT /api/age-gate', 'GET /api/age-gate/config/:store_id',
  // Reports: aggregates of ledger rows (ids, products, statuses, codes, timings, confidences); queries take dates only.
  'GET /api/reports/overview', 'GET /api/reports/volume', 'GET /api/reports/usage', 'GET /api/reports/risk-summary',
  'GET /api/reports/widget-performance', 'GET /api/reports/regulatory-coverage', 'GET /api/reports/limits',
  'GET /api/reports/v21/verification', 'GET /api/reports/v21/full',
  // Team management: members' and invitees' e-mails are account data, not subject data.
  'GET /api/team/members', 'GET /api/team/activity', 'POST /api/team/invite', 'POST /api/team/invite/accept', 'PATCH /api/team/members/:id/role',
  'DELETE /api/team/members/:id', 'GET /api/team/invites', 'DELETE /api/team/invites/:id', 'PATCH /api/team/members/:id/billing',
  // Organisation settings: the organisation's own name and logo (branding, not subject data) and the data directory's size.
  'GET /api/settings/organization', 'PATCH /api/settings/organization', 'PUT /api/settings/logo', 'GET /api/settings/logo',
  'DELETE /api/settings/logo', 'GET /api/settings/data-directory', 'GET /hosted/logo/:token',
  'GET /api/auth/desktop/members', 'POST /api/auth/desktop/login',
  // Report exports: report types, dates and ids in; ledger aggregates out (never subject data).
  'POST /api/reports/exports', 'GET /api/reports/exports', 'GET /api/reports/exports/:id', 'GET /api/reports/exports/:id/download',
  'DELETE /api/reports/exports/:id',
];

interface Sent { label: string; status: number; text: string }
interface Ctx { t: TestService; c: Canaries; clip: Canaries; live: string; test: string; cookie: string; screeningId: string; kycId?: string; consoleKycId?: string; step2?: { id: string; idRequired: boolean }; batch?: { id: string; rows: BatchRowResult[] } }

/**
 * A passport of the canary person (name, number and date of birth as printed and in its MRZ), with
 * the canary face. `printedSurname` prints a surname a letter away from the MRZ's: the two readings
 * then go into the answer's review flags.
 */
async function canaryDocument(c: Canaries, printedSurname?: string): Promise<string> {
  const png = await renderSpecimen({
    surname: c.documentSurname, given: c.documentGiven, dob: c.dob, sex: 'X', nationality: 'GBR', issuing: 'GBR',
    number: c.documentNumber.slice(0, 9), expiry: '2034-01-01', issued: '2024-01-02', face: 'a',
  }, printedSurname === undefined ? {} : { printedSurname });
  return (await degrade(png, 'clean')).toString('base64');
}

/** What the analyst's console sends with a clearing that waits: the canary customer, the row's listed people, a canary note. */
function seenCanary(c: Canaries, r: BatchRowResult): SeenByAnalyst {
  return {
    customer: { name: c.fullName, date_of_birth: c.dob, country: 'GB', client_reference_id: r.client_reference_id },
    listed: r.matches.filter((m) => !m.cleared).map((m) => ({
      entity_id: m.entity_id, name: m.name, source: m.source, programs: m.programs.slice(0, 20), dates_of_birth: m.dates_of_birth.slice(0, 10),
      countries: m.countries.slice(0, 20), listed_on: m.listed_on,
    })),
    note: `${c.fullName} born ${c.dob}, passport ${c.documentNumber}`,
  };
}

function canarySubject(c: Canaries) {
  return { type: 'individual', first_name: c.firstName, middle_name: c.lastName, last_name: c.lastName, date_of_birth: c.dob, gender: 'female', country: 'GB' };
}
/** A listed person given with the canary date of birth: the match and its explanation are in play. */
function listedSubject(c: Canaries) {
  return { type: 'individual', first_name: 'Vladimir', last_name: 'Putin', date_of_birth: c.dob, country: 'RU' };
}

async function send(x: Ctx, label: string, method: string, path: string, o: Call): Promise<Sent> {
  const res = await x.t.call(method, path, o);
  return { label, status: res.status, text: await res.text() };
}

/** The canary image as a multipart upload, with an API key or the console's session. */
async function upload(x: Ctx, label: string, path: string, key: string | { cookie: string }, media: { c: Canaries; name: string; fields?: Record<string, string> } = { c: x.c, name: 'canary.png' }): Promise<Sent> {
  const body = new FormData();
  body.append('file', new Blob([media.c.image as Uint8Array<ArrayBuffer>]), media.name);
  for (const [k, v] of Object.entries(media.fields ?? {})) body.append(k, v);
  const headers: Record<string, string> = typeof key === 'string' ? { 'X-API-Key': key } : { Cookie: key.cookie, Origin: ORIGIN };
  const res = await x.t.app.request(`${ORIGIN}${path}`, { method: 'POST', body, headers });
  return { label, status: res.status, text: await res.text() };
}

/** In order: later flows use what earlier ones made (a screening id, a batch and its rows). */
const SUBJECT_ROUTES: [string, (x: Ctx) => Promise<Sent[]>][] = [
  ['POST /api/verify', async (x) => [
    await upload(x, 'liveness live', '/api/verify', x.live), await upload(x, 'liveness test', '/api/verify', x.test),
    // A clip held to the head-turn challenge (frames decoded, analysed and described; a still clip misses it).
    await upload(x, 'liveness clip, head-turn challenge', '/api/verify', x.live, { c: x.clip, name: 'canary.webm', fields: { challenge: 'head_turn' } }),
  ]],
  ['POST /api/console/try/liveness', async (x) => [await upload(x, 'console try liveness', '/api/console/try/liveness', { cookie: x.cookie })]],
  ['POST /api/console/try/age', async (x) => [await upload(x, 'console try age', '/api/console/try/age?min_age=21', { cookie: x.cookie })]],
  ['POST /api/v1/verify-age/step1', async (x) => [
    await send(x, 'age step 1', 'POST', '/api/v1/verify-age/step1', { key: x.live, body: { date_of_birth: x.c.dob, use_case: 'adult' } }),
  ]],
  ['POST /api/v1/verify-age/step2', async (x) => {
    // A minimum above any estimate: the flow goes on to step 3.
    const sent = await send(x, 'age step 2', 'POST', '/api/v1/verify-age/step2', { key: x.live, body: { image_selfie_b64: x.c.imageB64, user_age: 98, min_age: 98, use_case: 'custom' } });
    const answer = JSON.parse(sent.text) as { verification_id: string; proceed_to_step3?: boolean };
    x.step2 = { id: answer.verification_id, idRequired: answer.proceed_to_step3 === true };
    return [sent];
  }],
  ['POST /api/v1/verify-age/step3', async (x) => {
    expect(x.step2?.idRequired).toBe(true);
    return [await send(x, 'age step 3', 'POST', '/api/v1/verify-age/step3', {
      key: x.live, body: { image_selfie_b64: x.c.imageB64, image_id_b64: await canaryDocument(x.c), min_age: 21, use_case: 'custom', verification_id: x.step2!.id },
    })];
  }],
  ['POST /api/v1/verify-age/verify', async (x) => [
    await send(x, 'age single call', 'POST', '/api/v1/verify-age/verify', { key: x.live, body: { image_selfie_b64: `data:image/png;base64,${x.c.imageB64}`, use_case: 'alcohol' } }),
    await send(x, 'age single call with ID', 'POST', '/api/v1/verify-age/verify', { key: x.live, body: { image_selfie_b64: x.c.imageB64, image_id_b64: await canaryDocument(x.c) } }),
  ]],
  ['POST /api/console/try/identity', async (x) => [
    await send(x, 'console try identity', 'POST', '/api/console/try/identity', { cookie: x.cookie, body: { selfie_b64: x.c.imageB64, id_front_b64: await canaryDocument(x.c), name: x.c.fullName } }),
  ]],
  ['POST /api/console/try/kyc', async (x) => {
    const sent = await send(x, 'console try kyc', 'POST', '/api/console/try/kyc', { cookie: x.cookie, body: { selfie_b64: x.c.imageB64, id_front_b64: await canaryDocument(x.c) } });
    if (sent.status === 200) x.consoleKycId = (JSON.parse(sent.text) as { verification_id: string }).verification_id;
    return [sent];
  }],
  ['POST /hosted/complete/:token', async (x) => {
    const out: Sent[] = [];
    const session = async (product: string) => {
      const res = await x.t.call('POST', '/hosted/generate', { headers: { Authorization: `Bearer ${x.live}` }, body: { product, redirect_url: 'https://shop.example/done' } });
      return ((await res.json()) as { token: string }).token;
    };
    // Hosted liveness takes the recorded clip (a still one: asked to record again, the session open).
    out.push(await send(x, 'hosted liveness', 'POST', `/hosted/complete/${await session('human')}`, { body: { selfie_b64: x.clip.imageB64 } }));
    out.push(await send(x, 'hosted age', 'POST', `/hosted/complete/${await session('age')}`, { body: { date_of_birth: x.c.dob, selfie_b64: x.clip.imageB64 } }));
    out.push(await send(x, 'hosted identity', 'POST', `/hosted/complete/${await session('identity')}`, { body: { selfie_b64: x.clip.imageB64, id_front_b64: await canaryDocument(x.c) } }));
    // A session started from a published flow (test environment: the live counts below stay the API's).
    const flow = await x.t.json<{ url: string }>('POST', '/api/hosted/flows', { cookie: x.cookie, body: { name: 'Canary flow', product: 'age', env: 'test' } });
    const started = await x.t.json<{ token: string }>('POST', `/hosted/flow/${flow.body.url.split('/').pop()!}/start`);
    out.push(await send(x, 'hosted age from a published flow', 'POST', `/hosted/complete/${started.body.token}`, { body: { date_of_birth: x.c.dob, selfie_b64: x.clip.imageB64 } }));
    return out;
  }],
  ['POST /api/verify-age', async (x) => {
    const out: Sent[] = [];
    for (const [env, requireSelfie] of [['live', true], ['test', false]] as const) {
      const res = await x.t.call('PUT', '/api/age-gate', { cookie: x.cookie, body: { env, settings: { enabled: true, require_selfie: requireSelfie, session_mode: 'profile' } } });
      const store = ((await res.json()) as { store_id: string }).store_id;
      const visitor = { 'User-Agent': `${x.c.clientReference} ${env}` };
      const body = { store_id: store, date_of_birth: x.c.dob, mode: 'profile', customer_id: x.c.clientReference, use_case: 'adult' };
      out.push(await send(x, `age gate ${env} dob`, 'POST', '/api/verify-age', { body, headers: visitor }));
      if (requireSelfie) out.push(await send(x, `age gate ${env} selfie`, 'POST', '/api/verify-age', { body: { ...body, selfie_b64: x.c.imageB64 }, headers: visitor }));
    }
    return out;
  }],
  ['POST /api/console/try/report', async (x) => [
    await send(x, 'console try report', 'POST', '/api/console/try/report', { cookie: x.cookie, body: { verification_id: x.consoleKycId ?? 'none', report_password: x.c.clientReference } }),
  ]],
  ['POST /api/identity/v1/submit', async (x) => {
    const read = await send(x, 'identity', 'POST', '/api/identity/v1/submit', {
      key: x.live, body: { selfie_b64: x.c.imageB64, id_front_b64: await canaryDocument(x.c), name: x.c.fullName, date_of_birth: x.c.dob, address: x.c.clientReference },
    });
    // The names as read went into the answer (so the canary really went through the reading).
    expect(read.text).toContain(x.c.documentSurname);
    // A printed surname a letter away: both readings go into the answer's review flags, and nowhere else.
    const printed = `${x.c.documentSurname.slice(0, -1)}${x.c.documentSurname.endsWith('A') ? 'E' : 'A'}`;
    const review = await send(x, 'identity review', 'POST', '/api/identity/v1/submit', {
      key: x.test, body: { selfie_b64: x.c.imageB64, id_front_b64: await canaryDocument(x.c, printed), name: x.c.fullName },
    });
    // The canary born 1917 also has its century flagged (the zone's 17 reads as 2017).
    expect(JSON.parse(review.text)).toMatchObject({
      verified: false, failure_reason: 'document_needs_review',
      review: expect.arrayContaining([expect.objectContaining({ field: 'surname', mrz: x.c.documentSurname, printed })]),
    });
    return [read, review];
  }],
  ['POST /api/kyc/v1/submit_plus', async (x) => {
    const sent = await send(x, 'kyc-plus', 'POST', '/api/kyc/v1/submit_plus', { key: x.live, body: { selfie_b64: x.c.imageB64, id_front_b64: await canaryDocument(x.c) } });
    if (sent.status === 200) x.kycId = (JSON.parse(sent.text) as { verification_id: string }).verification_id;
    return [sent];
  }],
  ['POST /api/kyc/v1/generate_report', async (x) => [
    await send(x, 'kyc report', 'POST', '/api/kyc/v1/generate_report', { key: x.live, body: { verification_id: x.kycId ?? 'none' } }),
    await send(x, 'kyc report encrypted', 'POST', '/api/kyc/v1/generate_report', { key: x.live, body: { verification_id: x.kycId ?? 'none', report_password: x.c.clientReference } }),
  ]],
  ['POST /api/compliance/v1/screen', async (x) => {
    const out: Sent[] = [];
    for (const [env, key] of [['live', x.live], ['test', x.test]] as const) {
      for (const [i, subject] of [canarySubject(x.c), listedSubject(x.c)].entries()) {
        const sent = await send(x, `screen ${env} ${i}`, 'POST', '/api/compliance/v1/screen', {
          key, headers: { 'Idempotency-Key': `${x.c.clientReference}-${env}-${i}` },
          body: { client_reference_id: x.c.clientReference, subject, metadata: { ref: x.c.documentNumber, note: x.c.fullName, dob: x.c.dob } },
        });
        if (sent.status === 200 && env === 'live' && i === 0) x.screeningId = (JSON.parse(sent.text) as { id: string }).id;
        out.push(sent);
      }
    }
    return out;
  }],
  ['POST /api/compliance/v1/rescreen', async (x) => Promise.all([canarySubject(x.c), listedSubject(x.c)].map((subject, i) =>
    send(x, `rescreen ${i}`, 'POST', '/api/compliance/v1/rescreen', {
      key: x.live, headers: { 'Idempotency-Key': `${x.c.clientReference}-r-${i}` },
      body: {
        client_reference_id: x.c.clientReference, subject, previous_screening_id: x.screeningId,
        previous_result_summary: { risk_score: 0, risk_level: 'low', flags: [] }, metadata: { ref: x.c.documentNumber },
      },
    }),
  ))],
  ['POST /api/console/screen', async (x) => Promise.all((['test', 'live'] as const).map((env) =>
    send(x, `console screen ${env}`, 'POST', `/api/console/screen?env=${env}`, {
      cookie: x.cookie, body: { client_reference_id: x.c.clientReference, subject: canarySubject(x.c), metadata: { ref: x.c.documentNumber } },
    }),
  ))],
  ['POST /api/console/batches/:id/rows', async (x) => {
    const created = await x.t.json<BatchInfo>('POST', '/api/console/batches', { cookie: x.cookie, body: { env: 'test', total_rows: 2 } });
    const id = created.body.id;
    const rows = [canarySubject(x.c), listedSubject(x.c)].map((subject, i) => JSON.stringify({
      row: i + 2, client_reference_id: `${x.c.clientReference}-${i + 2}`, previous_screening_id: x.screeningId,
      previous_result_summary: { risk_score: 0, risk_level: 'low', flags: [] }, subject,
    }));
    const sent = await send(x, 'batch rows', 'POST', `/api/console/batches/${id}/rows`, {
      cookie: x.cookie, rawBody: rows.join('\n'), headers: { 'Content-Type': 'application/x-ndjson' },
    });
    const lines = sent.text.trim().split('\n').map((l) => JSON.parse(l) as BatchRowResult & { error?: unknown });
    // Every row was accepted (no per-row validation error) and screened.
    const results = lines.filter((l) => 'review_token' in l);
    x.batch = { id, rows: results };
    const rowsOk: Sent = { label: 'batch rows: every row screened', status: results.length === 2 && !lines.some((l) => l.error) ? sent.status : 422, text: sent.text };
    const finished = await send(x, 'batch finish', 'POST', `/api/console/batches/${id}/finish`, { cookie: x.cookie, body: {} });
    return [sent, rowsOk, finished];
  }],
  ['POST /api/review/dispositions', async (x) => {
    const row = (n: number) => x.batch!.rows.find((r) => r.row === n)!;
    const escalated = await send(x, 'disposition escalated', 'POST', '/api/review/dispositions', {
      cookie: x.cookie, body: disposition(x.batch!.id, row(2), 'escalated'),
    });
    const cleared = await send(x, 'disposition cleared', 'POST', '/api/review/dispositions', {
      cookie: x.cookie, body: disposition(x.batch!.id, row(3), 'cleared_false_positive', { reason_code: 'different_dob', has_note: true }),
    });
    return [escalated, cleared];
  }],
  ['POST /api/review/approvals/:id/send-back', async (x) => {
    // A strong match (the listed name alone) cleared while four-eyes is on waits; an admin sends it back with a canary note.
    const b = await runBatch(x.t, x.cookie, [{ type: 'individual', first_name: 'Vladimir', last_name: 'Putin' }], () => ({ client_reference_id: `${x.c.clientReference}-q` }));
    // The clearing carries what the analyst saw (issue 36): the canary customer, the listed person, a canary note.
    const cleared = await x.t.json<{ clearance: { id: string } | null }>('POST', '/api/review/dispositions', {
      cookie: x.cookie, body: disposition(b.id, b.row(2), 'cleared_false_positive', { reason_code: 'other', has_note: true, seen: seenCanary(x.c, b.row(2)) }),
    });
    const waiting = cleared.body.clearance;
    if (!waiting) return [{ label: 'a clearance waits', status: 404, text: JSON.stringify(cleared.body) }];
    await x.t.s.accounts.addUser({ orgId: x.t.orgId, email: 'approver@example.test', name: 'Approver', password: 'approver password', role: 'admin' });
    const admin = await x.t.login('approver@example.test', 'approver password');
    // The approver reads it in the queue, from memory.
    const listed = await send(x, 'the approver reads what the analyst saw', 'GET', '/api/review/approvals', { cookie: admin });
    const shown = { label: 'the queue shows the customer and the note', status: listed.text.includes(x.c.lastName) && listed.text.includes(x.c.documentNumber) ? listed.status : 404, text: listed.text };
    const sent = await send(x, 'clearance sent back with a note', 'POST', `/api/review/approvals/${waiting.id}/send-back`, {
      cookie: admin, body: { note: `${x.c.fullName} born ${x.c.dob}, passport ${x.c.documentNumber}, ref ${x.c.clientReference}` },
    });
    const read = await send(x, 'the analyst reads the note', 'GET', `/api/review/clearances?batch_id=${b.id}`, { cookie: x.cookie });
    const held = { label: 'the note is held for the analyst', status: read.text.includes(x.c.documentNumber) ? read.status : 404, text: read.text };
    return [listed, shown, sent, read, held];
  }],
  ['GET /api/audit', async (x) => {
    const found = await send(x, 'audit by client reference', 'GET', `/api/audit?client_reference=${encodeURIComponent(`${x.c.clientReference}-2`)}`, { cookie: x.cookie });
    // The reference is found through its HMAC: the escalation of row 2.
    const total = (JSON.parse(found.text) as { total: number }).total;
    return [found, { label: 'audit search found the row', status: total === 1 ? 200 : 404, text: found.text }];
  }],
  ['GET /api/verifications', async (x) => {
    // The ledger searched by the canary reference (issue 26): found through its HMAC, as in the audit log.
    const found = await send(x, 'ledger by client reference', 'GET', `/api/verifications?env=live&search=${encodeURIComponent(x.c.clientReference)}`, { cookie: x.cookie });
    const total = (JSON.parse(found.text) as { total: number }).total;
    return [found, { label: 'ledger search found the screenings', status: total >= 1 ? 200 : 404, text: found.text }];
  }],
];

describe('valid requests carrying subject data', () => {
  // Every product with its real models (the niced document reader among them): beside other
  // CPU-heavy work this waits for cores well past its ~35 s on an idle machine.
  it('every subject-bearing route accepts a valid canary request (2xx) and leaves nothing in the data directory, its logs or the temp dir', async () => {
    // A private temp dir for this test: the data directory is made inside it, and anything the
    // service writes to os.tmpdir() lands there too, so one scan covers both.
    const realTmp = process.env.TMPDIR;
    const tmpRoot = realpathSync(mkdtempSync(join(tmpdir(), 'cc-privacy-tmp-')));
    process.env.TMPDIR = tmpRoot;
    // And a home directory of its own (issue 25: onnxruntime kept a telemetry database under
    // ~/.cache): the workers started here inherit it; nothing may be written there at all.
    const realHome = { HOME: process.env.HOME, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME, XDG_DATA_HOME: process.env.XDG_DATA_HOME };
    const home = join(tmpRoot, 'home');
    mkdirSync(home);
    process.env.HOME = home;
    for (const k of ['XDG_CACHE_HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME'] as const) delete process.env[k];
    try {
      const t = await testService({ plan: 'pro' });
      expect(t.dataDir.startsWith(tmpRoot)).toBe(true);
      expect(await t.s.screening.ready(60_000)).not.toBeNull();

      const routes = t.routes.map((r) => `${r.method} ${r.path}`);
      const classified = [...NO_SUBJECT_INPUT, ...SUBJECT_ROUTES.map(([r]) => r)];
      expect(routes.filter((r) => !classified.includes(r)), 'routes neither given a valid canary request nor listed as taking no subject data').toEqual([]);
      expect(classified.filter((r) => !routes.includes(r)), 'classified routes that do not exist').toEqual([]);

      const c = await withFaceImage(makeCanaries());
      // The canary face filmed: a clip whose bytes occur nowhere else, scanned for like the image.
      const filmed = await encodeClip(Array<Buffer>(6).fill(await sharp(c.image).removeAlpha().png().toBuffer()), 'webm');
      const clip: Canaries = { ...c, image: filmed, imageB64: filmed.toString('base64') };
      const cookie = await t.login();
      await t.grant(5000);
      await t.json('PATCH', '/api/settings', { cookie, body: { four_eyes: true } });
      await t.json('POST', '/api/webhooks', {
        cookie, body: { url: 'https://receiver.example/h', env: 'live', events: ['compliance.screening.completed', 'compliance.rescreen.completed', 'compliance.rescreen.risk_changed'] },
      });
      const x: Ctx = { t, c, clip, live: (await t.key({ env: 'live' })).api_key, test: (await t.key({ env: 'test' })).api_key, cookie, screeningId: '' };

      for (const [route, flow] of SUBJECT_ROUTES) {
        for (const r of await flow(x)) {
          expect(r.status >= 200 && r.status < 300, `${route} (${r.label}) answered ${r.status}: ${r.text.slice(0, 300)}`).toBe(true);
        }
      }
      // The live flows were really billed and recorded (so ledger, outbox and idempotency rows exist).
      expect(t.s.db.prepare("SELECT product, COUNT(*) AS n FROM verifications WHERE env = 'live' GROUP BY product ORDER BY product").all())
        .toEqual([
          { product: 'age', n: 5 }, { product: 'compliance', n: 1 }, { product: 'human', n: 3 }, { product: 'identity', n: 2 }, { product: 'rescreen', n: 2 }, { product: 'screen', n: 3 },
        ]);
      expect(t.s.db.prepare('SELECT COUNT(*) AS n FROM idempotency_keys').get()).toEqual({ n: 6 });
      expect((t.s.db.prepare('SELECT COUNT(*) AS n FROM webhook_events').get() as { n: number }).n).toBeGreaterThan(0);
      await t.s.logger.flush();
      expect(readFileSync(join(t.dataDir, 'logs', 'service.log'), 'utf8')).toContain('"route":"/api/compliance/v1/screen"');

      t.s.db.pragma('wal_checkpoint(PASSIVE)');
      expect(scanForCanaries(tmpRoot, c)).toEqual([]);
      expect(scanForCanaries(tmpRoot, clip)).toEqual([]);
      expect(readdirSync(home, { recursive: true }), 'written under the home directory').toEqual([]);
    } finally {
      if (realTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = realTmp;
      for (const [k, v] of Object.entries(realHome)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      closeAll();
      rmSync(tmpRoot, { recursive: true, force: true });
    }
  }, 300_000);
});

describe.each(LEDGERS)('screening leaves no subject data at rest ($engine)', ({ engine, skip }) => {
  it.skipIf(skip)(`screen and rescreen of canary subjects (live, with webhooks and idempotency) leave only ledger rows${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const { t, scan } = await serviceOn(engine, { plan: 'pro' });
    expect(await t.s.screening.ready(60_000)).not.toBeNull();
    const c = makeCanaries();
    const cookie = await t.login();
    await t.json('POST', '/api/webhooks', {
      cookie, body: { url: 'https://receiver.example/h', env: 'live', events: ['compliance.screening.completed', 'compliance.rescreen.completed', 'compliance.rescreen.risk_changed'] },
    });
    await t.grant(1000);
    const k = await t.key({ env: 'live' });
    const subject = { type: 'individual', first_name: c.firstName, last_name: c.lastName, date_of_birth: c.dob, country: 'GB' };
    // A canary subject that matches a listed person too, so matched list records are in play.
    const listed = { type: 'individual', first_name: 'Vladimir', last_name: 'Putin' };
    for (const [i, s] of [subject, listed].entries()) {
      const r = await t.json<{ id: string }>('POST', '/api/compliance/v1/screen', {
        key: k.api_key, headers: { 'Idempotency-Key': `${c.clientReference}-${i}` },
        body: { client_reference_id: c.clientReference, subject: s, metadata: { ref: c.documentNumber, note: c.fullName } },
      });
      expect(r.status).toBe(200);
      await t.json('POST', '/api/compliance/v1/rescreen', {
        key: k.api_key,
        body: { subject: s, previous_screening_id: r.body.id, previous_result_summary: { risk_score: 0, risk_level: 'low', flags: [] } },
      });
    }
    expect(await t.s.engine.q.selectFrom('verifications').select('id').where('product', 'in', ['screen', 'rescreen']).execute()).toHaveLength(4);
    expect(await scan(c)).toEqual([]);
  }, 90_000);
});

describe('the review and the audit trail leave no subject data at rest', () => {
  it('screening, a batch, dispositions with notes, four-eyes approval and audit searches with canaries leave only ids and HMACs', async () => {
    const t = await testService({ plan: 'pro' });
    expect(await t.s.screening.ready(60_000)).not.toBeNull();
    const c = makeCanaries();
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'admin@example.test', name: 'Ad', password: 'admin password', role: 'admin' });
    const cookie = await t.login();
    await t.json('PATCH', '/api/settings', { cookie, body: { four_eyes: true } });

    // The console's own screening, with a canary subject and client reference.
    const screened = await t.json('POST', '/api/console/screen?env=test', {
      cookie, body: { client_reference_id: c.clientReference, subject: { type: 'individual', first_name: c.firstName, last_name: c.lastName, date_of_birth: c.dob } },
    });
    expect(screened.status).toBe(200);

    // A batch whose rows carry canary references and a canary subject, and a listed person whose
    // strong match is cleared.
    const listed = { type: 'individual', first_name: 'Vladimir', last_name: 'Putin' };
    const canary = { type: 'individual', first_name: c.firstName, last_name: c.lastName, date_of_birth: c.dob };
    const b = await runBatch(t, cookie, [listed, canary], (i) => ({ client_reference_id: `${c.clientReference}-${i}` }));
    // A strong sanctions match by its score (clearing it needs a reason), reported on the name alone.
    expect(b.row(2).matches[0]).toMatchObject({ list: 'sanctions' });
    expect(b.row(2).matches[0]!.score).toBeGreaterThanOrEqual(85);
    // A note's text has no field in the contract; one sent anyway is dropped, never stored.
    const note = { note: `${c.fullName} born ${c.dob}, passport ${c.documentNumber}`, customer: c.clientReference, name: c.fullName };
    const escalated = await t.json('POST', '/api/review/dispositions', { cookie, body: { ...disposition(b.id, b.row(3), 'escalated'), ...note } });
    expect(escalated.status).toBe(200);
    const cleared = await t.json<{ clearance: { id: string } }>('POST', '/api/review/dispositions', {
      cookie, body: { ...disposition(b.id, b.row(2), 'cleared_false_positive', { reason_code: 'other', has_note: true, seen: seenCanary(c, b.row(2)) }), ...note },
    });
    expect(cleared.status).toBe(200);
    const id = cleared.body.clearance.id;
    // The approval queue shows the admin what the analyst saw, from memory, sent no-store (issue 36).
    const admin = await t.login('admin@example.test', 'admin password');
    const queue = await t.json('GET', '/api/review/approvals', { cookie: admin });
    expect(queue.res.headers.get('cache-control')).toBe('no-store');
    for (const v of [c.fullName, c.dob, c.documentNumber]) expect(JSON.stringify(queue.body)).toContain(v);
    await t.json('POST', `/api/review/clearances/${id}/approve`, { cookie, body: { email: `${c.firstName}@example.test`, password: c.lastName } });
    expect((await t.json('POST', `/api/review/clearances/${id}/approve`, { cookie, body: { email: 'admin@example.test', password: 'admin password' } })).status).toBe(200);

    // Searching the log by a canary reference goes through its HMAC.
    const search = await t.json<{ total: number }>('GET', `/api/audit?client_reference=${encodeURIComponent(c.clientReference)}`, { cookie });
    expect(search.body.total).toBe(1);
    await t.json('GET', `/api/audit?client_reference=${encodeURIComponent(c.fullName)}&actor=${c.firstName}`, { cookie });
    await t.json('PATCH', '/api/account/plan', { cookie, body: { plan: 'enterprise', name: c.fullName } });

    // Two sign-ins, then eight acts.
    expect(t.s.db.prepare('SELECT COUNT(*) AS n FROM audit_log').get()).toEqual({ n: 10 });
    expect(await t.s.audit.verify()).toMatchObject({ ok: true });
    t.s.db.pragma('wal_checkpoint(PASSIVE)');
    expect(scanForCanaries(t.dataDir, c)).toEqual([]);
  }, 90_000);
});
