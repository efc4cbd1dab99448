// Lists an organisation adds: its own PEP/RCA/wanted lists and newer official files, through
// the CLI, picked up by a running service, reported in lists_checked and list_versions.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScreeningResponse } from '../../../src-shared/contracts/screening';
import { cliSync } from './cli-command';
import { closeAll, testService } from './harness';

afterAll(closeAll);
const ROOT = join(import.meta.dirname, '..', '..', '..');
const cli = (...args: string[]) => cliSync(args);

const PEP_CSV = [
  'kind,name,aliases,dob,country,id,id_type,gender,program,schema,ref,notes',
  'pep,Quentin Abernathy-Vole,Q. Abernathy Vole,1961-04-12,GB,,,male,Member of Parliament,,pep-1,',
  'rca,Rosalind Abernathy-Vole,,1963,GB,,,female,Spouse of pep-1,,rca-1,',
  'pep,,missing name,1961-04-12,GB,,,,,,pep-2,',
].join('\n');

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
    const k = t.key();
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
    const un = join(ROOT, 'resources', 'watchlists', 'un_sc', '2026-02-27', 'consolidated.xml');
    const ok = cli('lists', 'import', '--data-dir', t.dataDir, '--source', 'un_sc', un, '--json');
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
