// Authentication and authorisation middleware for the three kinds of caller: API keys
// (per product scope, environment, plan and trial), the bearer secret, and dashboard sessions.
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import {
  HEALTH_LIMIT, PLAN_INFO, planAtLeast, verificationLimit, type Product,
} from '../../../src-shared/catalog';
import { AppError } from '../../../src-shared/errors';
import type { Services } from '../compose';
import type { Decision } from '../core/rate-limit/token-bucket';
import type { AppEnv, AuthSpec } from './types';

export const SESSION_COOKIE = 'cc_session';
const TOUCH_EVERY_MS = 60_000;

export function setRateHeaders(c: Context, d: Decision): void {
  c.header('X-RateLimit-Limit', String(d.limit));
  c.header('X-RateLimit-Remaining', String(d.remaining));
  c.header('X-RateLimit-Reset', String(d.reset));
  if (!d.allowed) c.header('Retry-After', String(d.retryAfter));
}

function rateLimited(c: Context, d: Decision): never {
  setRateHeaders(c, d);
  throw new AppError('rate_limited', { limit: d.limit, remaining: d.remaining, retry_after: d.retryAfter });
}

export function clientAddress(c: Context<AppEnv>): string {
  return c.env?.incoming?.socket?.remoteAddress ?? 'in-process';
}

function scopeHint(scope: Product): string {
  return `This endpoint needs a key with the '${scope}' scope. Create one in the console under API keys.`;
}

export function createAuth(s: Services): (auth: AuthSpec) => MiddlewareHandler<AppEnv> {
  const lastTouched = new Map<string, number>();
  return (auth) => authMiddleware(s, auth, lastTouched);
}

function authMiddleware(s: Services, auth: AuthSpec, lastTouched: Map<string, number>): MiddlewareHandler<AppEnv> {
  switch (auth.kind) {
    case 'public':
      return async (c, next) => {
        if (auth.category === 'health') {
          const d = s.limiter.take(`health:${clientAddress(c)}`, HEALTH_LIMIT);
          if (!d.allowed) rateLimited(c, d);
          setRateHeaders(c, d);
        }
        await next();
      };
    case 'secret':
      return async (c, next) => {
        const m = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '');
        if (!m?.[1]) throw new AppError('invalid_secret', { hint: 'Send Authorization: Bearer <secret key>.' });
        const found = s.keys.lookupSecret(m[1].trim());
        if (!found.ok) throw new AppError(found.reason === 'revoked' ? 'revoked_api_key' : 'invalid_secret');
        const org = s.accounts.repo.orgById(found.key.orgId);
        if (!org) throw new AppError('invalid_secret');
        const d = s.limiter.take(`${found.key.id}:read`, PLAN_INFO[org.plan].read);
        if (!d.allowed) rateLimited(c, d);
        setRateHeaders(c, d);
        c.set('key', found.key);
        c.set('org', org);
        await next();
      };
    case 'key':
      return async (c, next) => {
        let raw = auth.via === 'bearer'
          ? /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1]
          : c.req.header('x-api-key');
        if (!raw && auth.via === 'header-or-form' && (c.req.header('content-type') ?? '').startsWith('multipart/form-data')) {
          // Hono keeps the parsed form, so the route reads the same body again for free.
          const field = (await c.req.parseBody())['clientKey'];
          if (typeof field === 'string') raw = field;
        }
        if (!raw) {
          throw new AppError('missing_api_key', {
            hint: auth.via === 'bearer' ? 'Send Authorization: Bearer <API key>.' : 'Send your API key in the X-API-Key header.',
          });
        }
        const found = s.keys.lookup(raw.trim());
        if (!found.ok) throw new AppError(found.reason === 'revoked' ? 'revoked_api_key' : 'invalid_api_key');
        const key = found.key;
        if (auth.scope && !key.scopes.includes(auth.scope)) throw new AppError('wrong_scope', { hint: scopeHint(auth.scope) });
        const org = s.accounts.repo.orgById(key.orgId);
        if (!org) throw new AppError('invalid_api_key');

        const limit = auth.category === 'verification'
          ? verificationLimit(org.plan, auth.product ?? auth.scope ?? 'human')
          : PLAN_INFO[org.plan].read;
        const bucket = `${key.id}:${auth.category}:${auth.category === 'verification' ? (auth.product ?? auth.scope) : ''}`;
        const d = s.limiter.take(bucket, limit);
        if (!d.allowed) rateLimited(c, d);
        setRateHeaders(c, d);

        const product = auth.product ?? auth.scope;
        if (product === 'compliance' && !PLAN_INFO[org.plan].compliance) {
          throw new AppError('plan_restriction', { message: 'The compliance product requires the Pro or Enterprise plan' });
        }
        if (product === 'age' && !planAtLeast(org.plan, 'growth') && !key.demo && !s.keys.trial(key).active) {
          throw new AppError('trial_expired');
        }

        const now = s.clock.now();
        const last = lastTouched.get(key.id) ?? 0;
        if (now - last > TOUCH_EVERY_MS) {
          lastTouched.set(key.id, now);
          s.keys.touch(key.id);
        }
        c.set('key', key);
        c.set('org', org);
        await next();
      };
    case 'session':
      return async (c, next) => {
        if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && !sameOrigin(c)) throw new AppError('cross_origin');
        const token = getCookie(c, SESSION_COOKIE);
        const session = token ? s.accounts.resolveSession(token) : null;
        if (!session) throw new AppError('session_required');
        if (auth.roles && !auth.roles.includes(session.user.role)) throw new AppError('permission_denied');
        c.set('session', session);
        c.set('org', session.org);
        await next();
      };
  }
}

/**
 * Cookie-authenticated writes must come from the console's own origin. SameSite=Strict already
 * keeps the cookie off cross-site requests; this refuses same-site-but-cross-origin ones too.
 */
export function sameOrigin(c: Context): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return false;
  const host = c.req.header('host') ?? new URL(c.req.url).host;
  // A DNS-rebinding page is "same origin" with its own name; only loopback names are ours.
  if (!LOOPBACK_HOST.test(host)) return false;
  const origin = c.req.header('origin');
  if (!origin) return true;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;
