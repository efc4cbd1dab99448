// The admin CLI as tests, the e2e fixtures and the scripts start it: the built bundle
// (out/main/cli.js) with node when the build is current, else the source through tsx, which
// takes a second or more per call just to start.
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { join, resolve } from 'node:path';
import { isBuildCurrent } from '../../../scripts/build.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');

let built: boolean | undefined;

/** The executable and the arguments before the CLI's own. */
export function cliCommand(): { file: string; args: string[] } {
  built ??= isBuildCurrent();
  return built
    ? { file: process.execPath, args: [join(ROOT, 'out', 'main', 'cli.js')] }
    : { file: join(ROOT, 'node_modules', '.bin', 'tsx'), args: [join(ROOT, 'src-main', 'service', 'cli.ts')] };
}

/** Runs the CLI to its end (blocking); `input` goes to its stdin. */
export function cliSync(args: readonly string[], opts: { input?: string; timeout?: number } = {}): SpawnSyncReturns<string> {
  const c = cliCommand();
  return spawnSync(c.file, [...c.args, ...args], { encoding: 'utf8', cwd: ROOT, timeout: opts.timeout ?? 120_000, ...(opts.input !== undefined ? { input: opts.input } : {}) });
}

/**
 * Runs the CLI without blocking this process: a blocked event loop keeps fetch from noticing that
 * a service closed an idle keep-alive connection, and the next request then fails on it.
 * stdout and stderr come back trimmed.
 */
export function cli(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const c = cliCommand();
  return new Promise((done, reject) => {
    const proc = spawn(c.file, [...c.args, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    proc.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    proc.on('error', reject);
    proc.on('close', (status) => done({ status, stdout: stdout.trim(), stderr: stderr.trim() }));
  });
}
