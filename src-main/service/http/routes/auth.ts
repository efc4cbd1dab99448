// First run, login, logout, the current session, and the desktop shell's one-time login.
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import {
  LoginRequest, SetupRequest, TokenLoginRequest, type Session, type SetupStatus,
} from '../../../../src-shared/contracts/accounts';
import { AppError } from '../../../../src-shared/errors';
import { toOrganization, toUser } from '../../core/accounts/accounts';
import type { OrgRow, UserRow } from '../../core/accounts/repo';
import { SESSION_COOKIE, sameOrigin } from '../auth';
import type { Router } from '../app';
import { parseJson } from '../validate';

function startSession(c: Context, token: string, expires: Date): void {
  setCookie(c, SESSION_COOKIE, token, { httpOnly: true, sameSite: 'Strict', path: '/', expires });
}

function session(user: UserRow, org: OrgRow): Session {
  return { user: toUser(user), organization: toOrganization(org) };
}

export function authRoutes({ route, services }: Router): void {
  const { accounts } = services;
  const account = { error: 'account_validation' } as const;

  route('GET', '/api/setup', { kind: 'public' }, (c) =>
    c.json<SetupStatus>({ needs_setup: accounts.needsSetup(), version: services.config.version }),
  );

  route('POST', '/api/setup', { kind: 'public' }, async (c) => {
    if (!sameOrigin(c)) throw new AppError('cross_origin');
    if (!accounts.needsSetup()) throw new AppError('already_set_up');
    const body = await parseJson(c, SetupRequest, account);
    const { org, user } = await accounts.setup(body);
    const s = accounts.sessionFor(user.id);
    startSession(c, s.token, s.expires);
    return c.json(session(user, org), 201);
  });

  route('POST', '/api/auth/login', { kind: 'public' }, async (c) => {
    if (!sameOrigin(c)) throw new AppError('cross_origin');
    const body = await parseJson(c, LoginRequest, account);
    const s = await accounts.login(body.email, body.password);
    startSession(c, s.token, s.expires);
    return c.json(session(s.user, s.org));
  });

  route('POST', '/api/auth/token', { kind: 'public' }, async (c) => {
    if (!sameOrigin(c)) throw new AppError('cross_origin');
    const body = await parseJson(c, TokenLoginRequest, account);
    const s = accounts.loginWithToken(body.token);
    startSession(c, s.token, s.expires);
    return c.json(session(s.user, s.org));
  });

  route('POST', '/api/auth/logout', { kind: 'session' }, (c) => {
    accounts.logout(c.get('session').tokenHash);
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.json({ message: 'Logged out' });
  });

  route('GET', '/api/auth/me', { kind: 'session' }, (c) => {
    const s = c.get('session');
    return c.json(session(s.user, s.org));
  });
}
