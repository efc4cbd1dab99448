// GET /api/health: liveness of the service, its database, its disk, whether screening is ready and the models loaded
// (health rate-limit category).
import { sql } from 'kysely';
import { API_VERSION } from '../../../../src-shared/catalog';
import { Health } from '../../../../src-shared/contracts/status';
import { DATABASE_RETRY_S } from '../../db/engine';
import type { Router } from '../router';

export function healthRoutes({ route, services }: Router): void {
  const started = Date.now();
  route({
    method: 'GET', path: '/api/health', auth: { kind: 'public', category: 'health' }, tags: ['service'],
    summary: 'Liveness of the service, its database and its disk; readiness of screening',
    description:
      'A database that cannot be read or reached (PostgreSQL down, or no connection free in time) answers 503 with Retry-After and `database: unavailable`. A disk with less free space than the reserve (billable calls and new exports '
      + 'then answer 507 INSUFFICIENT_STORAGE), or a write refused for lack of space in the last minute, answers 200 with '
      + '`status: degraded` and the `reason`: the service is up and serves what it has stored. So does screening that is not ready: '
      + '`screening` is `loading` while the lists\' index loads after a start (screening calls answer 503 with Retry-After meanwhile) '
      + 'and `failed` when the lists could not be loaded. `models` says whether the face and document models are loaded: they load '
      + 'once screening is ready (or at the first request that needs them), and a request that needs one meanwhile waits for it.',
    responses: { 200: Health, 503: Health },
    handler: async (c) => {
      let database: Health['database'] = 'ok';
      try {
        await sql`SELECT 1`.execute(services.engine.q);
      } catch {
        database = 'unavailable';
      }
      // Read at most once a second (core/storage/storage.ts): health stays cheap under polling.
      const disk = services.storage.reading();
      const reasons: string[] = [];
      if (database !== 'ok') reasons.push('The database cannot be read or reached: requests that need it answer 503 with Retry-After.');
      if (disk.low) {
        reasons.push(`Less than ${mib(disk.reserveBytes)} MiB free on the data directory's disk (${mib(disk.freeBytes ?? 0)} MiB): `
          + 'billable calls and new exports are refused with 507 until space is freed.');
      }
      if (disk.refusedAt !== null) reasons.push('A write failed for lack of disk space in the last minute.');
      // Read, never started here: a service starts loading its lists as it listens (main.ts), and
      // a probe polled many times a second must not set CPU-heavy work going.
      const screening = services.screening.state();
      if (screening === 'loading') reasons.push('The screening lists are loading: screening answers 503 with Retry-After until they are ready.');
      if (screening === 'failed') reasons.push('The screening lists could not be loaded: screening answers 503.');
      const faces = services.faces.stats();
      const documents = services.documents.stats();
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
          screening,
          models: { faces: modelState(faces.workers > 0, faces.ready > 0), documents: modelState(documents.started, documents.ready) },
          reason: reasons.length === 0 ? null : reasons.join(' '),
        },
        database === 'ok' ? 200 : 503,
        database === 'ok' ? {} : { 'Retry-After': String(DATABASE_RETRY_S) },
      );
    },
  });
}

function modelState(started: boolean, ready: boolean): Health['models']['faces'] {
  return ready ? 'ready' : started ? 'loading' : 'idle';
}

function mib(bytes: number): string {
  return (bytes / 1048576).toFixed(bytes < 1048576 ? 2 : 0);
}
