// A user-list upload answers with a bounded report, whatever the file (issue 9): a 10 or 20 MB
// header line answered with a 371 MB report or a 500 at 3 GB. Header lines, cells and columns
// are bounded before they are split; the report lists the first 100 problems and counts them
// all; no problem quotes the file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_ISSUES_REPORTED, type UserListReport } from '../../../src-shared/contracts/lists';
import type { ScreeningResponse } from '../../../src-shared/contracts/screening';
import { USER_LIST_LIMITS } from '../core/screening/lists/user-csv';
import { closeAll, testService, type TestService } from './harness';

let t: TestService;
let cookie: string;
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  cookie = await t.login();
}, 60_000);
afterAll(closeAll);

async function upload(csv: string, name = 'Bounds check'): Promise<{ status: number; text: string; report: UserListReport }> {
  const res = await t.call('POST', `/api/screening/lists/user?name=${encodeURIComponent(name)}`, {
    cookie, rawBody: csv, headers: { 'Content-Type': 'text/csv' },
  });
  const text = await res.text();
  return { status: res.status, text, report: JSON.parse(text) as UserListReport };
}

const CANARY = 'Zebulon Quartermain-Canary';

describe('header lines beyond a sane width', () => {
  it.each([10, 20])('a %i MB header line answers 400 with a small report', async (mb) => {
    const header = `kind,name,${'x,'.repeat((mb * 2 ** 20) / 2)}`;
    const r = await upload(`${header}\npep,${CANARY}\n`);
    expect(r.status).toBe(400);
    expect(r.text.length).toBeLessThan(10_000);
    expect(r.report).toMatchObject({
      ok: false, rows: { total: 0, imported: 0, rejected: 0 }, errors_total: 1, warnings_total: 0,
      errors: [{ row: 1, column: '', reason: `the header row is longer than ${USER_LIST_LIMITS.headerLength} characters` }],
    });
    expect(r.text).not.toContain(CANARY);
  });

  it('a header of more columns than allowed is refused; one just inside is read', async () => {
    const over = await upload(`kind,name${',extra'.repeat(USER_LIST_LIMITS.columns - 1)}\npep,${CANARY}\n`);
    expect(over.status).toBe(400);
    expect(over.report.errors).toEqual([{ row: 1, column: '', reason: `the header row has more than ${USER_LIST_LIMITS.columns} columns` }]);
    const inside = await upload(`kind,name${',extra'.repeat(USER_LIST_LIMITS.columns - 2)}\npep,${CANARY}\n`);
    expect(inside.status).toBe(201);
    // 254 unknown columns: the first 100 are listed, all are counted.
    expect(inside.report.warnings).toHaveLength(LIST_ISSUES_REPORTED);
    expect(inside.report.warnings_total).toBe(USER_LIST_LIMITS.columns - 2);
  });
});

describe('reports of many problems', () => {
  it('5,000 bad rows: the first 100 problems and the total; the good rows are imported', async () => {
    const bad = Array.from({ length: 5_000 }, (_, i) => `pep,${CANARY} ${i},CANARY-1961-02-30`);
    const r = await upload(['kind,name,dob', 'pep,Quentin Abernathy-Vole,1961', ...bad, 'rca,Rosalind Abernathy-Vole,1963'].join('\n'));
    expect(r.status).toBe(201);
    expect(r.report.rows).toEqual({ total: 5_002, imported: 2, rejected: 5_000 });
    expect(r.report.errors).toHaveLength(LIST_ISSUES_REPORTED);
    expect(r.report.errors_total).toBe(5_000);
    expect(r.report.errors[0]).toEqual({ row: 3, column: 'dob', reason: 'value 1 is not YYYY, YYYY-MM, YYYY-MM-DD or YYYY..YYYY' });
    expect(r.report.errors.at(-1)?.row).toBe(102);
    expect(r.text.length).toBeLessThan(20_000);
    expect(r.text).not.toMatch(/Canary|CANARY/i);
  });

  it('a file with no good row stores nothing and still reports 100 problems of all', async () => {
    const r = await upload(['kind,name', ...Array.from({ length: 300 }, () => `sanctionz,${CANARY}`)].join('\n'), 'Nothing good');
    expect(r.status).toBe(400);
    expect(r.report).toMatchObject({ ok: false, rows: { total: 300, imported: 0, rejected: 300 }, errors_total: 300 });
    expect(r.report.errors).toHaveLength(LIST_ISSUES_REPORTED);
    const lists = await t.json<{ user_lists: { slug: string }[] }>('GET', '/api/screening/lists', { cookie });
    expect(lists.body.user_lists.map((u) => u.slug)).not.toContain('nothing-good');
  });
});

describe('cells and rows beyond a sane width', () => {
  it('a wide cell, a row of too many fields and a 10 MB line of commas are their rows\' problems, named by column', async () => {
    // The last line of nothing but commas is an empty row, skipped like a blank line.
    const csv = [
      'kind,name,aliases,notes',
      `pep,${CANARY},${`${CANARY};`.repeat(700)},`,
      `pep,Second Person,,${CANARY.repeat(1_000)}`,
      `pep,${CANARY},a,b,c`,
      `pep,${CANARY}${','.repeat(10 * 2 ** 20)}`,
      ','.repeat(10 * 2 ** 20),
      'pep,Quentin Abernathy-Vole,,',
    ].join('\n');
    const r = await upload(csv);
    expect(r.status).toBe(201);
    expect(r.report.rows).toEqual({ total: 5, imported: 1, rejected: 4 });
    expect(r.report.errors).toEqual([
      { row: 2, column: 'aliases', reason: `longer than ${USER_LIST_LIMITS.cellLength} characters` },
      { row: 3, column: 'notes', reason: `longer than ${USER_LIST_LIMITS.cellLength} characters` },
      { row: 4, column: '', reason: 'more fields than the header has columns' },
      { row: 5, column: '', reason: 'more fields than the header has columns' },
    ]);
    expect(r.text).not.toContain('Canary');
  });

  it('an unclosed quote swallows the rest of the file into one rejected row', async () => {
    const r = await upload(`kind,name\npep,Quentin Abernathy-Vole\npep,"${CANARY}\n${`pep,${CANARY}\n`.repeat(2_000)}`);
    expect(r.status).toBe(201);
    expect(r.report.rows).toEqual({ total: 2, imported: 1, rejected: 1 });
    expect(r.report.errors).toEqual([
      { row: 3, column: '', reason: 'unclosed quote' },
      { row: 3, column: 'name', reason: `longer than ${USER_LIST_LIMITS.cellLength} characters` },
    ]);
    expect(r.text).not.toContain('Canary');
  });
});

describe('a good file', () => {
  it('still imports, quoted cells and CRLF line ends included', async () => {
    const csv = [
      'kind,name,aliases,dob,country,ref',
      'pep,"Abernathy-Vole, Quentin","Q. Abernathy Vole;""Q""",1961-04-12,GB,pep-1',
      'rca,Rosalind Abernathy-Vole,,1963,GB,rca-1',
    ].join('\r\n');
    const r = await upload(csv, 'Good list');
    expect(r.status).toBe(201);
    expect(r.report).toMatchObject({ ok: true, source: 'user:good-list', rows: { total: 2, imported: 2, rejected: 0 }, errors: [], errors_total: 0 });
    // Screened from now on, under its quoted "last, first" name.
    const { body } = await t.json<ScreeningResponse>('POST', '/api/compliance/v1/screen', {
      key: (await t.key()).api_key,
      body: { subject: { type: 'individual', first_name: 'Quentin', last_name: 'Abernathy-Vole', date_of_birth: '1961-04-12' }, screening: { lists: ['pep'] } },
    });
    expect(body.flags).toContain('PEP_STRONG_MATCH');
    expect(body.screening.list_versions.map((v) => v.source)).toContain('user:good-list');
  });
});
