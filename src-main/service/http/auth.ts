// The guard of every route, as named steps the registry composes from the route's auth spec:
// authentication of the three kinds of caller (API keys with their product scope, the bearer
// secret, dashboard sessions with their role), rate limiting, the plan rule and the age trial.
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import {
  HEALTH_LIMIT, PLAN_INFO, verificationLimit, type Product,
} from '../../../src-shared/catalog';
import { AppError } from '../../../src-shared/errors';
import type { Services } from '../compose';
import type { UserRow } from '../core/accounts/repo';
import { actorOf } from '../core/audit/audit';
import type { Decision } from '../core/rate-limit/token-bucket';
import { mediaType } from './body';
import type { AppEnv, AuthSpec } from './types';
import { may, planAllows, planIncludes, seesCredits } from '../../../src-shared/policy';

export const SESSION_COOKIE = 'cc_session';
const TOUCH_EVERY_MS = 60_000;

/** How a console session began (its audit row's `to_value`). */
export type SignInMethod = 'password' | 'desktop_token' | 'desktop_password' | 'first_run' | 'invitation';

/** A session begins: the audit row saying who signed in and how, then its cookie. */
export async function startSession(c: Context, s: Services, user: UserRow, started: { token: string; expires: Date }, how: SignInMethod): Promise<void> {
  await s.audit.record({ orgId: user.org_id, actor: actorOf(user), action: 'session.signed_in', to: how });
  setCookie(c, SESSION_COOKIE, started.token, { ...cookieFlags(c), path: '/', expires: started.expires });
}

/** The first run and the desktop shell's sign-in: refused through the team server (403 `this_computer_only`). */
export function onThisComputer(c: Context): void {
  const env = c.env as AppEnv['Bindings'] | undefined;
  if (env?.listener === 'team' || env?.forwarded) throw new AppError('this_computer_only');
}

/**
 * Every cookie the console gets: HttpOnly, SameSite=Strict, and Secure on the team server (HTTPS
 * on the network: issue 39). The loopback listener is plain HTTP, where a Secure cookie would
 * not be sent back.
 */
export function cookieFlags(c: Context): { httpOnly: true; sameSite: 'Strict'; secure?: true } {
  return overHttps(c) ? { httpOnly: true, sameSite: 'Strict', secure: true } : { httpOnly: true, sameSite: 'Strict' };
}

/** The client reached the service over HTTPS: the team server, or a trusted proxy that took it over HTTPS. */
export function overHttps(c: Context): boolean {
  const env = c.env as AppEnv['Bindings'] | undefined;
  return env?.listener === 'team' || env?.forwarded?.https === true;
}

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
  return c.env?.forwarded?.address ?? c.env?.incoming?.socket?.remoteAddress ?? 'in-process';
}

function scopeHint(scope: Product): string {
  return `This endpoint needs a key with the '${scope}' scope. Create one in the console under API keys.`;
}

/** One named step of a route's guard: it throws an AppError to refuse, returns to let through. */
export interface Step {
  name: 'authenticate' | 'rate-limit' | 'plan' | 'trial' | 'touch-key';
  run(c: Context<AppEnv>): void | Promise<void>;
}

/**
 * The guard of a route, composed from its auth spec: authenticate (who is calling, with which
 * scope or role), rate limit, the plan rule, the age trial, then the key's last-used stamp.
 */
export function createGuards(s: Services): (auth: AuthSpec) => Step[] {
  const lastTouched = new Map<string, number>();
  return (auth) => {
    const steps: Step[] = [];
    const authn = authenticate(s, auth);
    if (authn) steps.push(authn);
    const rate = rateLimit(s, auth);
    if (rate) steps.push(rate);
    const plan = planCheck(auth);
    if (plan) steps.push(plan);
    const trial = trialCheck(s, auth);
    if (trial) steps.push(trial);
    if (auth.kind === 'key') steps.push(touchKey(s, lastTouched));
    return steps;
  };
}

/** Runs the steps in order before the route's handler. */
export function guard(steps: readonly Step[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    for (const step of steps) await step.run(c);
    await next();
  };
}

/**
 * The answer to a key that is not one (or was revoked): its own error while the client's address
 * has wrong keys left in its allowance (core/rate-limit/key-throttle.ts), which it spends; 429 with
 * Retry-After once it has none.
 */
async function wrongKey(c: Context<AppEnv>, s: Services, code: 'invalid_api_key' | 'revoked_api_key' | 'invalid_secret'): Promise<AppError> {
  const address = clientAddress(c);
  const d = await s.keyThrottle.check(address);
  if (!d.allowed) return new AppError('rate_limited', { limit: d.limit, remaining: 0, retry_after: d.retryAfter });
  await s.keyThrottle.failed(address);
  return new AppError(code);
}

function bearer(c: Context): string | undefined {
  return /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1];
}

/** Who is calling: the key (and its scope), the secret, or the session (and its role). Nothing else. */
function authenticate(s: Services, auth: AuthSpec): Step | null {
  switch (auth.kind) {
    case 'public':
      return null;
    case 'secret':
      return {
        name: 'authenticate',
        async run(c) {
          const raw = bearer(c);
          if (!raw) throw new AppError('invalid_secret', { hint: 'Send Authorization: Bearer <secret key>.' });
          const found = await s.keys.lookupSecret(raw.trim());
          if (!found.ok) throw await wrongKey(c, s, found.reason === 'revoked' ? 'revoked_api_key' : 'invalid_secret');
          const org = await s.accounts.orgById(found.key.orgId);
          if (!org) throw new AppError('invalid_secret');
          c.set('key', found.key);
          c.set('org', org);
        },
      };
    case 'key':
      return {
        name: 'authenticate',
        async run(c) {
          let raw = auth.via === 'bearer' ? bearer(c) : c.req.header('x-api-key');
          if (!raw && auth.via === 'header-or-form' && mediaType(c.req.header('content-type')) === 'multipart/form-data') {
            // Read through the route's input: bounded like any body, and kept for the handler.
            const field = (await c.get('input').form()).get('clientKey');
            if (typeof field === 'string') raw = field;
          }
          if (!raw) {
            throw new AppError('missing_api_key', {
              hint: auth.via === 'bearer' ? 'Send Authorization: Bearer <API key>.' : 'Send your API key in the X-API-Key header.',
            });
          }
          const found = await s.keys.lookup(raw.trim());
          if (!found.ok) throw await wrongKey(c, s, found.reason === 'revoked' ? 'revoked_api_key' : 'invalid_api_key');
          const key = found.key;
          if (auth.scope && !key.scopes.includes(auth.scope)) throw new AppError('wrong_scope', { hint: scopeHint(auth.scope) });
          const org = await s.accounts.orgById(key.orgId);
          if (!org) throw new AppError('invalid_api_key');
          c.set('key', key);
          c.set('org', org);
        },
      };
    case 'session':
      return {
        name: 'authenticate',
        async run(c) {
          if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && !sameOrigin(c)) throw new AppError('cross_origin');
          const token = getCookie(c, SESSION_COOKIE);
          const session = token ? await s.accounts.resolveSession(token) : null;
          if (!session) throw new AppError('session_required');
          if (auth.act && !may(session.user.role, auth.act)) throw new AppError(auth.denied ?? 'permission_denied');
          if (auth.credits && !seesCredits(session.user)) throw new AppError('permission_denied');
          c.set('session', session);
          c.set('org', session.org);
        },
      };
  }
}

/** Per-key token buckets by category (spec, Limits); health per client address. Sessions have none. */
function rateLimit(s: Services, auth: AuthSpec): Step | null {
  const take = async (c: Context, bucket: string, limit: { rps: number; burst: number }, buckets = s.limiter) => {
    const d = await buckets.take(bucket, limit);
    if (!d.allowed) rateLimited(c, d);
    setRateHeaders(c, d);
  };
  switch (auth.kind) {
    case 'public':
      if (auth.category !== 'health') return null;
      // Each instance's own: a probe of an instance whose database is down still gets its answer.
      return { name: 'rate-limit', run: (c) => take(c, `health:${clientAddress(c)}`, HEALTH_LIMIT, s.localLimiter) };
    case 'secret':
      return { name: 'rate-limit', run: (c) => take(c, `${c.get('key').id}:read`, PLAN_INFO[c.get('org').plan].read) };
    case 'key':
      return {
        name: 'rate-limit',
        async run(c) {
          const plan = c.get('org').plan;
          const product = auth.product ?? auth.scope;
          if (auth.category === 'verification') {
            await take(c, `${c.get('key').id}:verification:${product ?? ''}`, verificationLimit(plan, product ?? 'human'));
          } else {
            await take(c, `${c.get('key').id}:${auth.category}:`, PLAN_INFO[plan].read);
          }
        },
      };
    case 'session':
      return null;
  }
}

/** The plan rule (policy.planAllows) for the route's product. */
function planCheck(auth: AuthSpec): Step | null {
  const product = auth.kind === 'key' ? (auth.product ?? auth.scope) : auth.kind === 'session' ? auth.product : undefined;
  if (!product) return null;
  return {
    name: 'plan',
    run(c) {
      const refused = planAllows(c.get('org').plan, product);
      if (refused) throw refused;
    },
  };
}

/** Age keys on plans below Growth run on the trial (spec: 30 days or 50 verifications). */
function trialCheck(s: Services, auth: AuthSpec): Step | null {
  if (auth.kind !== 'key' || (auth.product ?? auth.scope) !== 'age') return null;
  return {
    name: 'trial',
    async run(c) {
      const key = c.get('key');
      if (!planIncludes(c.get('org').plan, 'age_without_trial') && !key.demo && !(await s.keys.trial(key)).active) throw new AppError('trial_expired');
    },
  };
}

/** Records when a key was last used, at most once a minute per key. */
function touchKey(s: Services, lastTouched: Map<string, number>): Step {
  return {
    name: 'touch-key',
    async run(c) {
      const key = c.get('key');
      const now = s.clock.now();
      if (now - (lastTouched.get(key.id) ?? 0) > TOUCH_EVERY_MS) {
        lastTouched.set(key.id, now);
        await s.keys.touch(key.id);
      }
    },
  };
}

/**
 * Cookie-authenticated writes must come from the console's own origin. SameSite=Strict already
 * keeps the cookie off cross-site requests; this refuses same-site-but-cross-origin ones too.
 */
export function sameOrigin(c: Context): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return false;
  // A DNS-rebinding page is "same origin" with its own name; only the listener's own names are
  // ours: loopback names on the loopback listener, the team server's address and its
  // certificate's names on the team server, the public URL's name behind a trusted proxy.
  const env = c.env as AppEnv['Bindings'] | undefined;
  const forwarded = env?.forwarded;
  if (forwarded) {
    // Behind the proxy: the public URL's origin only, as the proxy names it.
    if (forwarded.origin === null || forwarded.host !== new URL(forwarded.origin).host) return false;
    const origin = c.req.header('origin');
    return origin === undefined || origin === forwarded.origin;
  }
  const host = (c.req.header('host') ?? new URL(c.req.url).host).toLowerCase();
  const team = env?.listener === 'team';
  if (team ? !(env.authorities ?? []).includes(host) : !LOOPBACK_HOST.test(host)) return false;
  const origin = c.req.header('origin');
  if (!origin) return true;
  try {
    const o = new URL(origin);
    return o.host === host && (!team || o.protocol === 'https:');
  } catch {
    return false;
  }
}

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;
