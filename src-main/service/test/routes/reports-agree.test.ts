// Reports that agree (issue 26): for one seeded ledger the reporting API, the CSV export and the
// PDF export (its text, read with pdftotext) give the same numbers under the same labels. The
// ledger holds the four verification products, screenings and rescreenings (with hits, without,
// one the provider could not do) and the analysts' dispositions as audit rows; rows of the other
// environment, of another organisation and outside the range, with dispositions of their own,
// must count nowhere.
import { execFileSync } from 'node:child_process';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportJob, Overview, RegulatoryCoverage, Usage, V21Verification, Volume, WidgetPerformance } from '../../../../src-shared/contracts/reports';
import { actorOf, type AuditEvent } from '../../core/audit/audit';
import { closeAll, testService, type OtherOrg, type TestService } from '../harness';
import { insertLedgerRows, type LedgerRow } from '../fixtures/ledger-history';

afterAll(closeAll);

const HOUR = 3_600_000;
const FROM = '2026-03-02';
const TO = '2026-03-08';
const RANGE = `env=live&from=${FROM}&to=${TO}`;

interface Row { id: string; product: string; status: string; day: string; env?: string; key?: string | null; confidence?: number | null; error?: string | null; hits?: string | null; org?: number; credits?: number }

let t: TestService;
let owner: string;
let other: OtherOrg;
let keyA: string;

function insert(rows: Row[]): Promise<void> {
  // Every row's result is at 10:00:00.000Z + 500 ms of its day.
  return insertLedgerRows(t, rows.map((r) => ({
    id: r.id, org_id: r.org ?? t.orgId, api_key_id: r.key ?? null, product: r.product as LedgerRow['product'], env: (r.env ?? 'live') as LedgerRow['env'], status: r.status,
    confidence: r.confidence ?? null, credits: r.credits ?? 0, error_code: r.error ?? null, latency_ms: 500, created_at: `${r.day}T10:00:00.000Z`,
    completed_at: `${r.day}T10:00:00.500Z`, hit_categories: r.hits ?? null,
  })));
}

/** An analyst's decision on a screening, `after` ms after its result, as the review code records it. */
function decide(screeningId: string, day: string, after: number, e: Partial<AuditEvent> & Pick<AuditEvent, 'action'>, orgId = t.orgId, userId = t.ownerId): Promise<unknown> {
  t.clock.set(Date.parse(`${day}T10:00:00.500Z`) + after);
  return t.s.audit.record({ orgId, actor: actorOf({ id: userId, role: 'owner' }), batchId: 'bat_agree', rowNumber: 1, screeningId, ...e });
}

beforeAll(async () => {
  t = await testService({ plan: 'enterprise', exports: { runner: { inProcess: true } } });
  owner = await t.login();
  keyA = (await t.s.keys.create({ orgId: t.orgId, plan: 'enterprise', name: 'Checkout', env: 'live', scopes: ['human', 'age', 'identity', 'compliance'], demo: false, createdBy: null })).key.id;
  other = await t.addOrg({ plan: 'enterprise' });
  await insert([
    { id: 'v_h1', product: 'human', status: 'PASS', day: '2026-03-02', key: keyA, confidence: 91, credits: 1 },
    { id: 'v_h2', product: 'human', status: 'PASS', day: '2026-03-02', key: keyA, confidence: 88, credits: 1 },
    { id: 'v_h3', product: 'human', status: 'PASS', day: '2026-03-03', confidence: 95, credits: 1 },
    { id: 'v_h4', product: 'human', status: 'FAIL', day: '2026-03-03', key: keyA, confidence: 30, error: 'no_face_detected', credits: 1 },
    { id: 'v_a1', product: 'age', status: 'success', day: '2026-03-03', key: keyA, confidence: 80, credits: 10 },
    { id: 'v_a2', product: 'age', status: 'success', day: '2026-03-04', key: keyA, confidence: 86, credits: 10 },
    { id: 'v_a3', product: 'age', status: 'failed', day: '2026-03-04', key: keyA, confidence: 60, error: 'below_minimum_age', credits: 10 },
    { id: 'v_a4', product: 'age', status: 'id_required', day: '2026-03-04', key: keyA, confidence: 66, error: 'estimated_age_below_threshold' },
    { id: 'v_i1', product: 'identity', status: 'PASS', day: '2026-03-05', confidence: 97, credits: 30 },
    { id: 'v_i2', product: 'identity', status: 'FAIL', day: '2026-03-05', error: 'document_unreadable' },
    { id: 'v_k1', product: 'compliance', status: 'PASS', day: '2026-03-06', key: keyA, confidence: 90, hits: '', credits: 50 },
    { id: 'v_k2', product: 'compliance', status: 'FAIL', day: '2026-03-06', key: keyA, confidence: 89, error: 'screening_hit', hits: 'sanctions', credits: 50 },
    // Screenings: three clear, three with a hit, one the provider could not do.
    { id: 'scr_1', product: 'screen', status: 'completed', day: '2026-03-02', confidence: 5, hits: '', credits: 60 },
    { id: 'scr_2', product: 'screen', status: 'completed', day: '2026-03-03', confidence: 8, hits: '', credits: 60 },
    { id: 'scr_3', product: 'screen', status: 'completed', day: '2026-03-04', confidence: 3, hits: '', credits: 60 },
    { id: 'scr_4', product: 'screen', status: 'completed', day: '2026-03-05', confidence: 70, error: 'screening_hit', hits: 'pep', credits: 60 },
    { id: 'scr_5', product: 'screen', status: 'completed', day: '2026-03-05', confidence: 90, error: 'screening_hit', hits: 'sanctions', credits: 60 },
    { id: 'scr_6', product: 'screen', status: 'completed', day: '2026-03-06', confidence: 95, error: 'screening_hit', hits: 'pep,sanctions', credits: 60 },
    { id: 'scr_7', product: 'screen', status: 'failed', day: '2026-03-07', error: 'compliance_provider_unavailable' },
    // Rescreenings: one clear, two with a hit.
    { id: 'scr_r1', product: 'rescreen', status: 'completed', day: '2026-03-07', confidence: 4, hits: '', credits: 30 },
    { id: 'scr_r2', product: 'rescreen', status: 'completed', day: '2026-03-08', confidence: 75, error: 'screening_hit', hits: 'sanctions', credits: 30 },
    { id: 'scr_r3', product: 'rescreen', status: 'completed', day: '2026-03-08', confidence: 60, error: 'screening_hit', hits: 'rca', credits: 30 },
    // Counted nowhere: the test environment, the day after the range, another organisation.
    { id: 'scr_test', product: 'screen', status: 'completed', day: '2026-03-04', env: 'test', confidence: 90, error: 'screening_hit', hits: 'pep' },
    { id: 'scr_late', product: 'screen', status: 'completed', day: '2026-03-09', confidence: 90, error: 'screening_hit', hits: 'pep', credits: 60 },
    { id: 'scr_other', product: 'screen', status: 'completed', day: '2026-03-04', org: other.orgId, confidence: 90, error: 'screening_hit', hits: 'pep', credits: 60 },
    { id: 'v_other', product: 'human', status: 'PASS', day: '2026-03-04', org: other.orgId, confidence: 90, credits: 1 },
  ]);
  // scr_4: escalated after 1 h.
  await decide('scr_4', '2026-03-05', 1 * HOUR, { action: 'disposition.set', disposition: 'escalated' });
  // scr_5: clearing requested after 30 min, approved by a second person after 3 h: cleared at 3 h.
  await decide('scr_5', '2026-03-05', HOUR / 2, { action: 'clearance.requested', disposition: 'cleared_false_positive', reasonCode: 'different_dob', clearanceId: 'clr_5' });
  await decide('scr_5', '2026-03-05', 3 * HOUR, { action: 'clearance.approved', disposition: 'cleared_false_positive', reasonCode: 'different_dob', clearanceId: 'clr_5' });
  // scr_6: needs info after 2 h, cleared after 5 h: cleared now, first decided at 2 h.
  await decide('scr_6', '2026-03-06', 2 * HOUR, { action: 'disposition.set', disposition: 'needs_info' });
  await decide('scr_6', '2026-03-06', 5 * HOUR, { action: 'disposition.set', disposition: 'cleared_false_positive', reasonCode: 'different_dob' });
  // scr_r2: escalated, then the disposition taken away: undecided.
  await decide('scr_r2', '2026-03-08', HOUR, { action: 'disposition.set', disposition: 'escalated' });
  await decide('scr_r2', '2026-03-08', 2 * HOUR, { action: 'disposition.removed' });
  // scr_r3: a clearing waiting for a second person.
  await decide('scr_r3', '2026-03-08', HOUR, { action: 'clearance.requested', disposition: 'cleared_false_positive', reasonCode: 'different_dob', clearanceId: 'clr_r3' });
  // Not counted: other environment, outside the range, other organisation.
  await decide('scr_test', '2026-03-04', HOUR, { action: 'disposition.set', disposition: 'needs_info' });
  await decide('scr_late', '2026-03-09', HOUR, { action: 'disposition.set', disposition: 'needs_info' });
  await decide('scr_other', '2026-03-04', HOUR, { action: 'disposition.set', disposition: 'needs_info' }, other.orgId, other.ownerId);
  t.clock.set(Date.parse('2026-03-10T09:00:00Z'));
});

/** What the ledger above holds, counted by hand. */
const SCREENING = {
  screenings: 7, rescreenings: 3, total: 10, completed: 9, errors: 1, with_hit: 5, hit_rate: 55.6,
  dispositions: { cleared_false_positive: 2, escalated: 1, needs_info: 0 }, awaiting_approval: 1, decided: 3,
  // scr_4 1 h, scr_5 3 h, scr_6 2 h.
  median_time_to_decision_ms: 2 * HOUR,
};

async function api<T>(report: string): Promise<T> {
  const { status, body } = await t.json<{ data: T }>('GET', `/api/reports/${report}?${RANGE}`, { cookie: owner });
  expect(status).toBe(200);
  return body.data;
}

async function exported(reportType: string, format: 'pdf' | 'csv'): Promise<Uint8Array> {
  const { body } = await t.json<{ id: number }>('POST', '/api/reports/exports', { cookie: owner, body: { report_type: reportType, format, env: 'live', from: FROM, to: TO } });
  await t.s.exports.drain();
  const job = (await t.json<ExportJob>('GET', `/api/reports/exports/${body.id}`, { cookie: owner })).body;
  expect(job.status).toBe('succeeded');
  return new Uint8Array(await (await t.call('GET', job.download_url!, { cookie: owner })).arrayBuffer());
}

function pdfText(bytes: Uint8Array): string {
  return execFileSync('/usr/bin/pdftotext', ['-layout', '-', '-'], { input: bytes }).toString();
}

/** The figures of every pdftotext line whose first cell is `label` (cells are parted by 2+ spaces). */
function lineFigures(text: string, label: string): string[][] {
  const lines = text.split('\n').map((l) => l.trim().split(/\s{2,}/)).filter((cells) => cells[0] === label);
  expect(lines.length, `a line starting with "${label}"`).toBeGreaterThan(0);
  return lines.map((cells) => cells.slice(1));
}

const n = (x: number) => x.toLocaleString('en-US');
const p = (x: number) => `${x.toFixed(1)}%`;

describe('the reporting API', () => {
  it('overview: screening figures beside the verification products, from ledger and review audit rows only', async () => {
    const o = await api<Overview>('overview');
    expect(o.total_verifications).toBe(12);
    expect(o.by_product).toEqual({ human: 4, age: 4, identity: 2, compliance: 2 });
    expect(o.screening).toEqual(SCREENING);
  });

  it('regulatory coverage counts KYC plus, screenings and rescreenings: the overview\'s figures add up to it', async () => {
    const [o, c] = [await api<Overview>('overview'), await api<RegulatoryCoverage>('regulatory-coverage')];
    expect(c.compliance_verifications).toBe(o.by_product.compliance + o.screening.total);
  });

  it('an empty range: zeros, a hit rate of 0 and no median', async () => {
    const { body } = await t.json<{ data: Overview }>('GET', '/api/reports/overview?env=live&from=2026-02-01&to=2026-02-07', { cookie: owner });
    expect(body.data.screening).toEqual({
      screenings: 0, rescreenings: 0, total: 0, completed: 0, errors: 0, with_hit: 0, hit_rate: 0,
      dispositions: { cleared_false_positive: 0, escalated: 0, needs_info: 0 }, awaiting_approval: 0, decided: 0, median_time_to_decision_ms: null,
    });
  });

  it('another organisation sees only its own screening and decision', async () => {
    const cookie = await other.login();
    const { body } = await t.json<{ data: Overview }>('GET', `/api/reports/overview?${RANGE}`, { cookie });
    expect(body.data.total_verifications).toBe(1);
    expect(body.data.screening).toMatchObject({ screenings: 1, total: 1, with_hit: 1, dispositions: { needs_info: 1, cleared_false_positive: 0, escalated: 0 }, median_time_to_decision_ms: HOUR });
  });

  it('401 without a session; the screening figures are counts and timings only', async () => {
    expect((await t.json('GET', `/api/reports/overview?${RANGE}`)).status).toBe(401);
    const o = await api<Overview>('overview');
    const leaves = (v: unknown): unknown[] => (v !== null && typeof v === 'object' ? Object.values(v).flatMap(leaves) : [v]);
    for (const v of leaves(o.screening)) expect(v === null || typeof v === 'number').toBe(true);
  });
});

describe('the CSV export gives the API\'s numbers', () => {
  it('full: summary, products (label in item, code in item_id), screening, coverage and credits equal the API', async () => {
    const csv = new TextDecoder().decode(await exported('full', 'csv')).replace(/^\uFEFF/, '');
    const rows = Papa.parse<string[]>(csv, { skipEmptyLines: true }).data.slice(1);
    const cell = (section: string, itemId: string, metric: string, item?: string) => {
      const found = rows.filter((r) => r[0] === section && (item === undefined || r[1] === item) && (r[2] === itemId || (itemId === '' && item === undefined && r[1] === 'all')) && r[4] === metric);
      expect(found, `${section}/${item ?? ''}/${itemId}/${metric}`).toHaveLength(1);
      return found[0]![5]!;
    };
    const [o, u, c] = [await api<Overview>('overview'), await api<Usage>('usage'), await api<RegulatoryCoverage>('regulatory-coverage')];
    expect(cell('summary', '', 'total_verifications')).toBe(String(o.total_verifications));
    expect(cell('summary', '', 'pass_rate')).toBe(String(o.pass_rate));
    const labels = { human: 'Liveness', age: 'Age', identity: 'Identity', compliance: 'KYC plus' } as const;
    for (const [code, label] of Object.entries(labels)) {
      expect(cell('by_product', code, 'count', label)).toBe(String(o.by_product[code as keyof typeof labels]));
      const usage = u.by_product.find((x) => x.product === code)!;
      expect(cell('usage_by_product', code, 'percentage', label)).toBe(String(usage.percentage));
    }
    expect(cell('credits_consumed', 'screen', 'credits', 'Screening')).toBe(String(u.credits_consumed.screen));
    expect(cell('credits_consumed', 'rescreen', 'credits', 'Rescreen')).toBe(String(u.credits_consumed.rescreen));
    for (const m of ['screenings', 'rescreenings', 'total', 'completed', 'errors', 'with_hit', 'hit_rate', 'awaiting_approval', 'decided', 'median_time_to_decision_ms'] as const) {
      expect(cell('screening', '', m), m).toBe(String(o.screening[m]));
    }
    expect(cell('screening_disposition', 'cleared_false_positive', 'count', 'Cleared')).toBe(String(o.screening.dispositions.cleared_false_positive));
    expect(cell('screening_disposition', 'escalated', 'count', 'Escalated')).toBe(String(o.screening.dispositions.escalated));
    expect(cell('screening_disposition', 'needs_info', 'count', 'Needs info')).toBe(String(o.screening.dispositions.needs_info));
    expect(cell('regulatory', '', 'compliance_verifications')).toBe(String(c.compliance_verifications));
    expect(cell('regulatory', '', 'hit_rate')).toBe(String(c.hit_rate));
    expect(rows.some((r) => r[1] === 'human' || r[1] === 'Human')).toBe(false);
  });
});

describe('the PDF export gives the API\'s numbers under the same labels', () => {
  it('full: the product labels, the screening figures and the coverage made of KYC plus and screenings', async () => {
    const text = pdfText(await exported('full', 'pdf'));
    const [o, u, c] = [await api<Overview>('overview'), await api<Usage>('usage'), await api<RegulatoryCoverage>('regulatory-coverage')];
    expect(text).not.toMatch(/\bHuman\b/);
    expect(text).not.toMatch(/^\s*(human|screen|rescreen|compliance)\s/m);
    // The breakdown by product: the API's counts and shares.
    for (const [label, code] of [['Liveness', 'human'], ['Age', 'age'], ['Identity', 'identity'], ['KYC plus', 'compliance']] as const) {
      const share = u.by_product.find((x) => x.product === code)!.percentage;
      expect(lineFigures(text, label), label).toContainEqual([n(o.by_product[code]), p(share)]);
    }
    // Credits by operation under the same labels.
    expect(lineFigures(text, 'Screening')).toContainEqual([n(u.credits_consumed.screen!)]);
    expect(lineFigures(text, 'Rescreen')).toContainEqual([n(u.credits_consumed.rescreen!)]);
    // Screening checks: volume, hit rate, dispositions, time to decision.
    expect(text).toContain('Screening checks');
    expect(text).toContain(`${o.screening.screenings} screenings, ${o.screening.rescreenings} rescreens`);
    expect(lineFigures(text, 'Cleared')).toContainEqual([n(o.screening.dispositions.cleared_false_positive)]);
    expect(lineFigures(text, 'Escalated')).toContainEqual([n(o.screening.dispositions.escalated)]);
    expect(lineFigures(text, 'Needs info')).toContainEqual([n(o.screening.dispositions.needs_info)]);
    expect(lineFigures(text, 'Awaiting a second approval')).toContainEqual([n(o.screening.awaiting_approval)]);
    expect(text).toMatch(new RegExp(`HIT RATE[\\s\\S]*${p(o.screening.hit_rate).replace('.', '\\.')}`));
    expect(text).toContain('2 h 0 min');
    // Coverage: one figure, said as what it is made of.
    expect(text).toContain(`KYC plus ${o.by_product.compliance} + screening checks ${o.screening.total} = ${c.compliance_verifications}`);
  });

  it('volume: the pass rate tile is the API\'s (passed of decided), not passed of all', async () => {
    const [text, v, o] = [pdfText(await exported('volume', 'pdf')), await api<Volume>('volume'), await api<Overview>('overview')];
    expect(v.totals.total).toBe(o.total_verifications);
    expect(text).toMatch(/PASS RATE/);
    expect(text).toContain(p(o.pass_rate));
  });

  it('widget performance: the pass rate tile is the API\'s', async () => {
    const [text, w] = [pdfText(await exported('widget-performance', 'pdf')), await api<WidgetPerformance>('widget-performance')];
    const pass = w.widgets.reduce((s, x) => s + x.pass, 0);
    const fail = w.widgets.reduce((s, x) => s + x.fail, 0);
    const o = await api<Overview>('overview');
    expect(pass).toBe(o.pass_count);
    expect(fail).toBe(o.fail_count);
    const summary = text.split('Widget performance')[1]!.split('Widget (API key)')[0]!;
    expect(summary).toContain(p(o.pass_rate));
  });

  it('V2.1: the summary the PDF prints is the API\'s', async () => {
    const [text, v] = [pdfText(await exported('verification-v21', 'pdf')), await api<V21Verification>('v21/verification')];
    expect(text).toContain(`${n(v.summary.pass)} passed, ${n(v.summary.fail)} failed`);
    expect(text).toContain(p(v.summary.pass_rate));
  });
});

describe('a new decision', () => {
  it('is in the next overview: the cached figures are not served after an audit row', async () => {
    await api<Overview>('overview');
    const again = await t.json<{ data: Overview; meta: { cached: boolean } }>('GET', `/api/reports/overview?${RANGE}`, { cookie: owner });
    expect(again.body.meta.cached).toBe(true);
    await decide('scr_r2', '2026-03-08', 4 * HOUR, { action: 'disposition.set', disposition: 'escalated' });
    const after = await t.json<{ data: Overview; meta: { cached: boolean } }>('GET', `/api/reports/overview?${RANGE}`, { cookie: owner });
    expect(after.body.meta.cached).toBe(false);
    expect(after.body.data.screening.dispositions.escalated).toBe(2);
    // scr_4 1 h, scr_6 2 h, scr_5 3 h, scr_r2 (first decided, removed, decided again) 1 h: the middle pair 1 h and 2 h.
    expect(after.body.data.screening.median_time_to_decision_ms).toBe(1.5 * HOUR);
  });
});
