// POST /api/compliance/v1/screen and /rescreen over the real shipped lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScreeningResponse } from '../../../../src-shared/contracts/screening';
import { closeAll, testService, type TestService } from '../harness';

let t: TestService;
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  expect(await t.s.screening.ready(60_000)).not.toBeNull();
}, 90_000);
afterAll(closeAll);

const PUTIN = { type: 'individual', first_name: 'Vladimir', last_name: 'Putin', date_of_birth: '1952-10-07', country: 'RU' };
const CLEAR = { type: 'individual', first_name: 'Ingeborg', last_name: 'Abrahamsen', date_of_birth: '1972-11-21' };

// Success and error bodies share one type here so assertions can reach into either.
type Body = ScreeningResponse & { error: { type: string; code: string; message: string } };

describe('screen: the ledger row classifies the result (migration 0010; docs/reports.md)', () => {
  it('a hit writes its kinds of list and screening_hit; a clear result writes no hit; the reports count both', async () => {
    const k = await t.key();
    const hit = await t.json<Body>('POST', '/api/compliance/v1/screen', { key: k.api_key, body: { subject: PUTIN } });
    const clear = await t.json<Body>('POST', '/api/compliance/v1/screen', { key: k.api_key, body: { subject: CLEAR } });
    const row = async (id: string) => (await t.sql('SELECT status, error_code, hit_categories FROM verifications WHERE id = ?', id))[0];
    // Putin is on the sanctions lists and, as Russia's head of state, on the shipped PEP list.
    expect(await row(hit.body.id)).toEqual({ status: 'completed', error_code: 'screening_hit', hit_categories: 'sanctions,pep' });
    expect(await row(clear.body.id)).toEqual({ status: 'completed', error_code: null, hit_categories: '' });
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    const cookie = await t.login();
    const r = await t.json<{ data: { categories: { category: string; hits: number }[]; hit_rate: number } }>(
      'GET', `/api/reports/regulatory-coverage?env=test&from=${today}&to=${today}`, { cookie },
    );
    expect(r.body.data.categories.find((c) => c.category === 'sanctions')!.hits).toBeGreaterThanOrEqual(1);
    expect(r.body.data.hit_rate).toBeGreaterThan(0);
  });
});

describe('screen: happy paths', () => {
  it('finds a listed person, explains the match, and answers in the spec shape', async () => {
    const k = await t.key();
    const { status, body, res } = await t.json<Body>('POST', '/api/compliance/v1/screen', {
      key: k.api_key, body: { client_reference_id: 'cust-1', subject: PUTIN, metadata: { channel: 'web', email: 'a@b.example' } },
    });
    expect(status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(body).toMatchObject({
      object: 'compliance.screening', livemode: false, status: 'completed', client_reference_id: 'cust-1', subject_type: 'individual',
      provider: { normalized: true, raw_response_included: false },
      screening: { lists_checked: ['sanctions', 'pep'], search_mode: 'standard', provider_reference_id: null },
      risk: { level: 'high', decision: 'high_risk_review' },
      flags: expect.arrayContaining(['SANCTIONS_STRONG_MATCH']),
      data_retention: {
        input_payload_stored: false, result_payload_stored: false, raw_provider_response_stored: false,
        biometric_media_stored: false, retention_model: 'ephemeral_processing_only',
      },
      metadata: { channel: 'web' },
    });
    expect(body.id).toMatch(/^scr_/);
    expect(body.risk.reasons).toContain('sanctions_strong_match');
    // One person, one match (docs/decisions.md): the OFAC, UK and Australian records are its listings.
    expect(body.matches.filter((m) => m.list === 'sanctions')).toHaveLength(1);
    const top = body.matches.find((m) => m.source === 'us_ofac_sdn')!;
    expect(top).toMatchObject({ entity_id: 'us_ofac_sdn:35096', list: 'sanctions', source: 'us_ofac_sdn', strength: 'strong' });
    expect(top.explanation.alignment.map((a) => a.method)).toContain('exact');
    expect(top.explanation.qualifiers.map((q) => q.factor)).toEqual(expect.arrayContaining(['dob_exact', 'country_match']));
    expect(body.screening.list_versions.map((v) => v.source).sort()).toEqual(['au_dfat', 'pep_us_congress', 'pep_us_executive', 'pep_wikidata_leaders', 'uk_sanctions', 'un_sc', 'us_csl', 'us_ofac_cons', 'us_ofac_sdn']);
    expect(JSON.stringify(body)).not.toMatch(/approved|rejected|"pass"|"fail"/i);
  });

  it('a clear subject: score 0, no matches, no flags', async () => {
    const k = await t.key();
    const { body } = await t.json<Body>('POST', '/api/compliance/v1/screen', { key: k.api_key, body: { subject: CLEAR } });
    expect(body).toMatchObject({ risk: { score: 0, level: 'low', decision: 'clear', reasons: [] }, matches: [], flags: [], client_reference_id: null });
  });

  it('a listed name with a different date of birth is still reported, marked down to possible and explained', async () => {
    const k = await t.key();
    const { status, body } = await t.json<Body>('POST', '/api/compliance/v1/screen', {
      key: k.api_key, body: { subject: { ...PUTIN, date_of_birth: '1990-01-01' } },
    });
    expect(status).toBe(200);
    const m = body.matches.find((x) => x.entity_id === 'us_ofac_sdn:35096');
    // The exact name (100) with the listed country (+3) and a date of birth that is not the
    // listed one (-25): reported as possible, in the review band; the right date gives 100, strong.
    expect(m).toBeDefined();
    expect(m).toMatchObject({ score: 78, strength: 'possible', risk_level: 'medium' });
    expect(m!.explanation.qualifiers).toEqual([
      { factor: 'dob_mismatch', effect: -25, detail: expect.any(String) },
      { factor: 'country_match', effect: 3, detail: expect.any(String) },
    ]);
    expect(m!.explanation.summary).toBe('name matches; date of birth differs; country is listed');
    expect(body.risk).toMatchObject({ level: 'medium', decision: 'review' });
    expect(body.flags).toContain('SANCTIONS_POSSIBLE_MATCH');
    expect(body.flags).not.toContain('SANCTIONS_STRONG_MATCH');
  });

  it('lists_checked reports only lists actually loaded: asking for wanted lists alone is refused as unavailable', async () => {
    const k = await t.key();
    const both = await t.json<Body>('POST', '/api/compliance/v1/screen', { key: k.api_key, body: { subject: PUTIN, screening: { lists: ['sanctions', 'wanted'] } } });
    expect(both.body.screening.lists_checked).toEqual(['sanctions']);
    const wantedOnly = await t.json<Body>('POST', '/api/compliance/v1/screen', { key: k.api_key, body: { subject: PUTIN, screening: { lists: ['wanted'] } } });
    expect(wantedOnly.status).toBe(503);
    expect(wantedOnly.body.error.code).toBe('compliance_provider_unavailable');
  });
});

describe('screen: one listed person, one match (issue 36)', () => {
  const sanctionsOnly = { subject: PUTIN, screening: { lists: ['sanctions'] } };

  it('Putin, on the OFAC, UK and Australian lists, is one match naming each listing; MULTIPLE_MATCHES is not raised', async () => {
    const k = await t.key();
    const { body } = await t.json<Body>('POST', '/api/compliance/v1/screen', { key: k.api_key, body: sanctionsOnly });
    expect(body.matches).toHaveLength(1);
    const m = body.matches[0]!;
    expect(m).toMatchObject({ entity_id: 'us_ofac_sdn:35096', strength: 'strong' });
    expect(m.listings.map((l) => l.entity_id)).toEqual(['us_ofac_sdn:35096', 'uk_sanctions:14196', 'au_dfat:6678']);
    expect(m.listings.find((l) => l.source === 'uk_sanctions')).toMatchObject({ programs: ['Russia'], listed_on: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(m.listings.find((l) => l.source === 'au_dfat')!.programs).toEqual(['Autonomous (Russia)']);
    expect(body.flags).not.toContain('MULTIPLE_MATCHES');
    // Provenance stays per source.
    expect(body.screening.list_versions.map((v) => v.source)).toEqual(expect.arrayContaining(['us_ofac_sdn', 'uk_sanctions', 'au_dfat']));
  });

  it('the merged match is cleared by its hash or by each listing\'s, and reopens when one listing\'s hash is not the current one', async () => {
    const k = await t.key();
    const first = await t.json<Body>('POST', '/api/compliance/v1/screen', { key: k.api_key, body: sanctionsOnly });
    const m = first.body.matches[0]!;
    const rescreen = (cleared_matches: { entity_id: string; record_hash: string }[]) => t.json<Body>('POST', '/api/compliance/v1/rescreen', {
      key: k.api_key,
      body: { ...sanctionsOnly, previous_screening_id: first.body.id, previous_result_summary: { risk_score: first.body.risk.score, risk_level: first.body.risk.level, flags: first.body.flags, cleared_matches } },
    });
    const byMatch = await rescreen([{ entity_id: m.entity_id, record_hash: m.record_hash }]);
    expect(byMatch.body.matches[0]!.cleared).toBe(true);
    expect(byMatch.body.risk.level).toBe('low');
    const each = m.listings.map((l) => ({ entity_id: l.entity_id, record_hash: l.record_hash }));
    expect((await rescreen(each)).body.matches[0]!.cleared).toBe(true);
    const stale = await rescreen(each.map((c) => (c.entity_id.startsWith('au_dfat:') ? { ...c, record_hash: '0000000000000000' } : c)));
    expect(stale.body.matches[0]!.cleared).toBe(false);
    expect(stale.body.flags).toContain('CLEARED_MATCH_RECORD_CHANGED');
  });
});

describe('screen: errors', () => {
  it.each([
    ['subject.type', { subject: { ...PUTIN, type: 'company' } }],
    ['subject.first_name', { subject: { type: 'individual', last_name: 'Zyqsecret' } }],
    ['subject.last_name', { subject: { type: 'individual', first_name: 'Zyqsecret' } }],
    ['subject.date_of_birth', { subject: { ...PUTIN, first_name: 'Zyqsecret', date_of_birth: '1952-13-45' } }],
    ['subject.country', { subject: { ...PUTIN, first_name: 'Zyqsecret', country: 'RUS' } }],
    ['screening.lists.0', { subject: { ...PUTIN, first_name: 'Zyqsecret' }, screening: { lists: ['interpol'] } }],
    ['screening.provider', { subject: { ...PUTIN, first_name: 'Zyqsecret' }, screening: { provider: 'acme' } }],
  ])('400 invalid_subject naming %s, never echoing values, not billed', async (field, body) => {
    await t.grant(100);
    const k = await t.key({ env: 'live' });
    const before = (await t.s.credits.balance(t.orgId));
    const r = await t.json<Body>('POST', '/api/compliance/v1/screen', { key: k.api_key, body });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: { type: 'invalid_request', code: 'invalid_subject', message: expect.stringContaining(field) } });
    expect(JSON.stringify(r.body)).not.toMatch(/Zyqsecret|1952-13-45|RUS|interpol|acme/);
    expect((await t.s.credits.balance(t.orgId))).toBe(before);
  });

  it('403 plan restriction below Pro', async () => {
    const u = await testService({ plan: 'pro' });
    const k = await u.key();
    await u.setPlan('growth');
    const r = await u.json<Body>('POST', '/api/compliance/v1/screen', { key: k.api_key, body: { subject: CLEAR } });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ status: 'ERROR', upgrade_url: expect.stringContaining('#/plan') });
  });

  it('provider unavailable: 503 screening error, a non-billable attempt, a failed event', async () => {
    const u = await testService({ plan: 'pro', resourcesDir: '/nonexistent-resources' });
    await u.grant(100);
    const cookie = await u.login();
    await u.json('POST', '/api/webhooks', { cookie, body: { url: 'https://receiver.example/h', env: 'live', events: ['compliance.screening.failed'] } });
    const k = await u.key({ env: 'live' });
    const r = await u.json<Body>('POST', '/api/compliance/v1/screen', { key: k.api_key, body: { subject: CLEAR } });
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ error: { type: 'provider_unavailable', code: 'compliance_provider_unavailable', message: expect.any(String) } });
    expect((await u.s.credits.balance(u.orgId))).toBe(100);
    expect((await u.sql('SELECT billable, credits, error_code FROM verifications'))).toEqual([
      { billable: 0, credits: 0, error_code: 'compliance_provider_unavailable' },
    ]);
    const ev = (await u.sql('SELECT type FROM webhook_events'));
    expect(ev).toEqual([{ type: 'compliance.screening.failed' }]);
  });
});

describe('billing and events', () => {
  it('live: screen costs 60, rescreen 30; test keys are free; an idempotent retry is free and identical', async () => {
    const u = await testService({ plan: 'pro' });
    await u.grant(200);
    const live = await u.key({ env: 'live' });
    const a = await u.json<Body>('POST', '/api/compliance/v1/screen', { key: live.api_key, body: { subject: CLEAR }, headers: { 'Idempotency-Key': 'k1' } });
    expect(a.status).toBe(200);
    expect(a.body.livemode).toBe(true);
    expect((await u.s.credits.balance(u.orgId))).toBe(140);
    const again = await u.json<Body>('POST', '/api/compliance/v1/screen', { key: live.api_key, body: { subject: CLEAR }, headers: { 'Idempotency-Key': 'k1' } });
    expect(again.body).toEqual(a.body);
    expect((await u.s.credits.balance(u.orgId))).toBe(140);
    await u.json('POST', '/api/compliance/v1/rescreen', { key: live.api_key, body: { subject: CLEAR, previous_screening_id: a.body.id } });
    expect((await u.s.credits.balance(u.orgId))).toBe(110);
    await u.json('POST', '/api/compliance/v1/screen', { key: (await u.key({ env: 'test' })).api_key, body: { subject: CLEAR } });
    expect((await u.s.credits.balance(u.orgId))).toBe(110);
  });

  it('events carry the public-safe result: no subject, reference, metadata or list records', async () => {
    const u = await testService({ plan: 'pro' });
    const cookie = await u.login();
    await u.json('POST', '/api/webhooks', {
      cookie, body: { url: 'https://receiver.example/h', env: 'test', events: ['compliance.screening.completed', 'compliance.rescreen.completed', 'compliance.rescreen.risk_changed'] },
    });
    const k = await u.key();
    const s = await u.json<Body>('POST', '/api/compliance/v1/screen', { key: k.api_key, body: { client_reference_id: 'ref-777', subject: PUTIN, metadata: { tag: 'm-888' } } });
    await u.json('POST', '/api/compliance/v1/rescreen', {
      key: k.api_key, body: { subject: PUTIN, previous_screening_id: s.body.id, previous_result_summary: { risk_score: 0, risk_level: 'low', flags: [] } },
    });
    await u.json('POST', '/api/compliance/v1/rescreen', { key: k.api_key, body: { subject: PUTIN, previous_screening_id: s.body.id } });
    // (In the order of their ids: the clock stands still, and neither engine keeps an insertion order.)
    const rows = (await u.sql('SELECT type, payload FROM webhook_events')) as { type: string; payload: string }[];
    expect(rows.map((r) => r.type).sort()).toEqual([
      'compliance.rescreen.completed', 'compliance.rescreen.completed', 'compliance.rescreen.risk_changed', 'compliance.screening.completed',
    ]);
    const all = rows.map((r) => r.payload).join('\n');
    for (const secret of ['Vladimir', 'Putin', 'PUTIN', '1952-10-07', 'ref-777', 'm-888', 'us_ofac_sdn:35096']) expect(all).not.toContain(secret);
    expect(JSON.parse(rows[0]!.payload)).toMatchObject({ event: 'compliance.screening.completed', screening: { id: s.body.id, risk: { level: 'high' } } });
  });
});

describe('rescreen', () => {
  it('risk_change: unknown without a summary, increased from a low summary, unchanged from an equal one', async () => {
    const k = await t.key();
    const send = (summary?: Record<string, unknown>) => t.json<Body>('POST', '/api/compliance/v1/rescreen', {
      key: k.api_key,
      body: { subject: PUTIN, previous_screening_id: 'scr_prev', screening: { reason: 'regulatory_refresh' }, ...(summary ? { previous_result_summary: summary } : {}) },
    });
    const none = await send();
    expect(none.body.rescreen).toEqual({ previous_screening_id: 'scr_prev', reason: 'regulatory_refresh', risk_change: 'unknown_without_prior_result' });
    expect((await send({ risk_score: 0, risk_level: 'low', flags: [] })).body.rescreen?.risk_change).toBe('risk_increased');
    expect((await send({ risk_score: none.body.risk.score, risk_level: 'high', flags: none.body.flags })).body.rescreen?.risk_change).toBe('risk_unchanged');
  });

  it('a cleared match stays cleared while its record is unchanged, and reopens when it changed', async () => {
    const k = await t.key();
    const first = await t.json<Body>('POST', '/api/compliance/v1/screen', { key: k.api_key, body: { subject: PUTIN } });
    const top = first.body.matches[0]!;
    const summary = (hash: string) => ({
      risk_score: first.body.risk.score, risk_level: first.body.risk.level, flags: first.body.flags,
      cleared_matches: [{ entity_id: top.entity_id, record_hash: hash }],
    });
    const same = await t.json<Body>('POST', '/api/compliance/v1/rescreen', { key: k.api_key, body: { subject: PUTIN, previous_screening_id: first.body.id, previous_result_summary: summary(top.record_hash) } });
    expect(same.body.matches.find((m) => m.entity_id === top.entity_id)!.cleared).toBe(true);
    const changed = await t.json<Body>('POST', '/api/compliance/v1/rescreen', { key: k.api_key, body: { subject: PUTIN, previous_screening_id: first.body.id, previous_result_summary: summary('0000000000000000') } });
    expect(changed.body.matches.find((m) => m.entity_id === top.entity_id)!.cleared).toBe(false);
    expect(changed.body.flags).toContain('CLEARED_MATCH_RECORD_CHANGED');
  });

  it('400 when previous_screening_id is missing or the reason is not in the enum', async () => {
    const k = await t.key();
    expect((await t.json('POST', '/api/compliance/v1/rescreen', { key: k.api_key, body: { subject: CLEAR } })).status).toBe(400);
    const bad = await t.json<Body>('POST', '/api/compliance/v1/rescreen', { key: k.api_key, body: { subject: CLEAR, previous_screening_id: 'x', screening: { reason: 'whim' } } });
    expect(bad.body.error.message).toContain('screening.reason');
  });
});

describe('console screening (session)', () => {
  it('screens for the signed-in analyst, free in test, charged in live; lists are listed', async () => {
    const u = await testService({ plan: 'pro' });
    expect(await u.s.screening.ready(60_000)).not.toBeNull();
    await u.grant(100);
    const cookie = await u.login();
    const test = await u.json<Body>('POST', '/api/console/screen?env=test', { cookie, body: { subject: PUTIN } });
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ livemode: false, risk: { level: 'high' } });
    expect((await u.s.credits.balance(u.orgId))).toBe(100);
    const live = await u.json<Body>('POST', '/api/console/screen?env=live', { cookie, body: { subject: CLEAR } });
    expect(live.body.livemode).toBe(true);
    expect((await u.s.credits.balance(u.orgId))).toBe(40);
    expect((await u.json('POST', '/api/console/screen?env=live', { cookie, body: { subject: CLEAR } })).status).toBe(402);
    expect((await u.json('POST', '/api/console/screen?env=prod', { cookie, body: { subject: CLEAR } })).status).toBe(400);
    const lists = await u.json<{ state: string; loaded_kinds: string[]; lists: { source: string; title: string; counts: { total: number } }[] }>('GET', '/api/screening/lists', { cookie });
    expect(lists.body.state).toBe('ready');
    expect(lists.body.loaded_kinds).toEqual(['sanctions', 'pep']);
    expect(lists.body.lists.map((l) => l.source).sort()).toEqual(['au_dfat', 'pep_us_congress', 'pep_us_executive', 'pep_wikidata_leaders', 'uk_sanctions', 'un_sc', 'us_csl', 'us_ofac_cons', 'us_ofac_sdn']);
    expect(lists.body.lists.every((l) => l.counts.total > 0 && l.title.length > 0)).toBe(true);
  });

  it('refuses console screening below Pro', async () => {
    const u = await testService({ plan: 'growth' });
    const cookie = await u.login();
    expect((await u.json('POST', '/api/console/screen?env=test', { cookie, body: { subject: CLEAR } })).status).toBe(403);
  });
});

describe('a closed service', () => {
  it('ends its screening workers with its other workers', async () => {
    const t = await testService();
    const k = await t.key();
    const r = await t.json('POST', '/api/compliance/v1/screen', { key: k.api_key, body: { subject: { type: 'individual', first_name: 'Ada', last_name: 'Lovelace' } } });
    expect(r.status).toBe(200);
    expect(t.s.pool.workers()).toBeGreaterThan(0);
    t.close();
    await expect.poll(() => t.s.pool.workers()).toBe(0);
  });
});
