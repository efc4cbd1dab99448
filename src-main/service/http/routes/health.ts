// GET /api/health: liveness of the service, its database and its disk (health rate-limit category).
import { API_VERSION } from '../../../../src-shared/catalog';
import { Health } from '../../../../src-shared/contracts/status';
import type { Router } from '../router';

export function healthRoutes({ route, services }: Router): void {
  const started = Date.now();
  route({
    method: 'GET', path: '/api/health', auth: { kind: 'public', category: 'health' }, tags: ['service'],
    summary: 'Liveness of the service, its database and its disk',
    description:
      'A database that cannot be read answers 500. A disk with less free space than the reserve (billable calls and new exports '
      + 'then answer 507 INSUFFICIENT_STORAGE), or a write refused for lack of space in the last minute, answers 200 with '
      + '`status: degraded` and the `reason`: the service is up and serves what it has stored.',
    responses: { 200: Health, 500: Health },
    handler: (c) => {
      let database: Health['database'] = 'ok';
      try {
        services.db.prepare('SELECT 1').get();
      } catch {
        database = 'unavailable';
      }
      // Read at most once a second (core/storage/storage.ts): health stays cheap under polling.
      const disk = services.storage.reading();
      const reasons: string[] = [];
      if (database !== 'ok') reasons.push('The database cannot be read.');
      if (disk.low) {
        reasons.push(`Less than ${mib(disk.reserveBytes)} MiB free on the data directory's disk (${mib(disk.freeBytes ?? 0)} MiB): `
          + 'billable calls and new exports are refused with 507 until space is freed.');
      }
      if (disk.refusedAt !== null) reasons.push('A write failed for lack of disk space in the last minute.');
      return c.json<Health>(
        {
          status: reasons.length === 0 ? 'ok' : 'degraded',
          api_version: API_VERSION,
          version: services.config.version,
          database,
          uptime_s: Math.round((Date.now() - started) / 1000),
          timestamp: new Date().toISOString(),
          storage: {
            status: disk.low ? 'low' : 'ok',
            free_bytes: disk.freeBytes === null ? null : Math.floor(disk.freeBytes),
            reserve_bytes: disk.reserveBytes,
            last_write_refused_at: disk.refusedAt === null ? null : new Date(disk.refusedAt).toISOString(),
          },
          reason: reasons.length === 0 ? null : reasons.join(' '),
        },
        database === 'ok' ? 200 : 500,
      );
    },
  });
}

function mib(bytes: number): string {
  return (bytes / 1048576).toFixed(bytes < 1048576 ? 2 : 0);
}
