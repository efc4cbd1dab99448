#!/usr/bin/env node
// Builds better-sqlite3 for Electron's ABI into scripts/native/electron-<version>/better_sqlite3.node
// (gitignored). node_modules keeps the Node build for vitest and `npm run serve`; the shell hands
// this copy to the service as CONSOLE_SQLITE_BINDING (better-sqlite3's `nativeBinding`), so neither
// build ever overwrites the other.
//
//   node scripts/build-native-electron.mjs [--if-missing] [--arch=x64] [--nodedir=DIR]
//
// --if-missing  do nothing if the file for the installed Electron already exists
// --nodedir     unpacked Electron headers (node-v<ver>-headers.tar.gz from
//               https://electronjs.org/headers/v<ver>/), for machines without internet
//
// The result is also mirrored to scripts/native/current/ because electron-builder.yml cannot
// name the Electron version in a path; `npm run package` runs this script first.
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const HEADERS_URL = 'https://electronjs.org/headers';
// Headers are ~10 MB; if they have not arrived in this time the network is not going to help.
const HEADERS_TIMEOUT_MS = 120_000;
// Compiling the SQLite amalgamation takes 1-3 minutes on a laptop; 15 is "stuck", not "slow".
const BUILD_TIMEOUT_MS = 15 * 60_000;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const option = (name) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);

const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
const arch = option('arch') ?? process.arch;
const nodedir = option('nodedir') ?? process.env.ELECTRON_HEADERS_DIR;
const outDir = join(root, 'scripts', 'native', `electron-${electronVersion}`);
const outFile = join(outDir, 'better_sqlite3.node');
const currentDir = join(root, 'scripts', 'native', 'current');
const label = `better-sqlite3 for Electron ${electronVersion} (${process.platform}-${arch})`;
const rel = (path) => relative(root, path) || '.';

function log(message) {
  console.log(`build-native-electron: ${message}`);
}

class BuildError extends Error {
  constructor(step, reason, hints = []) {
    super(reason);
    this.step = step;
    this.hints = hints;
  }
}

// Throws rather than exiting so `finally` blocks still remove the temp copy.
function fail(step, reason, hints = []) {
  throw new BuildError(step, reason, hints);
}

function report(error) {
  const { step, hints } = error instanceof BuildError ? error : { step: 'unexpected error', hints: [] };
  console.error(
    [
      '',
      `build-native-electron: FAILED to build ${label}.`,
      `  step:   ${step}`,
      `  reason: ${error instanceof Error ? error.message : String(error)}`,
      ...hints.map((hint) => `  ${hint}`),
      '  The Node build in node_modules/better-sqlite3 is untouched: tests and `npm run serve` still work.',
      '',
    ].join('\n'),
  );
  process.exitCode = 1;
}

function mirrorToCurrent() {
  mkdirSync(currentDir, { recursive: true });
  copyFileSync(outFile, join(currentDir, 'better_sqlite3.node'));
  writeFileSync(join(currentDir, 'electron-version.txt'), `${electronVersion}\n`);
}

function findNodeGyp() {
  const npmDir = process.platform === 'win32' ? dirname(process.execPath) : join(dirname(process.execPath), '..', 'lib');
  const candidates = [
    join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    process.env.npm_config_node_gyp,
    join(npmDir, 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  return candidates.find((candidate) => candidate && existsSync(candidate));
}

// Runs node-gyp in its own process group so a timeout can stop its make/compiler children too.
function run(step, nodeGyp, gypArgs, cwd, timeoutMs) {
  const env = { ...process.env };
  // `npm run` exports the user's npmrc as npm_config_*, and node-gyp reads them: a global
  // nodedir (Node's headers) would silently produce a module for the wrong ABI.
  for (const key of Object.keys(env)) {
    if (/^npm_config_(nodedir|target|runtime|disturl|dist_url|arch|target_arch|build_from_source)$/i.test(key)) delete env[key];
  }
  log(`${step}: node-gyp ${gypArgs.join(' ')}`);
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [nodeGyp, ...gypArgs], {
      cwd,
      env,
      stdio: 'inherit',
      detached: process.platform !== 'win32',
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (process.platform === 'win32') child.kill();
        else process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already exited between the timer firing and the kill.
      }
    }, timeoutMs);
    const stopOnSignal = () => {
      clearTimeout(timer);
      try {
        if (process.platform === 'win32') child.kill();
        else process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Nothing left to stop.
      }
      process.exit(130);
    };
    process.once('SIGINT', stopOnSignal);
    child.on('error', (error) => {
      clearTimeout(timer);
      process.removeListener('SIGINT', stopOnSignal);
      resolvePromise({ ok: false, reason: error.message });
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      process.removeListener('SIGINT', stopOnSignal);
      if (timedOut) resolvePromise({ ok: false, reason: `timed out after ${Math.round(timeoutMs / 1000)} s` });
      else if (code === 0) resolvePromise({ ok: true });
      else resolvePromise({ ok: false, reason: signal ? `killed by ${signal}` : `node-gyp exited with code ${code}` });
    });
  });
}

async function main() {
  if (flag('if-missing') && existsSync(outFile)) {
    mirrorToCurrent();
    log(`${rel(outFile)} exists; skipping (drop --if-missing to rebuild).`);
    return;
  }

  const source = join(root, 'node_modules', 'better-sqlite3');
  if (!existsSync(join(source, 'binding.gyp'))) fail('locate sources', `${rel(source)}/binding.gyp not found`, ['Run `npm install` first.']);
  const nodeGyp = findNodeGyp();
  if (!nodeGyp) fail('locate node-gyp', 'neither node_modules/node-gyp nor npm\'s bundled node-gyp was found', ['Install it: npm install --save-dev node-gyp']);

  const common = [`--target=${electronVersion}`, `--arch=${arch}`, `--dist-url=${HEADERS_URL}`];
  if (nodedir) {
    if (!existsSync(join(nodedir, 'include', 'node', 'node.h'))) {
      fail('check --nodedir', `${nodedir} does not look like unpacked Electron headers (include/node/node.h missing)`);
    }
    common.push(`--nodedir=${resolve(nodedir)}`);
  } else {
    // Fetch headers first with a short timeout, so "no internet" fails in seconds, not after
    // copying sources and half a compile.
    const headers = await run('fetch Electron headers', nodeGyp, ['install', '--ensure', ...common], root, HEADERS_TIMEOUT_MS);
    if (!headers.ok) {
      fail(`download Electron ${electronVersion} headers from ${HEADERS_URL}`, headers.reason, [
        'cause:  most likely no internet access (or a proxy node-gyp cannot use).',
        'fix:    run this on a machine with internet (the headers are cached in ~/.cache/node-gyp), or download',
        `        ${HEADERS_URL}/v${electronVersion}/node-v${electronVersion}-headers.tar.gz, unpack it and run`,
        '        node scripts/build-native-electron.mjs --nodedir=/path/to/node_headers',
      ]);
    }
  }

  // Build in a copy so node_modules/better-sqlite3/build (the Node ABI) is never touched.
  const workDir = mkdtempSync(join(tmpdir(), 'better-sqlite3-electron-'));
  const buildDir = join(workDir, 'better-sqlite3');
  try {
    cpSync(source, buildDir, {
      recursive: true,
      filter: (path) => path !== join(source, 'build') && !path.startsWith(join(source, 'build') + sep),
    });
    const build = await run('compile', nodeGyp, ['rebuild', '--release', ...common, '--runtime=electron'], buildDir, BUILD_TIMEOUT_MS);
    if (!build.ok) {
      fail('compile better-sqlite3 with node-gyp', build.reason, [
        'needs:  Python 3 and a C++ toolchain (build-essential / Xcode CLT / VS Build Tools).',
      ]);
    }
    const built = join(buildDir, 'build', 'Release', 'better_sqlite3.node');
    if (!existsSync(built)) fail('collect output', `${built} was not produced`);
    mkdirSync(outDir, { recursive: true });
    copyFileSync(built, outFile);
    mirrorToCurrent();
    log(`built ${rel(outFile)} (also at ${rel(join(currentDir, 'better_sqlite3.node'))}).`);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch(report);
