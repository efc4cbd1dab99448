// The UK and Australian sanctions lists: shipped and screened out of the box, shown with their
// publisher, checksum and licence, and replaced by a newer file through the console's import.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListsStatus } from '../../../src-shared/contracts/lists';
import type { ScreeningResponse } from '../../../src-shared/contracts/screening';
import { closeAll, ORIGIN, testService, type TestService } from './harness';

afterAll(closeAll);
const WATCHLISTS = join(import.meta.dirname, '..', '..', '..', 'resources', 'watchlists');
const DFAT = readFileSync(join(WATCHLISTS, 'au_dfat_consolidated/2024-11-11/regulation8_consolidated.xlsx'));
const FCDO = readFileSync(join(WATCHLISTS, 'uk_fcdo_sanctions_list/2025-08-11/FCDO_SL_Mon_Aug_11_2025.ods'));
const MEMBER = { email: 'member@uk-au.example', password: 'member-password-1' };

let t: TestService;
let owner: string;
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  await t.s.accounts.addUser({ orgId: t.orgId, email: MEMBER.email, name: 'Mem Ber', password: MEMBER.password, role: 'member' });
  owner = await t.login();
}, 120_000);

async function screen(first_name: string, last_name: string, date_of_birth?: string): Promise<ScreeningResponse> {
  const { body } = await t.json<ScreeningResponse>('POST', '/api/compliance/v1/screen', {
    key: (await t.key()).api_key, body: { subject: { type: 'individual', first_name, last_name, ...(date_of_birth ? { date_of_birth } : {}) }, screening: { lists: ['sanctions'] } },
  });
  return body;
}

describe('UK and Australian lists out of the box', () => {
  it('Roman Abramovich (UK-designated only) comes back high, from the UK list', async () => {
    const r = await screen('Roman', 'Abramovich', '1966-10-24');
    expect(r.risk.level).toBe('high');
    const uk = r.matches.find((m) => m.source === 'uk_sanctions');
    expect(uk).toMatchObject({ strength: 'strong', risk_level: 'high', programs: ['Russia'], dates_of_birth: ['1966-10-24'], listed_on: '2022-03-10' });
    expect(r.screening.list_versions.map((v) => v.source)).toEqual(expect.arrayContaining(['uk_sanctions', 'au_dfat']));
  }, 60_000);

  it('a designation only Australia made is found', async () => {
    const r = await screen('Jadranko', 'Prlic', '1959-06-10');
    expect(r.matches.map((m) => m.source)).toEqual(['au_dfat']);
    expect(r.matches[0]?.listed_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(r.risk.level).toBe('high');
  });

  it('the lists screen gets each list\'s publisher, version, checksum and licence attribution', async () => {
    const { body } = await t.json<ListsStatus>('GET', '/api/screening/lists', { cookie: owner });
    const uk = body.lists.find((l) => l.source === 'uk_sanctions');
    expect(uk).toMatchObject({ list_date: '2025-07-23', terms: 'Contains public sector information licensed under the Open Government Licence v3.0' });
    expect(uk?.publisher).toMatch(/FCDO.*OFSI/);
    expect(uk?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(body.lists.find((l) => l.source === 'au_dfat')).toMatchObject({ list_date: '2024-11-11', publisher: 'Commonwealth of Australia (Department of Foreign Affairs and Trade)' });
    expect(body.lists.find((l) => l.source === 'au_dfat')?.terms).toMatch(/CC BY 4\.0/);
  });
});

describe('POST /api/screening/lists/official for the UK and Australian lists', () => {
  // The harness's call() takes text bodies; these are binary files.
  const post = async (source: string, filename: string, bytes: Uint8Array, cookie?: string) =>
    t.app.request(`${ORIGIN}/api/screening/lists/official?source=${source}&filename=${encodeURIComponent(filename)}`, {
      method: 'POST', headers: { 'Content-Type': 'application/octet-stream', ...(cookie ? { Cookie: cookie } : {}) }, body: new Uint8Array(bytes) as Uint8Array<ArrayBuffer>,
    });

  it('refuses a member, and a caller without a session', async () => {
    const member = await t.login(MEMBER.email, MEMBER.password);
    expect((await post('au_dfat', 'x.xlsx', DFAT, member)).status).toBe(403);
    expect((await post('au_dfat', 'x.xlsx', DFAT)).status).toBe(401);
  });

  it('refuses the wrong list, a ZIP bomb and a file that is not a spreadsheet, with the reason', async () => {
    const wrong = await post('au_dfat', 'fcdo.ods', FCDO, owner);
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(await wrong.json())).toContain('not the DFAT Consolidated List');
    const bomb = zipSync({ 'xl/workbook.xml': new Uint8Array(50 * 2 ** 20) }, { level: 9 });
    const b = await post('uk_sanctions', 'bomb.xlsx', bomb, owner);
    expect(b.status).toBe(400);
    expect(JSON.stringify(await b.json())).toContain('ZIP bomb');
    const text = await post('uk_sanctions', 'notes.csv', new TextEncoder().encode('hello,world\n'), owner);
    expect(text.status).toBe(400);
    expect(JSON.stringify(await text.json())).toContain('not an OFSI Consolidated List or FCDO UK Sanctions List file');
  });

  it('accepts a newer DFAT workbook and a newer FCDO file, recognised by content', async () => {
    const au = await post('au_dfat', 'regulation8_consolidated.xlsx', DFAT, owner);
    expect(au.status).toBe(201);
    expect(await au.json()).toMatchObject({ ok: true, source: 'au_dfat', format: 'dfat-xlsx', list_date: '2024-11-11', records: 3062 });
    // The short FCDO export alone holds primary names only: refused, the list in use stays.
    const short = await post('uk_sanctions', 'FCDO_SL.ods', FCDO, owner);
    expect(short.status).toBe(400);
    expect(JSON.stringify(await short.json())).toContain('primary names only');
    // The full UK Sanctions List file, as FCDO publishes it since ConList was retired.
    const header = 'Last Updated,Unique ID,OFSI Group ID,UN Reference Number,Name 6,Name 1,Name 2,Name 3,Name 4,Name 5,Name type,Alias strength,Title,Name non-latin script,Non-latin script type,Non-latin script language,Regime Name,Designation Type,Designation source,Sanctions Imposed,Other Information,UK Statement of Reasons,Address Line 1,Address Line 2,Address Line 3,Address Line 4,Address Line 5,Address Line 6,Address Postal Code,Address Country,Phone number,Website,Email address,Date Designated,D.O.B,Nationality(/ies)';
    const full = [
      'Report Date: 24-Jun-2026', header,
      '16/04/2026,RUS0244,14195,,ABRAMOVICH,Roman,Arkadyevich,,,,Primary Name,,,,,,Russia,Individual,UK,Asset freeze,,,,,,,,,,,,,,10/03/2022,24/10/1966,Russia',
      '16/06/2026,RUS9990,99001,,QUARTERMAINE,Zebedee,,,,,Primary Name,,,,,,Russia,Individual,UK,Asset freeze,,,,,,,,,,,,,,20/06/2026,02/03/1971,Russia',
    ].join('\r\n');
    const uk = await post('uk_sanctions', 'UK_Sanctions_List.csv', new TextEncoder().encode(full), owner);
    // Two records in place of thousands: held until an owner or admin confirms (issue 38).
    expect(uk.status).toBe(202);
    expect(await uk.json()).toMatchObject({ ok: true, held: true, source: 'uk_sanctions', format: 'uk-sanctions', list_date: '2026-06-24', records: 2 });
    const applied = await t.app.request(`${ORIGIN}/api/screening/lists/official/held/uk_sanctions`, { method: 'POST', headers: { Cookie: owner } });
    expect(applied.status).toBe(201);
    expect(await applied.json()).toMatchObject({ held: false, source: 'uk_sanctions', records: 2 });
    const r = await screen('Zebedee', 'Quartermaine', '1971-03-02');
    expect(r.matches[0]).toMatchObject({ source: 'uk_sanctions', strength: 'strong', listed_on: '2026-06-20' });
    expect(r.screening.list_versions.find((v) => v.source === 'uk_sanctions')).toMatchObject({ list_date: '2026-06-24' });
  }, 120_000);
});
