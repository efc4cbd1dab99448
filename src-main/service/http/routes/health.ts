// GET /api/health: liveness of the service and its database (health rate-limit category).
import { API_VERSION } from '../../../../src-shared/catalog';
import type { Router } from '../app';

export function healthRoutes({ route, services }: Router): void {
  const started = Date.now();
  route('GET', '/api/health', { kind: 'public', category: 'health' }, (c) => {
    let database = 'ok';
    try {
      services.db.prepare('SELECT 1').get();
    } catch {
      database = 'unavailable';
    }
    return c.json(
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
  });
}
