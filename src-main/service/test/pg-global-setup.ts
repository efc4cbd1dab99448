// Vitest's global setup: one throwaway PostgreSQL cluster for the run (test/pg-cluster.ts), its
// URL provided to the test files, which each make their own databases on it (test/engines.ts).
// Where PostgreSQL cannot run, the files that need it are skipped with the reason.
import type { TestProject } from 'vitest/node';
import { clusterUnavailable, startCluster } from './pg-cluster';

export interface ProvidedPostgres {
  /** The cluster's maintenance database, or null with `why`. */
  url: string | null;
  why: string | null;
  /** The cluster's data directory (what a privacy scan reads). */
  dataDir: string | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: ProvidedPostgres;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const why = clusterUnavailable();
  if (why) {
    project.provide('postgres', { url: null, why, dataDir: null });
    return undefined;
  }
  const cluster = await startCluster();
  project.provide('postgres', { url: cluster.url, why: null, dataDir: cluster.dataDir });
  return () => cluster.stop();
}
