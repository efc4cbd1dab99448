// The shipped PEP sources (issue 23): screening on lists ['pep'] out of the box, PEP matches at
// medium risk with the current/former PEP qualifier, and newer PEP files through the official
// import (HTTP, owners and admins).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListsStatus } from '../../../src-shared/contracts/lists';
import type { ScreeningResponse } from '../../../src-shared/contracts/screening';
import { closeAll, testService, type TestService } from './harness';
import { cliSync } from './cli-command';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const EXECUTIVE = readFileSync(join(ROOT, 'resources/watchlists/pep_us_congress/2026-06-15/executive.yaml'));

type Body = ScreeningResponse & { error: { type: string; code: string; message: string } };

let t: TestService;
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  expect(await t.s.screening.ready(60_000)).not.toBeNull();
}, 90_000);
afterAll(closeAll);

async function screen(subject: Record<string, string>, lists?: string[]): Promise<Body> {
  const r = await t.json<Body>('POST', '/api/compliance/v1/screen', {
    key: (await t.key()).api_key, body: { subject: { type: 'individual', ...subject }, ...(lists ? { screening: { lists } } : {}) },
  });
  expect(r.status).toBe(200);
  return r.body;
}

describe('PEP screening out of the box', () => {
  it('a former president: a strong match, medium risk, former_pep with his last end date', async () => {
    const body = await screen({ first_name: 'Joe', last_name: 'Biden', date_of_birth: '1942-11-20' }, ['pep']);
    expect(body.screening.lists_checked).toEqual(['pep']);
    const m = body.matches.find((x) => x.source === 'pep_us_executive');
    expect(m).toMatchObject({ list: 'pep', strength: 'strong', risk_level: 'medium', dates_of_birth: ['1942-11-20'] });
    expect(m?.explanation.qualifiers).toContainEqual({ factor: 'former_pep', effect: 0, detail: 'former President of the United States until 2025-01-20' });
    expect(m?.programs).toEqual(['Vice President of the United States', 'President of the United States']);
    expect(body.risk).toMatchObject({ level: 'medium', decision: 'review' });
    expect(body.flags).toContain('PEP_STRONG_MATCH');
    expect(body.screening.list_versions.map((v) => [v.source, v.list_date])).toEqual([
      ['pep_us_congress', '2026-06-10'], ['pep_us_executive', '2025-01-20'], ['pep_wikidata_leaders', '2025-10-03'],
    ]);
  });

  it('the sitting president is a current PEP', async () => {
    const body = await screen({ first_name: 'Donald', last_name: 'Trump', date_of_birth: '1946-06-14' }, ['pep']);
    const m = body.matches.find((x) => x.source === 'pep_us_executive');
    expect(m).toMatchObject({ strength: 'strong', risk_level: 'medium' });
    expect(m?.explanation.qualifiers).toContainEqual({ factor: 'current_pep', effect: 0, detail: 'current President of the United States (since 2025-01-20)' });
    expect(m?.explanation.qualifiers.some((q) => q.factor === 'former_pep')).toBe(false);
  });

  it('a current head of government from the Wikidata list, with the country of the office', async () => {
    const body = await screen({ first_name: 'Shigeru', last_name: 'Ishiba', country: 'JP' }, ['pep']);
    const m = body.matches.find((x) => x.entity_id === 'pep_wikidata_leaders:Q1335527');
    expect(m).toMatchObject({ list: 'pep', countries: ['JP'], risk_level: 'medium' });
    expect(m?.explanation.qualifiers).toContainEqual({ factor: 'current_pep', effect: 0, detail: 'current Head of government of Japan (since 2024-11-11)' });
    expect(m?.explanation.qualifiers).toContainEqual(expect.objectContaining({ factor: 'country_match' }));
    expect(body.risk.level).toBe('medium');
  });

  it('sanctions-only screening returns no PEP match; a sanctioned head of state stays high on sanctions', async () => {
    const sanctionsOnly = await screen({ first_name: 'Joe', last_name: 'Biden', date_of_birth: '1942-11-20' }, ['sanctions']);
    expect(sanctionsOnly.screening.lists_checked).toEqual(['sanctions']);
    expect(sanctionsOnly.matches.filter((m) => m.list === 'pep')).toEqual([]);
    expect(sanctionsOnly.screening.list_versions.some((v) => v.source.startsWith('pep_'))).toBe(false);
    const putin = await screen({ first_name: 'Vladimir', last_name: 'Putin', date_of_birth: '1952-10-07', country: 'RU' });
    expect(putin.screening.lists_checked).toEqual(['sanctions', 'pep']);
    expect(putin.matches.find((m) => m.list === 'pep')).toMatchObject({ source: 'pep_wikidata_leaders', risk_level: 'medium' });
    expect(putin.risk.level).toBe('high');
    // The higher-risk match comes first, whatever the ids.
    expect(putin.matches[0]).toMatchObject({ list: 'sanctions', risk_level: 'high' });
  });

  it('GET /api/screening/lists names the PEP kind, each official list\'s publisher, checksum and licence', async () => {
    const cookie = await t.login();
    const { body } = await t.json<ListsStatus>('GET', '/api/screening/lists', { cookie });
    expect(body.loaded_kinds).toEqual(['sanctions', 'pep']);
    const wd = body.lists.find((l) => l.source === 'pep_wikidata_leaders');
    expect(wd).toMatchObject({
      kind: 'pep', list_date: '2025-10-03', retrieval_date: '2025-10-03', sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      publisher: expect.stringContaining('Wikidata'), terms: expect.stringContaining('CC0'),
    });
    expect(body.lists.find((l) => l.source === 'pep_us_congress')).toMatchObject({ kind: 'pep', terms: expect.stringContaining('CC0'), publisher: expect.stringContaining('@unitedstates') });
    expect(body.lists.find((l) => l.source === 'un_sc')?.publisher).toBe('United Nations Security Council');
  });
});

describe('POST /api/screening/lists/official with a PEP file', () => {
  const post = (u: TestService, source: string, body: string | Uint8Array, headers: Record<string, string>) =>
    u.app.request(`http://127.0.0.1/api/screening/lists/official?source=${source}&filename=executive.yaml`, {
      method: 'POST', headers: { Origin: 'http://127.0.0.1', 'Content-Type': 'application/octet-stream', ...headers },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });

  it('happy: a newer executive.yaml replaces the shipped one, recognised by content', async () => {
    const u = await testService({ plan: 'pro' });
    const cookie = await u.login();
    const newer = Buffer.concat([EXECUTIVE, Buffer.from(`- id:\n    bioguide: Z999999\n  name:\n    first: Quentin\n    last: Abernathy-Vole\n  bio:\n    birthday: '1961-04-12'\n  terms:\n  - type: viceprez\n    start: '2029-01-20'\n    end: '2033-01-20'\n`)]);
    const res = await post(u, 'pep_us_executive', newer, { Cookie: cookie });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ ok: true, source: 'pep_us_executive', format: 'us-legislators-yaml', records: 81, list_date: '2029-01-20' });
    const r = await u.json<Body>('POST', '/api/compliance/v1/screen', {
      key: (await u.key()).api_key, body: { subject: { type: 'individual', first_name: 'Quentin', last_name: 'Abernathy-Vole', date_of_birth: '1961-04-12' }, screening: { lists: ['pep'] } },
    });
    expect(r.body.matches[0]).toMatchObject({ source: 'pep_us_executive', risk_level: 'medium' });
    expect(r.body.matches[0]?.explanation.qualifiers).toContainEqual({ factor: 'current_pep', effect: 0, detail: 'current Vice President of the United States (since 2029-01-20)' });
  }, 120_000);

  it('errors: the wrong list, another format, an oversize YAML (400); over the route limit (413)', async () => {
    const cookie = await t.login();
    const asCongress = await post(t, 'pep_us_congress', EXECUTIVE, { Cookie: cookie });
    expect(asCongress.status).toBe(400);
    expect(JSON.stringify(await asCongress.json())).toMatch(/Not imported: the file is the U\.S\. Presidents.*not the U\.S\. Congress/);
    const notCsv = await post(t, 'pep_wikidata_leaders', 'name,dob\nx,1960\n', { Cookie: cookie });
    expect(notCsv.status).toBe(400);
    expect(JSON.stringify(await notCsv.json())).toContain('not a Wikidata leaders CSV');
    const big = await post(t, 'pep_us_executive', new Uint8Array(33 * 2 ** 20).fill(0x20), { Cookie: cookie });
    expect(big.status).toBe(400);
    expect(JSON.stringify(await big.json())).toContain('larger than 32 MiB');
    const over = await post(t, 'pep_us_executive', 'x', { Cookie: cookie, 'Content-Length': String(64 * 1024 * 1024 + 1) });
    expect(over.status).toBe(413);
    // Nothing was stored: the shipped executive list is still the one screened.
    expect(t.s.screening.current()?.catalog.find((c) => c.source === 'pep_us_executive')?.retrieval_date).toBe('2026-06-15');
  });

  it('security: members may not import (403), nor anyone signed out (401), nor an API key', async () => {
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'pep-member@example.test', name: 'Mem', password: 'member password 1', role: 'member' });
    const member = await t.login('pep-member@example.test', 'member password 1');
    expect((await post(t, 'pep_us_executive', EXECUTIVE, { Cookie: member })).status).toBe(403);
    expect((await post(t, 'pep_us_executive', EXECUTIVE, {})).status).toBe(401);
    expect((await post(t, 'pep_us_executive', EXECUTIVE, { 'X-API-Key': (await t.key()).api_key })).status).toBe(401);
  });
});

describe('lists import --source pep_wikidata_leaders (CLI)', () => {
  it('takes the history and current files together, tells them apart by name, and the service loads them', async () => {
    const u = await testService({ plan: 'pro' });
    const dir = join(ROOT, 'resources/watchlists/pep_wikidata_world_leaders/2025-10-03');
    const r = cliSync([
      'lists', 'import', '--data-dir', u.dataDir, '--source', 'pep_wikidata_leaders',
      join(dir, 'leaders_current.csv'), join(dir, 'leaders_history.csv'), '--json',
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, source: 'pep_wikidata_leaders', format: 'wikidata-leaders-csv', records: 6094, list_date: '2025-10-03' });
    expect(await u.s.screening.refresh()).toBe(true);
    const v = u.s.screening.current()!.catalog.find((c) => c.source === 'pep_wikidata_leaders')!;
    // The same bytes as shipped, read as a set: the same version hash, now the organisation's own copy.
    expect(v.sha256).toBe(t.s.screening.current()!.catalog.find((c) => c.source === 'pep_wikidata_leaders')!.sha256);
    expect(v.retrieval_date).toBe(new Date().toISOString().slice(0, 10));
  }, 120_000);
});
