// A throwaway PostgreSQL for tests and benches: Debian's `postgresql` binaries, a cluster in a new
// temporary directory, reachable only on a unix socket in that directory (no TCP port), started
// with durability off for tests (a test's data need not survive a crash), and removed when stopped.
// initdb and pg_ctl refuse to run as root, so as root they run as the `postgres` user
// (`runuser -u postgres --`); as any other user they run as that user.
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const PG_LIB = '/usr/lib/postgresql';

export interface Cluster {
  /** The cluster's directory: its data (`data/`), its socket and its log. */
  dir: string;
  /** The data directory alone (what a privacy scan reads). */
  dataDir: string;
  /** `postgres://postgres@/postgres?host=DIR`: the maintenance database over the socket. */
  url: string;
  /** A connection URL for another database of this cluster. */
  urlOf(database: string): string;
  stop(): Promise<void>;
}

/** Runs one statement on its own connection to `url` (CREATE DATABASE and DROP DATABASE take no transaction). */
export async function runStatement(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The newest installed PostgreSQL's bin directory, or null. */
export function postgresBin(): string | null {
  if (!existsSync(PG_LIB)) return null;
  const versions = readdirSync(PG_LIB)
    .filter((v) => existsSync(join(PG_LIB, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(PG_LIB, versions[0], 'bin') : null;
}

/** Why a cluster cannot be started here (null: it can). */
export function clusterUnavailable(): string | null {
  if (!postgresBin()) return `PostgreSQL is not installed (no ${PG_LIB}/*/bin/initdb: apt-get install -y postgresql)`;
  if (userInfo().uid !== 0) return null;
  // As root, initdb and pg_ctl run as the account Debian's package makes.
  try {
    execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    return null;
  } catch {
    return 'running as root, and there is no postgres user to run initdb and pg_ctl as';
  }
}

function asOwner(bin: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return userInfo().uid === 0 ? run('runuser', ['-u', 'postgres', '--', bin, ...args]) : run(bin, args);
}

/**
 * `durable`: commits wait for the disk as a server's do (benches); tests leave durability off (a
 * test's data need not survive a crash).
 */
export async function startCluster(opts: { durable?: boolean } = {}): Promise<Cluster> {
  const bin = postgresBin();
  if (!bin) throw new Error(clusterUnavailable() ?? 'PostgreSQL is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'cc-pg-'));
  const dataDir = join(dir, 'data');
  if (userInfo().uid === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  await asOwner(join(bin, 'initdb'), ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const options = [
    `-k ${dir}`, "-c listen_addresses=''", ...(opts.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
    '-c max_connections=600', '-c shared_buffers=64MB',
  ].join(' ');
  await asOwner(join(bin, 'pg_ctl'), ['-D', dataDir, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '30', 'start']);
  const urlOf = (database: string) => `postgres://postgres@/${database}?host=${encodeURIComponent(dir)}`;
  return {
    dir,
    dataDir,
    url: urlOf('postgres'),
    urlOf,
    async stop() {
      try {
        await asOwner(join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
