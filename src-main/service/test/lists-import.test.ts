// Lists an organisation adds: its own PEP/RCA/wanted lists and newer official files, through
// the CLI, picked up by a running service, reported in lists_checked and list_versions.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScreeningResponse } from '../../../src-shared/contracts/screening';
import { cliSync } from './cli-command';
import { closeAll, testService } from './harness';
import { PEP_CSV, truncatedUn as truncated, UN, UN_PATH } from './list-files';

afterAll(closeAll);
const ROOT = join(import.meta.dirname, '..', '..', '..');
const cli = (...args: string[]) => cliSync(args);

describe('user lists', () => {
  it('imported by the CLI, loaded by the service, screened with their own kind and version', async () => {
    const t = await testService({ plan: 'pro' });
    const file = join(t.dataDir, '..', `pep-${Date.now()}.csv`);
    writeFileSync(file, PEP_CSV);
    const r = cli('lists', 'import', '--data-dir', t.dataDir, '--user', 'Acme PEP list', file, '--json');
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { ok: boolean; source: string; rows: { imported: number; rejected: number }; errors: { row: number; column: string }[] };
    expect(report).toMatchObject({ ok: true, source: 'user:acme-pep-list', rows: { imported: 2, rejected: 1 } });
    expect(report.errors[0]).toMatchObject({ row: 4, column: 'name' });
    expect(r.stdout).not.toContain('missing name');

    expect(await t.s.screening.refresh()).toBe(true);
    const k = await t.key();
    const { body } = await t.json<ScreeningResponse>('POST', '/api/compliance/v1/screen', {
      key: k.api_key, body: { subject: { type: 'individual', first_name: 'Quentin', last_name: 'Abernathy-Vole', date_of_birth: '1961-04-12' }, screening: { lists: ['pep'] } },
    });
    expect(body.screening.lists_checked).toEqual(['pep']);
    expect(body.flags).toContain('PEP_STRONG_MATCH');
    expect(body.risk.level).not.toBe('low');
    // The user's PEP list is screened beside the shipped PEP sources.
    expect(body.screening.list_versions.map((v) => v.source)).toEqual(['pep_us_congress', 'pep_us_executive', 'pep_wikidata_leaders', 'user:acme-pep-list']);
    expect(body.matches[0]).toMatchObject({ source: 'user:acme-pep-list', list: 'pep', risk_level: 'medium' });
    const all = await t.json<ScreeningResponse>('POST', '/api/compliance/v1/screen', {
      key: k.api_key, body: { subject: { type: 'individual', first_name: 'Ingeborg', last_name: 'Abrahamsen' } },
    });
    expect(all.body.screening.lists_checked).toEqual(['sanctions', 'pep', 'rca']);

    const listed = cli('lists', 'list', '--data-dir', t.dataDir, '--json');
    expect(JSON.parse(listed.stdout).user[0]).toMatchObject({ slug: 'acme-pep-list', rows: 2 });
    expect(cli('lists', 'remove', '--data-dir', t.dataDir, '--user', 'Acme PEP list').status).toBe(0);
    expect(await t.s.screening.refresh()).toBe(true);
    const gone = await t.json<ScreeningResponse>('POST', '/api/compliance/v1/screen', {
      key: k.api_key, body: { subject: { type: 'individual', first_name: 'Quentin', last_name: 'Abernathy-Vole' } },
    });
    expect(gone.body.screening.lists_checked).toEqual(['sanctions', 'pep']);
    expect(gone.body.matches.some((m) => m.source === 'user:acme-pep-list')).toBe(false);
  }, 120_000);
});

describe('newer official files', () => {
  it('a newer file of an official source replaces the shipped one; a wrong file is refused', async () => {
    const t = await testService({ plan: 'pro' });
    const ok = cli('lists', 'import', '--data-dir', t.dataDir, '--source', 'un_sc', UN_PATH, '--json');
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, source: 'un_sc', format: 'un-xml', list_date: '2026-02-27', records: 1003 });
    const wrong = cli('lists', 'import', '--data-dir', t.dataDir, '--source', 'un_sc', join(ROOT, 'package.json'));
    expect(wrong.status).toBe(1);
    expect(wrong.stdout).toContain('Not imported');
    expect(await t.s.screening.refresh()).toBe(true);
    const lists = t.s.screening.current()!;
    const v = lists.catalog.find((c) => c.source === 'un_sc')!;
    expect(v.retrieval_date).toBe(new Date().toISOString().slice(0, 10));
    expect(readFileSync(join(t.dataDir, 'lists', 'index.json'), 'utf8')).toContain('un_sc');
  }, 120_000);
});

describe('console list import (session, owners and admins)', () => {
  it('imports a user list, reports row errors, lists it, and removes it', async () => {
    const t = await testService({ plan: 'pro' });
    const cookie = await t.login();
    const res = await t.call('POST', '/api/screening/lists/user?name=Internal%20watchlist', { cookie, rawBody: PEP_CSV, headers: { 'Content-Type': 'text/csv' } });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ ok: true, source: 'user:internal-watchlist', rows: { imported: 2, rejected: 1 } });
    const lists = await t.json<{ loaded_kinds: string[]; user_lists: { slug: string }[] }>('GET', '/api/screening/lists', { cookie });
    expect(lists.body.loaded_kinds).toEqual(['sanctions', 'pep', 'rca']);
    expect(lists.body.user_lists.map((u) => u.slug)).toEqual(['internal-watchlist']);
    const bad = await t.call('POST', '/api/screening/lists/official?source=us_csl', { cookie, rawBody: 'not a list', headers: { 'Content-Type': 'text/plain' } });
    expect(bad.status).toBe(400);
    expect((await t.json('DELETE', '/api/screening/lists/user/internal-watchlist', { cookie })).status).toBe(200);
    expect((await t.json<{ loaded_kinds: string[] }>('GET', '/api/screening/lists', { cookie })).body.loaded_kinds).toEqual(['sanctions', 'pep']);
  }, 120_000);
});

// Issue 38: a file that would empty much of an official list is held until an owner or admin
// confirms it; every import says what it adds, removes and changes.
describe('official imports: held when they remove much of a list, and what they change', () => {
  const PASSWORD = 'correct horse battery staple';
  type Status = { lists: { source: string; counts: { total: number } }[]; held_imports: { source: string; held: boolean; changes: { before: number; removed: number } }[] };
  const unRecords = (b: Status) => b.lists.find((l) => l.source === 'un_sc')!.counts.total;

  it('a cut-short file is held (202) with its changes, screening keeps the list in use; a member cannot apply it, an admin can', async () => {
    const t = await testService({ plan: 'pro' });
    const owner = await t.login();
    await t.s.screening.ready();
    const before = (await t.json<Status>('GET', '/api/screening/lists', { cookie: owner })).body;
    const res = await t.call('POST', '/api/screening/lists/official?source=un_sc&filename=consolidated.xml', { cookie: owner, rawBody: truncated(1), headers: { 'Content-Type': 'application/octet-stream' } });
    expect(res.status).toBe(202);
    const held = await res.json() as { held: boolean; reason: string; records: number; changes: { before: number; after: number; removed: number; added: number; examples: { removed: { name: string }[] }; by_program: { program: string; removed: number }[] } };
    expect(held).toMatchObject({ held: true, records: 1, changes: { before: 1003, after: 1, added: 0, removed: 1002 } });
    expect(held.reason).toContain('1002 of the 1003');
    expect(held.changes.examples.removed.length).toBe(25);
    expect(held.changes.by_program[0]!.removed).toBeGreaterThan(0);
    // Nothing changed: the list in use is the same, and the held file is listed.
    expect(await t.s.screening.refresh()).toBe(false);
    const during = (await t.json<Status>('GET', '/api/screening/lists', { cookie: owner })).body;
    expect(unRecords(during)).toBe(unRecords(before));
    expect(during.held_imports).toEqual([expect.objectContaining({ source: 'un_sc', held: true, changes: expect.objectContaining({ removed: 1002 }) })]);
    // Members may not confirm (nor discard); an admin may.
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'mo@example.test', name: 'Mo', password: PASSWORD, role: 'member' });
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'ada@example.test', name: 'Ada', password: PASSWORD, role: 'admin' });
    const member = await t.login('mo@example.test', PASSWORD);
    expect((await t.call('POST', '/api/screening/lists/official/held/un_sc', { cookie: member })).status).toBe(403);
    expect((await t.call('DELETE', '/api/screening/lists/official/held/un_sc', { cookie: member })).status).toBe(403);
    const admin = await t.login('ada@example.test', PASSWORD);
    const applied = await t.call('POST', '/api/screening/lists/official/held/un_sc', { cookie: admin });
    expect(applied.status).toBe(201);
    expect(await applied.json()).toMatchObject({ held: false, reason: null, records: 1, changes: { removed: 1002 } });
    const after = (await t.json<Status>('GET', '/api/screening/lists', { cookie: owner })).body;
    expect(unRecords(after)).toBe(1);
    expect(after.held_imports).toEqual([]);
    // Applied once: nothing is held any more.
    expect((await t.call('POST', '/api/screening/lists/official/held/un_sc', { cookie: admin })).status).toBe(404);
  }, 180_000);

  it('a held file can be discarded; an unknown source holds nothing; a file that changes little is used at once with its changes', async () => {
    const t = await testService({ plan: 'pro' });
    const cookie = await t.login();
    expect((await t.call('POST', '/api/screening/lists/official?source=un_sc', { cookie, rawBody: truncated(900), headers: { 'Content-Type': 'application/octet-stream' } })).status).toBe(202);
    expect((await t.call('DELETE', '/api/screening/lists/official/held/un_sc', { cookie })).status).toBe(200);
    expect((await t.call('DELETE', '/api/screening/lists/official/held/un_sc', { cookie })).status).toBe(404);
    expect((await t.call('POST', '/api/screening/lists/official/held/not_a_list', { cookie })).status).toBe(404);
    expect((await t.json<Status>('GET', '/api/screening/lists', { cookie })).body.held_imports).toEqual([]);
    // One person renamed, one left out: nothing near a tenth of the list is removed.
    const first = UN.match(/<INDIVIDUAL>[\s\S]*?<\/INDIVIDUAL>/g)!;
    const renamed = UN.replace(first[1]!, '').replace('<FIRST_NAME>ERIC</FIRST_NAME>', '<FIRST_NAME>ERICK</FIRST_NAME>');
    const res = await t.call('POST', '/api/screening/lists/official?source=un_sc', { cookie, rawBody: renamed, headers: { 'Content-Type': 'application/octet-stream' } });
    expect(res.status).toBe(201);
    const r = await res.json() as { held: boolean; changes: { before: number; changed: number; removed: number; examples: { changed: { name: string }[] } } };
    expect(r.held).toBe(false);
    expect(r.changes.changed).toBe(1);
    expect(r.changes.removed).toBe(1);
    expect(r.changes.examples.changed[0]!.name).toContain('ERICK');
    // A file with records its reader cannot take (here 150 without a reference number) is held even
    // when it removes nothing from the list in use: more than a tenth of the file was not read.
    const unreadable = first[2]!.replace(/<REFERENCE_NUMBER>[^<]*<\/REFERENCE_NUMBER>/, '').replace(/<DATAID>[^<]*<\/DATAID>/, '');
    const padded = renamed.replace('</INDIVIDUALS>', `${Array.from({ length: 150 }, () => unreadable).join('\n')}\n</INDIVIDUALS>`);
    const held = await t.call('POST', '/api/screening/lists/official?source=un_sc', { cookie, rawBody: padded, headers: { 'Content-Type': 'application/octet-stream' } });
    expect(held.status).toBe(202);
    const h = await held.json() as { held: boolean; reason: string; changes: { removed: number } };
    expect(h.changes.removed).toBe(0);
    expect(h.reason).toMatch(/^Only 1002 of the 1152 records in the file could be read \(13 %/);
  }, 180_000);

  it('the CLI holds a cut-short file (exit code 3, nothing imported) unless --accept-removals is given', async () => {
    const t = await testService({ plan: 'pro' });
    const file = join(t.dataDir, '..', `un-short-${Date.now()}.xml`);
    writeFileSync(file, truncated(3));
    const held = cli('lists', 'import', '--data-dir', t.dataDir, '--source', 'un_sc', file);
    expect(held.status, held.stderr).toBe(3);
    expect(held.stdout).toContain('Held, not imported');
    expect(held.stdout).toContain('1000 removed');
    expect(JSON.parse(cli('lists', 'list', '--data-dir', t.dataDir, '--json').stdout).imported).toEqual([]);
    const forced = cli('lists', 'import', '--data-dir', t.dataDir, '--source', 'un_sc', file, '--accept-removals', '--json');
    expect(forced.status, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({ held: false, records: 3, changes: { before: 1003, removed: 1000 } });
  }, 180_000);
});
