import { afterAll, describe, expect, it } from 'vitest';
import { closeAll, cookieFrom, OWNER, testService } from '../harness';

afterAll(closeAll);

const SETUP = { organization: 'Acme Compliance', name: 'Ada Analyst', email: 'Ada@Example.test', password: 'a long enough password' };

describe('first run: GET/POST /api/setup', () => {
  it('reports needs_setup, creates org + owner once, and starts a session', async () => {
    const t = await testService({ setup: false });
    expect((await t.json('GET', '/api/setup')).body).toMatchObject({ needs_setup: true });
    const res = await t.call('POST', '/api/setup', { body: SETUP });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({
      user: { id: expect.any(Number), email: 'ada@example.test', name: 'Ada Analyst', role: 'owner', billing: true },
      organization: { id: expect.any(Number), name: 'Acme Compliance', plan: 'free' },
    });
    const set = res.headers.get('set-cookie')!;
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Strict/);
    const me = await t.json('GET', '/api/auth/me', { cookie: cookieFrom(res) });
    expect(me.status).toBe(200);
    expect((await t.json('GET', '/api/setup')).body).toMatchObject({ needs_setup: false });
  });

  it('refuses a second setup with 409', async () => {
    const t = await testService();
    const { status, body } = await t.json('POST', '/api/setup', { body: SETUP });
    expect(status).toBe(409);
    expect(body).toEqual({ error: 'Organization already set up' });
  });

  it('validates fields without echoing values', async () => {
    const t = await testService({ setup: false });
    const { status, body } = await t.json<{ error: string; fields: { field: string }[] }>('POST', '/api/setup', {
      body: { ...SETUP, email: 'not-an-email-SECRETVALUE', password: 'short' },
    });
    expect(status).toBe(400);
    expect(body.fields.map((f) => f.field).sort()).toEqual(['email', 'password']);
    expect(JSON.stringify(body)).not.toContain('SECRETVALUE');
  });

  it('refuses a cross-origin setup', async () => {
    const t = await testService({ setup: false });
    const { status } = await t.json('POST', '/api/setup', { body: SETUP, headers: { Origin: 'https://evil.example' } });
    expect(status).toBe(403);
    expect((await t.json('GET', '/api/setup')).body).toMatchObject({ needs_setup: true });
  });
});

describe('POST /api/auth/login, GET /api/auth/me, POST /api/auth/logout', () => {
  it('logs in, shows the session, and logs out', async () => {
    const t = await testService();
    const res = await t.call('POST', '/api/auth/login', { body: { email: OWNER.email.toUpperCase(), password: OWNER.password } });
    expect(res.status).toBe(200);
    const cookie = cookieFrom(res);
    const me = await t.json('GET', '/api/auth/me', { cookie });
    expect(me.body).toMatchObject({ user: { email: OWNER.email, role: 'owner' }, organization: { name: 'Test Org' } });
    const out = await t.json('POST', '/api/auth/logout', { cookie, body: {} });
    expect(out.status).toBe(200);
    expect((await t.json('GET', '/api/auth/me', { cookie })).status).toBe(401);
  });

  it('gives the same answer for a wrong password and an unknown e-mail', async () => {
    const t = await testService();
    const a = await t.json('POST', '/api/auth/login', { body: { email: OWNER.email, password: 'wrong password!' } });
    const b = await t.json('POST', '/api/auth/login', { body: { email: 'nobody@example.test', password: 'wrong password!' } });
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    expect(a.body).toEqual({ error: 'Invalid email or password' });
    expect(b.body).toEqual(a.body);
  });

  it('400 on a malformed body', async () => {
    const t = await testService();
    const { status } = await t.json('POST', '/api/auth/login', { rawBody: '{nope', headers: { 'Content-Type': 'application/json' } });
    expect(status).toBe(400);
  });

  it('a session expires after 7 days even when used', async () => {
    const t = await testService();
    const cookie = await t.login();
    for (let h = 0; h < 7 * 24; h += 6) {
      t.clock.advance(6 * 3600_000);
      await t.call('GET', '/api/auth/me', { cookie });
    }
    expect((await t.json('GET', '/api/auth/me', { cookie })).status).toBe(401);
  });

  it('an active session slides past the 12-hour idle window', async () => {
    const t = await testService();
    const cookie = await t.login();
    for (let i = 0; i < 4; i++) {
      t.clock.advance(6 * 3600_000);
      expect((await t.json('GET', '/api/auth/me', { cookie })).status).toBe(200);
    }
  });
});

describe('POST /api/auth/token (desktop one-time login)', () => {
  const TOKEN = 'one-time-token-0123456789abcdef';

  it('logs the owner in once, then refuses the same token', async () => {
    const t = await testService({ loginToken: TOKEN });
    const first = await t.json('POST', '/api/auth/token', { body: { token: TOKEN } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ user: { role: 'owner' } });
    const again = await t.json('POST', '/api/auth/token', { body: { token: TOKEN } });
    expect(again.status).toBe(401);
  });

  it('refuses a wrong token and a service started without one', async () => {
    const t = await testService({ loginToken: TOKEN });
    expect((await t.json('POST', '/api/auth/token', { body: { token: TOKEN.replace('0', '1') } })).status).toBe(401);
    const u = await testService();
    expect((await u.json('POST', '/api/auth/token', { body: { token: TOKEN } })).status).toBe(401);
  });
});

describe('desktop sign-in with several members: "Who is signing in?"', () => {
  const TOKEN = 'one-time-token-0123456789abcdef';
  const PW = 'a member password';
  const desktopCookie = (res: Response) => {
    const m = /cc_desktop=([^;]*)/.exec(res.headers.get('set-cookie') ?? '');
    if (!m) throw new Error('no desktop cookie');
    return `cc_desktop=${m[1]}`;
  };
  async function team() {
    const t = await testService({ loginToken: TOKEN });
    const mia = await t.s.accounts.addUser({ orgId: t.orgId, email: 'mia@example.test', name: 'Mia Member', password: PW, role: 'member' });
    const gone = await t.s.accounts.addUser({ orgId: t.orgId, email: 'gone@example.test', name: 'Gone', password: PW, role: 'member' });
    await t.s.team.remove((await t.s.accounts.userById(t.ownerId))!, (await t.s.accounts.orgById(t.orgId))!, gone.id);
    const other = await t.addOrg();
    const first = await t.call('POST', '/api/auth/token', { body: { token: TOKEN } });
    return { t, mia, gone, other, first, cookie: desktopCookie(first) };
  }

  it('the token signs no one in: it lists the active members (name, e-mail, role) and sets a desktop cookie for its own paths', async () => {
    const { t, first, mia } = await team();
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({
      choose_member: true,
      members: [
        { id: t.ownerId, name: OWNER.name, email: OWNER.email, role: 'owner' },
        { id: mia.id, name: 'Mia Member', email: 'mia@example.test', role: 'member' },
      ],
    });
    const set = first.headers.get('set-cookie') ?? '';
    expect(set).not.toMatch(/cc_session=/);
    expect(set).toMatch(/Path=\/api\/auth\/desktop/);
    expect(set).toMatch(/HttpOnly/);
    expect((await t.json('POST', '/api/auth/token', { body: { token: TOKEN } })).status).toBe(401);
  });

  it('the chosen member signs in with their own password; the choice is then spent', async () => {
    const { t, cookie, mia } = await team();
    expect((await t.json('GET', '/api/auth/desktop/members', { cookie })).body).toMatchObject({ choose_member: true, members: [{}, { id: mia.id }] });
    const res = await t.call('POST', '/api/auth/desktop/login', { cookie, body: { user_id: mia.id, password: PW } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ user: { id: mia.id, role: 'member', billing: false }, organization: { name: 'Test Org' } });
    const me = await t.json('GET', '/api/auth/me', { cookie: cookieFrom(res) });
    expect(me.body).toMatchObject({ user: { email: 'mia@example.test' } });
    const again = await t.json('POST', '/api/auth/desktop/login', { cookie, body: { user_id: t.ownerId, password: OWNER.password } });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ error: 'This sign-in has expired. Sign in with your e-mail and password.' });
  });

  it('a wrong password is 401 `Incorrect password` and leaves the choice open; nobody can be the owner without the owner\'s password', async () => {
    const { t, cookie } = await team();
    const wrong = await t.json('POST', '/api/auth/desktop/login', { cookie, body: { user_id: t.ownerId, password: PW } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'Incorrect password' });
    expect(wrong.res.headers.get('set-cookie') ?? '').not.toMatch(/cc_session=/);
    expect((await t.json('POST', '/api/auth/desktop/login', { cookie, body: { user_id: t.ownerId, password: OWNER.password } })).status).toBe(200);
  });

  it('removed members and other organisations\' users are 404 `Team member not found`; a bad body 400', async () => {
    const { t, cookie, gone, other } = await team();
    for (const id of [gone.id, other.ownerId, 999999]) {
      const r = await t.json('POST', '/api/auth/desktop/login', { cookie, body: { user_id: id, password: PW } });
      expect(r.status, String(id)).toBe(404);
      expect(r.body).toEqual({ error: 'Team member not found' });
    }
    const bad = await t.json('POST', '/api/auth/desktop/login', { cookie, body: { user_id: 'owner', password: '' } });
    expect(bad.status).toBe(400);
  });

  it('without the cookie, with a forged one or after 10 minutes: 401 expired, members not listed; cross-origin refused; throttled like login', async () => {
    const { t, cookie, mia } = await team();
    for (const c of [undefined, 'cc_desktop=forged-value-0123456789']) {
      const list = await t.json('GET', '/api/auth/desktop/members', c ? { cookie: c } : {});
      expect(list.status).toBe(401);
      expect(list.body).toEqual({ error: 'This sign-in has expired. Sign in with your e-mail and password.' });
      expect((await t.json('POST', '/api/auth/desktop/login', { ...(c ? { cookie: c } : {}), body: { user_id: mia.id, password: PW } })).status).toBe(401);
    }
    const cross = await t.json('POST', '/api/auth/desktop/login', { cookie, body: { user_id: mia.id, password: PW }, headers: { Origin: 'https://evil.example' } });
    expect(cross.status).toBe(403);
    let last = 0;
    for (let i = 0; i < 12 && last !== 429; i++) last = (await t.json('POST', '/api/auth/desktop/login', { cookie, body: { user_id: mia.id, password: 'wrong password' } })).status;
    expect(last).toBe(429);
    t.clock.advance(10 * 60_000 + 1);
    expect((await t.json('GET', '/api/auth/desktop/members', { cookie })).status).toBe(401);
  });

  it('with one member the token still signs them in directly (no choice)', async () => {
    const t = await testService({ loginToken: TOKEN });
    const r = await t.call('POST', '/api/auth/token', { body: { token: TOKEN } });
    expect(await r.json()).toMatchObject({ user: { role: 'owner' } });
    expect(r.headers.get('set-cookie') ?? '').not.toMatch(/cc_desktop=/);
  });
});

describe('DNS rebinding', () => {
  it('refuses setup and login when the Host is not a loopback name', async () => {
    const t = await testService({ setup: false });
    const headers = { Host: 'evil.example:4310' };
    expect((await t.json('POST', '/api/setup', { body: SETUP, headers })).status).toBe(403);
    const u = await testService();
    expect((await u.json('POST', '/api/auth/login', { body: { email: OWNER.email, password: OWNER.password }, headers })).status).toBe(403);
  });
});
