// First run, login, logout, the current session, and the desktop shell's one-time login. Every
// session begun and every explicit sign-out is audited (with how the person signed in, a code); a
// wrong password for a member's e-mail is audited as the service's observation about that member
// (an e-mail that names nobody is not written anywhere).
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import {
  DesktopChoice, DesktopLoginRequest, LoginRequest, Session, SetupRequest, SetupStatus, TokenLoginRequest, TokenLoginResponse,
} from '../../../../src-shared/contracts/accounts';
import { Message } from '../../../../src-shared/contracts/common';
import { AppError, isAppError } from '../../../../src-shared/errors';
import { toOrganization, toUser } from '../../core/accounts/accounts';
import type { OrgRow, UserRow } from '../../core/accounts/repo';
import { actorOf, SYSTEM } from '../../core/audit/audit';
import type { Services } from '../../compose';
import { clientAddress, cookieFlags, onThisComputer, SESSION_COOKIE, sameOrigin, startSession } from '../auth';
import type { Router } from '../router';

/** A wrong password for a member's account: recorded by the service (nobody is known to have acted), naming the member by id. */
async function signInFailed(services: Services, user: UserRow | undefined): Promise<void> {
  if (user) await services.audit.record({ orgId: user.org_id, actor: SYSTEM, action: 'session.sign_in_failed', targetUserId: user.id, to: 'wrong_password' });
}

/** Marks this browser as one that signed in to the account (login-throttle.ts): a year, login route only. */
const DEVICE_COOKIE = 'cc_device';
const DEVICE_DAYS = 365;
/** The desktop window's choice of member (accounts.loginWithToken): its own paths only. */
const DESKTOP_COOKIE = 'cc_desktop';
const DESKTOP_PATH = '/api/auth/desktop';

function desktopChoice(members: UserRow[]): DesktopChoice {
  return { choose_member: true, members: members.map((m) => ({ id: m.id, name: m.name, email: m.email, role: m.role })) };
}

function session(user: UserRow, org: OrgRow): Session {
  return { user: toUser(user), organization: toOrganization(org) };
}

export function authRoutes({ route, services }: Router): void {
  const { accounts } = services;
  const TAGS = ['session'];

  route({
    method: 'GET', path: '/api/setup', auth: { kind: 'public' }, tags: TAGS,
    summary: 'Whether the first run is still to be done',
    responses: { 200: SetupStatus },
    handler: async (c) => c.json<SetupStatus>({ needs_setup: await accounts.needsSetup(), version: services.config.version }),
  });

  route({
    method: 'POST', path: '/api/setup', auth: { kind: 'public' }, tags: TAGS,
    summary: 'First run: create the organisation and its owner, and sign in',
    request: { body: SetupRequest, invalid: 'account_validation' },
    responses: { 201: Session },
    handler: async (c, input) => {
      if (!sameOrigin(c)) throw new AppError('cross_origin');
      // Whoever runs the first run owns the organisation: never someone on the network.
      onThisComputer(c);
      if (!(await accounts.needsSetup())) throw new AppError('already_set_up');
      const body = await input.body();
      const { org, user } = await accounts.setup(body);
      await startSession(c, services, user, await accounts.sessionFor(user.id), 'first_run');
      return c.json<Session>(session(user, org), 201);
    },
  });

  route({
    method: 'POST', path: '/api/auth/login', auth: { kind: 'public' }, tags: TAGS,
    summary: 'Sign in with e-mail and password',
    request: { body: LoginRequest, invalid: 'account_validation' },
    responses: { 200: Session },
    handler: async (c, input) => {
      if (!sameOrigin(c)) throw new AppError('cross_origin');
      const body = await input.body();
      const address = clientAddress(c);
      const device = getCookie(c, DEVICE_COOKIE);
      // Refused before the password is checked: a throttled attempt tells nothing about it.
      const d = await services.loginThrottle.check(body.email, address, device);
      if (!d.allowed) throw new AppError('too_many_attempts', { retry_after: d.retryAfter });
      let s: Awaited<ReturnType<typeof accounts.login>>;
      try {
        s = await accounts.login(body.email, body.password);
      } catch (e) {
        if (isAppError(e) && e.code === 'invalid_login') {
          await services.loginThrottle.failed(body.email, address, device);
          services.logger.info('login_failed', { address });
          await signInFailed(services, await accounts.userByEmail(body.email));
        }
        throw e;
      }
      await startSession(c, services, s.user, s, 'password');
      setCookie(c, DEVICE_COOKIE, services.loginThrottle.deviceToken(body.email), {
        ...cookieFlags(c), path: '/api/auth/login', maxAge: DEVICE_DAYS * 86_400,
      });
      return c.json<Session>(session(s.user, s.org));
    },
  });

  route({
    method: 'POST', path: '/api/auth/token', auth: { kind: 'public' }, tags: TAGS,
    summary: 'Sign in with the desktop shell\'s one-time token: the only member directly, else the choice of member',
    description: 'With one person on the team the answer is their session. With several, nobody is signed in: the answer lists the members ' +
      '(`choose_member`) and sets a short-lived `cc_desktop` cookie (10 minutes) with which the chosen member signs in with their password ' +
      '(`POST /api/auth/desktop/login`).',
    request: { body: TokenLoginRequest, invalid: 'account_validation' },
    responses: { 200: TokenLoginResponse },
    handler: async (c, input) => {
      if (!sameOrigin(c)) throw new AppError('cross_origin');
      onThisComputer(c);
      const body = await input.body();
      const r = await accounts.loginWithToken(body.token);
      if (r.kind === 'choose') {
        setCookie(c, DESKTOP_COOKIE, r.choice, { ...cookieFlags(c), path: DESKTOP_PATH, expires: r.expires });
        return c.json<TokenLoginResponse>(desktopChoice(r.members));
      }
      await startSession(c, services, r.user, r, 'desktop_token');
      return c.json<TokenLoginResponse>(session(r.user, r.org));
    },
  });

  route({
    method: 'GET', path: '/api/auth/desktop/members', auth: { kind: 'public' }, tags: TAGS,
    summary: 'The members a desktop sign-in in progress offers (needs its cc_desktop cookie)',
    responses: { 200: DesktopChoice },
    handler: async (c) => {
      onThisComputer(c);
      return c.json<DesktopChoice>(desktopChoice(await accounts.desktopMembers(getCookie(c, DESKTOP_COOKIE))));
    },
  });

  route({
    method: 'POST', path: '/api/auth/desktop/login', auth: { kind: 'public' }, tags: TAGS,
    summary: 'The chosen member signs in on the desktop with their password (needs the cc_desktop cookie)',
    request: { body: DesktopLoginRequest, invalid: 'account_validation' },
    responses: { 200: Session },
    handler: async (c, input) => {
      if (!sameOrigin(c)) throw new AppError('cross_origin');
      onThisComputer(c);
      const body = await input.body();
      const choice = getCookie(c, DESKTOP_COOKIE);
      const members = await accounts.desktopMembers(choice);
      const email = members.find((m) => m.id === body.user_id)?.email ?? `#${body.user_id}`;
      const address = clientAddress(c);
      const device = getCookie(c, DEVICE_COOKIE);
      // The same throttle as the e-mail login: a shared desktop is no way round it.
      const d = await services.loginThrottle.check(email, address, device);
      if (!d.allowed) throw new AppError('too_many_attempts', { retry_after: d.retryAfter });
      let s: Awaited<ReturnType<typeof accounts.desktopLogin>>;
      try {
        s = await accounts.desktopLogin(choice, body.user_id, body.password);
      } catch (e) {
        if (isAppError(e) && e.code === 'invalid_password') {
          await services.loginThrottle.failed(email, address, device);
          services.logger.info('login_failed', { address });
          await signInFailed(services, members.find((m) => m.id === body.user_id));
        }
        throw e;
      }
      deleteCookie(c, DESKTOP_COOKIE, { path: DESKTOP_PATH });
      await startSession(c, services, s.user, s, 'desktop_password');
      return c.json<Session>(session(s.user, s.org));
    },
  });

  route({
    method: 'POST', path: '/api/auth/logout', auth: { kind: 'session' }, tags: TAGS,
    summary: 'Sign out',
    responses: { 200: Message },
    handler: async (c) => {
      const s = c.get('session');
      await services.audit.atomically(async (tx) => {
        await accounts.logout(s.tokenHash, tx);
        await services.audit.record({ orgId: s.org.id, actor: actorOf(s.user), action: 'session.signed_out' }, tx);
      });
      // The console drops its batch results at sign-out: what the service held about them goes too.
      services.review.analystSignedOut(s.org.id, s.user.id);
      deleteCookie(c, SESSION_COOKIE, { path: '/' });
      return c.json<Message>({ message: 'Logged out' });
    },
  });

  route({
    method: 'GET', path: '/api/auth/me', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The signed-in user and organisation',
    responses: { 200: Session },
    handler: (c) => {
      const s = c.get('session');
      return c.json<Session>(session(s.user, s.org));
    },
  });
}
