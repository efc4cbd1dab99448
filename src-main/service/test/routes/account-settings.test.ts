// Organisation settings (issue 13) through the HTTP app: the display name, the logo (checked by
// its first bytes, decoded, re-encoded as a bounded PNG, served with its type and nosniff; shown
// by the hosted page from its own origin), and the data directory's size. Happy, error (exact
// texts) and security (roles, signed out, other organisations) cases for each route.
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../../src-shared/catalog';
import type { Session } from '../../../../src-shared/contracts/accounts';
import type { AuditPage } from '../../../../src-shared/contracts/audit';
import type { HostedGenerateResponse, HostedPage } from '../../../../src-shared/contracts/hosted';
import type { DataDirectory, OrganizationSettings } from '../../../../src-shared/contracts/organization';
import { closeAll, ORIGIN, TEST_ENGINE, testService, type TestService } from '../harness';

afterAll(closeAll);

const PASSWORD = 'a member password';

async function setup() {
  const t = await testService({ plan: 'pro' });
  const as = async (role: Role) => {
    if (role === 'owner') return t.login();
    const email = `${role}@example.test`;
    if (!await t.s.accounts.userByEmail(email)) await t.s.accounts.addUser({ orgId: t.orgId, email, name: role, password: PASSWORD, role });
    return t.login(email, PASSWORD);
  };
  return { t, owner: await as('owner'), as };
}

const png = (width: number, height: number, opts: { noise?: boolean } = {}) => {
  const channels = 3;
  const data = Buffer.alloc(width * height * channels);
  for (let i = 0; i < data.length; i++) data[i] = opts.noise ? (Math.imul(i, 2654435761) >>> 24) & 255 : (i * 7) & 255;
  return sharp(data, { raw: { width, height, channels } }).png().toBuffer();
};

async function upload(t: TestService, cookie: string, bytes: Uint8Array, type = 'image/png') {
  const res = await t.app.request(`${ORIGIN}/api/settings/logo`, {
    method: 'PUT', headers: { Cookie: cookie, 'Content-Type': type }, body: bytes as Uint8Array<ArrayBuffer>,
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as OrganizationSettings & { error?: string; field?: string; code?: string } };
}

describe('GET/PATCH /api/settings/organization', () => {
  it('everyone reads the name; owners and admins rename (trimmed); the session and the audit log follow', async () => {
    const { t, owner, as } = await setup();
    const member = await as('member');
    expect((await t.json('GET', '/api/settings/organization', { cookie: member })).body).toEqual({ name: 'Test Org', logo: null });
    const admin = await as('admin');
    const r = await t.json('PATCH', '/api/settings/organization', { cookie: admin, body: { name: '  Acme Compliance Ltd  ' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ name: 'Acme Compliance Ltd', logo: null });
    expect((await t.json<Session>('GET', '/api/auth/me', { cookie: member })).body.organization.name).toBe('Acme Compliance Ltd');
    await t.json('PATCH', '/api/settings/organization', { cookie: owner, body: { name: 'Acme Compliance Ltd' } });
    const log = await t.json<AuditPage>('GET', '/api/audit?action=settings.changed', { cookie: owner });
    expect(log.body.entries.map((e) => [e.setting, e.actor.role])).toEqual([['organization_name', 'admin']]);
    expect(await t.s.organization.branding(t.orgId)).toEqual({ name: 'Acme Compliance Ltd', logo_png: null });
  });

  it('400 naming `name` when empty after trimming or over 120 characters; 120 is taken', async () => {
    const { t, owner } = await setup();
    for (const name of ['', '   ', 'x'.repeat(121), 42]) {
      const r = await t.json('PATCH', '/api/settings/organization', { cookie: owner, body: { name } });
      expect(r.status, String(name)).toBe(400);
      expect(r.body).toMatchObject({ field: 'name' });
    }
    expect((await t.json('PATCH', '/api/settings/organization', { cookie: owner, body: { name: 'y'.repeat(120) } })).status).toBe(200);
  });

  it('members get 403 `Permission denied`; signed out 401; another organisation\'s name is untouched', async () => {
    const { t, as } = await setup();
    const other = await t.addOrg({ name: 'Other Org' });
    const r = await t.json('PATCH', '/api/settings/organization', { cookie: await as('member'), body: { name: 'Taken over' } });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: 'Permission denied' });
    expect((await t.json('GET', '/api/settings/organization')).status).toBe(401);
    const theirs = await other.login();
    await t.json('PATCH', '/api/settings/organization', { cookie: theirs, body: { name: 'Other Renamed' } });
    expect((await t.s.accounts.orgById(t.orgId))?.name).toBe('Test Org');
    expect((await t.json('GET', '/api/settings/organization', { cookie: theirs })).body).toMatchObject({ name: 'Other Renamed' });
  });
});

describe('PUT/GET/DELETE /api/settings/logo', () => {
  it('takes a PNG, stores it re-encoded and bounded (512 px), serves it as image/png with nosniff; branding has it', async () => {
    const { t, owner, as } = await setup();
    const r = await upload(t, owner, await png(2000, 1000));
    expect(r.status).toBe(200);
    expect(r.body.logo).toMatchObject({ width: 512, height: 256, url: expect.stringMatching(/^\/api\/settings\/logo\?v=\d+$/) });
    const res = await t.call('GET', r.body.logo!.url, { cookie: await as('member') });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes.byteLength).toBe(r.body.logo!.size_bytes);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'png', width: 512, height: 256 });
    expect(Buffer.from((await t.s.organization.branding(t.orgId)).logo_png!).equals(bytes)).toBe(true);
  });

  it('takes a JPEG (re-encoded to PNG, metadata dropped); a small logo is not enlarged; a noisy one stays small', async () => {
    const { t, owner } = await setup();
    const jpeg = await sharp(await png(300, 120)).jpeg().withMetadata({ exif: { IFD0: { Copyright: 'CANARY-EXIF' } } }).toBuffer();
    const r = await upload(t, owner, jpeg, 'image/jpeg');
    expect(r.status).toBe(200);
    expect(r.body.logo).toMatchObject({ width: 300, height: 120 });
    const stored = (await t.s.organization.branding(t.orgId)).logo_png!;
    expect(Buffer.from(stored).subarray(1, 4).toString()).toBe('PNG');
    expect(Buffer.from(stored).includes('CANARY-EXIF')).toBe(false);
    const noisy = await png(360, 360, { noise: true });
    expect(noisy.byteLength).toBeLessThan(512 * 1024);
    const n = await upload(t, owner, noisy);
    expect(n.status).toBe(200);
    expect(n.body.logo!.size_bytes).toBeLessThanOrEqual(400 * 1024);
  });

  it('refuses what is not a PNG or JPEG by its first bytes, what does not decode, and over 512 KB', async () => {
    const { t, owner } = await setup();
    const gif = await sharp(await png(20, 20)).gif().toBuffer();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    for (const [bytes, type] of [[gif, 'image/png'], [svg, 'image/png'], [Buffer.from('GIF89a'), 'image/jpeg']] as const) {
      const r = await upload(t, owner, bytes, type);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 'The logo must be a PNG or JPEG image', field: 'logo' });
    }
    const truncated = (await png(200, 200)).subarray(0, 60);
    const broken = await upload(t, owner, truncated);
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ error: 'The logo could not be read as an image', field: 'logo' });
    const jpegHeaderPng = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), await png(20, 20)]);
    expect((await upload(t, owner, jpegHeaderPng)).status).toBe(400);
    const big = await upload(t, owner, Buffer.alloc(512 * 1024 + 1, 1));
    expect(big.status).toBe(413);
    const wrongType = await upload(t, owner, await png(20, 20), 'image/gif');
    expect(wrongType.status).toBe(415);
    expect((await t.s.organization.branding(t.orgId)).logo_png).toBeNull();
  });

  it('DELETE removes it (GET then 404 `No logo set`); removing none is a 200 that records nothing; both audited once', async () => {
    const { t, owner } = await setup();
    await upload(t, owner, await png(64, 64));
    const d = await t.json('DELETE', '/api/settings/logo', { cookie: owner });
    expect(d.status).toBe(200);
    expect(d.body).toEqual({ name: 'Test Org', logo: null });
    const none = await t.json('GET', '/api/settings/logo', { cookie: owner });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ error: 'No logo set' });
    expect((await t.json('DELETE', '/api/settings/logo', { cookie: owner })).status).toBe(200);
    const log = await t.json<AuditPage>('GET', '/api/audit?action=settings.changed', { cookie: owner });
    expect(log.body.entries.map((e) => [e.setting, e.from_value, e.to_value])).toEqual([['logo', 'set', 'removed'], ['logo', 'none', 'replaced']]);
  });

  it('members cannot upload or remove (403); signed out 401; each organisation sees only its own logo', async () => {
    const { t, owner, as } = await setup();
    const member = await as('member');
    const up = await upload(t, member, await png(32, 32));
    expect(up.status).toBe(403);
    expect(up.body).toEqual({ error: 'Permission denied' });
    expect((await t.json('DELETE', '/api/settings/logo', { cookie: member })).status).toBe(403);
    expect((await t.call('GET', '/api/settings/logo')).status).toBe(401);
    await upload(t, owner, await png(32, 32));
    const other = await t.addOrg();
    const theirs = await other.login();
    expect((await t.json('GET', '/api/settings/logo', { cookie: theirs })).status).toBe(404);
    expect((await t.json('DELETE', '/api/settings/logo', { cookie: theirs })).status).toBe(200);
    expect((await t.s.organization.branding(t.orgId)).logo_png).not.toBeNull();
  });
});

describe('the hosted page shows the organisation', () => {
  it('GET /hosted/session/:token names the organisation and its same-origin logo URL; GET /hosted/logo/:token serves it', async () => {
    const { t, owner } = await setup();
    const key = (await t.key()).api_key;
    const gen = () => t.json<HostedGenerateResponse>('POST', '/hosted/generate', { body: { product: 'human' }, headers: { Authorization: `Bearer ${key}` } });
    const first = (await gen()).body.token;
    expect((await t.json<HostedPage>('GET', `/hosted/session/${first}`)).body.organization).toEqual({ name: 'Test Org', logo_url: null });
    expect((await t.json('GET', `/hosted/logo/${first}`)).body).toMatchObject({ error: 'No logo.', code: 'LOGO_NOT_FOUND' });
    await upload(t, owner, await png(100, 50));
    await t.json('PATCH', '/api/settings/organization', { cookie: owner, body: { name: 'Acme' } });
    const token = (await gen()).body.token;
    const page = (await t.json<HostedPage>('GET', `/hosted/session/${token}`)).body;
    expect(page.organization).toEqual({ name: 'Acme', logo_url: `/hosted/logo/${token}` });
    const res = await t.call('GET', page.organization.logo_url!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await t.call('GET', `/hosted/logo/${'x'.repeat(43)}`)).status).toBe(404);
  });
});

describe('GET /api/settings/data-directory', () => {
  it('owners and admins see the path and the size by part, which add up; members 403; signed out 401', async () => {
    const { t, owner, as } = await setup();
    const r = await t.json<DataDirectory>('GET', '/api/settings/data-directory', { cookie: await as('admin') });
    expect(r.status).toBe(200);
    expect(r.body.path).toBe(t.dataDir);
    // The ledger's file and journal are parts of the directory on SQLite; on PostgreSQL the ledger is elsewhere.
    const onFile = TEST_ENGINE === 'sqlite';
    expect(r.body.breakdown.map((b) => b.name)).toEqual([...(onFile ? ['database', 'database_journal'] : []), 'logs', 'lists', 'onsite', 'other']);
    expect(r.body.size_bytes).toBe(r.body.breakdown.reduce((a, b) => a + b.size_bytes, 0));
    if (onFile) {
      expect(r.body.breakdown.find((b) => b.name === 'database')!.size_bytes).toBeGreaterThan(0);
      expect(r.body.ledger).toEqual({ engine: 'sqlite', size_bytes: r.body.breakdown[0]!.size_bytes + r.body.breakdown[1]!.size_bytes });
    } else {
      expect(r.body.ledger).toEqual({ engine: 'postgres', size_bytes: expect.any(Number) });
      expect(r.body.ledger.size_bytes).toBeGreaterThan(0);
    }
    expect((await t.json('GET', '/api/settings/data-directory', { cookie: owner })).status).toBe(200);
    const m = await t.json('GET', '/api/settings/data-directory', { cookie: await as('member') });
    expect(m.status).toBe(403);
    expect(m.body).toEqual({ error: 'Permission denied' });
    expect((await t.json('GET', '/api/settings/data-directory')).status).toBe(401);
  });
});
