// Starts the service once before any test so that a stale build is rebuilt here, by one
// process, rather than by several workers' services at the same time (serve.mjs rebuilds when
// sources are newer than the last build). Where Debian's PostgreSQL is installed, also starts a
// throwaway cluster (a temporary directory, a unix socket) for the specs that run the console
// against instances on PostgreSQL: CONSOLE_E2E_POSTGRES is its URL, or CONSOLE_E2E_POSTGRES_SKIP
// why there is none; it is stopped and removed after the run.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clusterUnavailable, startCluster } from '../../src-main/service/test/pg-cluster';
import { startService, stopService } from './service';

export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cc-e2e-warmup-'));
  try {
    // Without the models: it stops as soon as it listens, and they would load for nothing.
    const { child } = await startService(dataDir, 'serve-script', {}, ['--lazy-models']);
    await stopService(child);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  const why = clusterUnavailable();
  if (why) {
    process.env.CONSOLE_E2E_POSTGRES_SKIP = why;
    return undefined;
  }
  const cluster = await startCluster();
  process.env.CONSOLE_E2E_POSTGRES = cluster.url;
  return () => cluster.stop();
}
