// GET /api/health: liveness of the service and its database (health rate-limit category).
import { API_VERSION } from '../../../../src-shared/catalog';
import { Health } from '../../../../src-shared/contracts/status';
import type { Router } from '../router';

export function healthRoutes({ route, services }: Router): void {
  const started = Date.now();
  route({
    method: 'GET', path: '/api/health', auth: { kind: 'public', category: 'health' }, tags: ['service'],
    summary: 'Liveness of the service and its database',
    responses: { 200: Health, 500: Health },
    handler: (c) => {
      let database: Health['database'] = 'ok';
      try {
        services.db.prepare('SELECT 1').get();
      } catch {
        database = 'unavailable';
      }
      return c.json<Health>(
        {
          status: database === 'ok' ? 'ok' : 'degraded',
          api_version: API_VERSION,
          version: services.config.version,
          database,
          uptime_s: Math.round((Date.now() - started) / 1000),
          timestamp: new Date().toISOString(),
        },
        database === 'ok' ? 200 : 500,
      );
    },
  });
}
