// Builds the HTTP app (never listens: main.ts does). Tests call `app.request` in-process.
import { Hono, type Context } from 'hono';
import { AppError, errorResponse, isAppError } from '../../../src-shared/errors';
import type { Services } from '../compose';
import type { DriftHandler } from './response-check';
import { createUploadLimits } from './body';
import { DATABASE_RETRY_S, databaseUnreachable } from '../db/engine';
import { createRouter, type Router } from './router';
import { clientAddress, overHttps } from './auth';
import { forwardedBy } from './proxy';
import { withRequestSource } from '../core/audit/request-source';
import { serveConsole, serveHosted, serveWidget } from './static';
import type { AppEnv, RouteInfo } from './types';
import { openApiRoutes } from './routes/openapi';
import { healthRoutes } from './routes/health';
import { statusRoutes } from './routes/status';
import { authRoutes } from './routes/auth';
import { keyRoutes } from './routes/keys';
import { accountRoutes } from './routes/account';
import { teamRoutes } from './routes/team';
import { faceRoutes } from './routes/faces';
import { verificationRoutes } from './routes/verifications';
import { ageRoutes } from './routes/age';
import { documentRoutes } from './routes/documents';
import { hostedRoutes } from './routes/hosted';
import { flowRoutes } from './routes/flows';
import { ageGateRoutes } from './routes/age-gate';
import { onsiteRoutes } from './routes/onsite';
import { teamServerRoutes } from './routes/team-server';
import { webhookRoutes } from './routes/webhooks';
import { screeningRoutes } from './routes/screening';
import { batchRoutes } from './routes/batch';
import { reviewRoutes } from './routes/review';
import { auditRoutes } from './routes/audit';
import { reportRoutes, reportSchemaVersion } from './routes/reports';
import { exportRoutes } from './routes/exports';
import { homeRoutes } from './routes/home';

export type App = Hono<AppEnv>;
export type { Router };

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, X-API-Key, Authorization',
};

const UPGRADE_CODES = new Set(['credits_exhausted', 'trial_expired', 'plan_restriction']);

/** The console's Plan & credits screen on its configured origin (issue 26: never the request's Host). */
export function upgradeUrl(services: Pick<Services, 'origin'>): string {
  return `${services.origin.console().origin}/#/plan`;
}

export function errorToResponse(c: Context<AppEnv>, err: unknown, services: Pick<Services, 'logger' | 'storage' | 'origin'>): Response {
  const { logger } = services;
  let e: AppError;
  if (isAppError(err)) {
    e = err;
  } else if (databaseUnreachable(err)) {
    // PostgreSQL down or out of connections (issue 40): the transaction did not commit; come back shortly.
    logger.error('database_unreachable', { route: c.req.routePath, code: String((err as { code?: unknown }).code ?? 'none') });
    e = new AppError('database_unavailable', { retry_after: DATABASE_RETRY_S });
  } else if (services.storage.isFull(err)) {
    // A write that failed for lack of space rolled back whole (one transaction per act): nothing
    // was stored or charged, which is what 507 says (issue 25).
    logger.error('disk_full', { route: c.req.routePath, code: (err as { code: string }).code });
    e = new AppError('insufficient_storage');
  } else {
    logger.error('unhandled', { route: c.req.routePath, name: err instanceof Error ? err.name : 'unknown' });
    e = new AppError('internal');
  }
  // Session routes answer in the account APIs' shape ({ error }).
  if (e.code === 'insufficient_storage' && c.get('authKind') === 'session') e = new AppError('insufficient_storage_account', e.details);
  let details = UPGRADE_CODES.has(e.code) && !e.details.upgrade_url ? { ...e.details, upgrade_url: upgradeUrl(services) } : e.details;
  // Reporting errors carry the endpoint's schema_version (account spec, Errors), sign-in ones too.
  const reportVersion = details.schema_version ? null : reportSchemaVersion(c.req.path);
  if (reportVersion) details = { ...details, schema_version: reportVersion };
  const { status, body } = errorResponse(e.code, details);
  // Any error that says when to come back says it in the header too (rate limits, throttled
  // logins, a busy upload budget).
  if (details.retry_after !== undefined) c.header('Retry-After', String(Math.max(1, Math.ceil(details.retry_after))));
  return c.json(body, status as 400);
}

export interface AppOptions {
  /** Extra route modules: later capabilities and the billing plumbing tests plug in here, through the same registry. */
  extraRoutes?: ((r: Router) => void)[];
  /**
   * Dev/test only: every answer is parsed against the schema its route declares for the status;
   * drift is reported here and the answer becomes a 500 naming it.
   */
  onResponseDrift?: DriftHandler;
  /** The upload budgets, per-address anonymous uploads and body pace (tests make them small). */
  uploads?: Parameters<typeof createUploadLimits>[0];
  /** `--trust-proxy`: the reverse proxies whose X-Forwarded-* headers are read (http/proxy.ts); none by default. */
  trustProxy?: readonly string[];
}

export function createApp(services: Services, options: AppOptions = {}): { app: App; routes: RouteInfo[] } {
  const app: App = new Hono<AppEnv>();

  const trusted = new Set(options.trustProxy ?? []);
  const publicUrl = () => services.origin.startUrl() ?? services.publicUrlSetting.current();
  app.use('*', async (c, next) => {
    const started = performance.now();
    // A request a trusted reverse proxy passed on names its client, scheme and name (http/proxy.ts).
    const forwarded = forwardedBy(c, trusted, publicUrl);
    if (forwarded && c.env) c.env.forwarded = forwarded;
    // The audit rows this request writes name the address it came from (core/audit/request-source.ts).
    const address = clientAddress(c);
    await withRequestSource(address === 'in-process' ? null : address, next);
    // Every API answer may carry subject data or credentials: nothing is cached anywhere.
    if (c.req.path.startsWith('/api/') || c.req.path.startsWith('/hosted/')) {
      c.header('Cache-Control', 'no-store');
      for (const [k, v] of Object.entries(CORS_HEADERS)) c.header(k, v);
    }
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    // The team server is HTTPS on the network: browsers keep to HTTPS for it (issue 39).
    if (overHttps(c)) c.header('Strict-Transport-Security', 'max-age=31536000');
    services.logger.info('request', {
      method: c.req.method, route: c.req.routePath, status: c.res.status, ms: Math.round(performance.now() - started),
    });
  });

  app.options('*', (c) => {
    for (const [k, v] of Object.entries(CORS_HEADERS)) c.header(k, v);
    c.header('Access-Control-Max-Age', '600');
    return c.body(null, 204);
  });

  const router = createRouter(app, services, {
    ...(options.onResponseDrift ? { onDrift: options.onResponseDrift } : {}),
    uploads: createUploadLimits(options.uploads),
  });

  healthRoutes(router);
  statusRoutes(router);
  authRoutes(router);
  keyRoutes(router);
  accountRoutes(router);
  teamRoutes(router);
  ageRoutes(router);
  documentRoutes(router);
  hostedRoutes(router);
  flowRoutes(router);
  ageGateRoutes(router);
  onsiteRoutes(router);
  teamServerRoutes(router);
  faceRoutes(router);
  verificationRoutes(router);
  webhookRoutes(router);
  screeningRoutes(router);
  batchRoutes(router);
  reviewRoutes(router);
  auditRoutes(router);
  reportRoutes(router);
  exportRoutes(router);
  homeRoutes(router);
  for (const extra of options.extraRoutes ?? []) extra(router);
  openApiRoutes(router);

  app.all('/api/*', () => {
    throw new AppError('not_found');
  });
  serveHosted(app, services.config.hostedDir);
  serveWidget(app, services.config.widgetDir);
  if (services.config.consoleDir) serveConsole(app, services.config.consoleDir);

  app.notFound((c) => errorToResponse(c, new AppError('not_found'), services));
  app.onError((err, c) => errorToResponse(c, err, services));
  // The on-site listener passes the hosted page's requests on to this app.
  services.onsite.attach(app.fetch);
  // The team server passes on every request, saying it came through it (ListenerBindings).
  services.teamServer.attach(app.fetch);
  return { app, routes: [...router.table] };
}
