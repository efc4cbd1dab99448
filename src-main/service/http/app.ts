// Builds the HTTP app (never listens: main.ts does). Tests call `app.request` in-process.
import { Hono, type Context, type Handler } from 'hono';
import { AppError, errorResponse, isAppError } from '../../../src-shared/errors';
import type { Services } from '../compose';
import { createAuth } from './auth';
import { serveConsole } from './static';
import type { AppEnv, AuthSpec, RouteInfo } from './types';
import { healthRoutes } from './routes/health';
import { statusRoutes } from './routes/status';
import { authRoutes } from './routes/auth';
import { keyRoutes } from './routes/keys';
import { accountRoutes } from './routes/account';
import { ageRoutes } from './routes/age';
import { webhookRoutes } from './routes/webhooks';
import { screeningRoutes } from './routes/screening';
import { batchRoutes } from './routes/batch';
import { reviewRoutes } from './routes/review';
import { auditRoutes } from './routes/audit';

export type App = Hono<AppEnv>;

/** Registers a route together with its auth spec, so the route table can never drift. */
export interface Router {
  app: App;
  services: Services;
  route(method: RouteInfo['method'], path: string, auth: AuthSpec, handler: Handler<AppEnv>): void;
}

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, X-API-Key, Authorization',
};

const UPGRADE_CODES = new Set(['credits_exhausted', 'trial_expired', 'plan_restriction']);

export function upgradeUrl(c: Context): string {
  return `${new URL(c.req.url).origin}/#/plan`;
}

export function errorToResponse(c: Context, err: unknown, logger: Services['logger']): Response {
  let e: AppError;
  if (isAppError(err)) {
    e = err;
  } else {
    logger.error('unhandled', { route: c.req.routePath, name: err instanceof Error ? err.name : 'unknown' });
    e = new AppError('internal');
  }
  const details = UPGRADE_CODES.has(e.code) && !e.details.upgrade_url ? { ...e.details, upgrade_url: upgradeUrl(c) } : e.details;
  const { status, body } = errorResponse(e.code, details);
  return c.json(body, status as 400);
}

export interface AppOptions {
  /** Extra route modules: later capabilities and the billing plumbing tests plug in here. */
  extraRoutes?: ((r: Router) => void)[];
}

export function createApp(services: Services, options: AppOptions = {}): { app: App; routes: RouteInfo[] } {
  const app: App = new Hono<AppEnv>();
  const routes: RouteInfo[] = [];
  const auth = createAuth(services);

  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    // Every API answer may carry subject data or credentials: nothing is cached anywhere.
    if (c.req.path.startsWith('/api/') || c.req.path.startsWith('/hosted/')) {
      c.header('Cache-Control', 'no-store');
      for (const [k, v] of Object.entries(CORS_HEADERS)) c.header(k, v);
    }
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    services.logger.info('request', {
      method: c.req.method, route: c.req.routePath, status: c.res.status, ms: Math.round(performance.now() - started),
    });
  });

  app.options('*', (c) => {
    for (const [k, v] of Object.entries(CORS_HEADERS)) c.header(k, v);
    c.header('Access-Control-Max-Age', '600');
    return c.body(null, 204);
  });

  const router: Router = {
    app,
    services,
    route(method, path, spec, handler) {
      routes.push({ method, path, auth: spec });
      app.on(method, path, auth(spec), handler);
    },
  };

  healthRoutes(router);
  statusRoutes(router);
  authRoutes(router);
  keyRoutes(router);
  accountRoutes(router);
  ageRoutes(router);
  webhookRoutes(router);
  screeningRoutes(router);
  batchRoutes(router);
  reviewRoutes(router);
  auditRoutes(router);
  for (const extra of options.extraRoutes ?? []) extra(router);

  app.all('/api/*', () => {
    throw new AppError('not_found');
  });
  if (services.config.consoleDir) serveConsole(app, services.config.consoleDir);

  app.notFound((c) => errorToResponse(c, new AppError('not_found'), services.logger));
  app.onError((err, c) => errorToResponse(c, err, services.logger));
  return { app, routes };
}
