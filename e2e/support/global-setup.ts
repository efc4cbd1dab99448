// Starts the service once before any test so that a stale build is rebuilt here, by one
// process, rather than by several workers' services at the same time (serve.mjs rebuilds when
// sources are newer than the last build).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, stopService } from './service';

export default async function globalSetup(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cc-e2e-warmup-'));
  try {
    // Without the models: it stops as soon as it listens, and they would load for nothing.
    const { child } = await startService(dataDir, 'serve-script', {}, ['--lazy-models']);
    await stopService(child);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
