#!/usr/bin/env node
// `npm run build`: the Electron main/preload/renderer bundles (with the screening snapshot), the
// hosted page, the age-gate widget, the admin CLI bundle and docs/openapi.json. Skipped when
// nothing it reads changed since the last build (`--force` builds anyway); `npm run serve` and
// the tests ask the same question (isBuildCurrent) before they use out/.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(ROOT, 'out', '.build-stamp');
/** What the build reads: sources, the shipped lists (the snapshot), the build's own configuration. */
const INPUTS = [
  'src-main', 'src-shared', 'src-renderer', 'resources', 'electron.vite.config.ts', 'vite.hosted.config.ts', 'vite.widget.config.ts',
  'tsconfig.json', 'package.json', 'package-lock.json', 'scripts/build.mjs', 'scripts/write-openapi.ts',
];
/** What a build leaves: when one is missing, out/ is not a whole build whatever the stamp says. */
const OUTPUTS = ['out/main/service.js', 'out/main/cli.js', 'out/main/screening-index.bin', 'out/renderer/index.html', 'out/hosted', 'out/widget'];

function newest(p) {
  const st = statSync(p, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let m = st.mtimeMs;
  for (const e of readdirSync(p)) m = Math.max(m, newest(join(p, e)));
  return m;
}

/** True when out/ is a whole build made after the last change to anything the build reads. */
export function isBuildCurrent() {
  if (!OUTPUTS.every((p) => existsSync(join(ROOT, p)))) return false;
  const built = statSync(STAMP, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return Math.max(...INPUTS.map((p) => newest(join(ROOT, p)))) <= built;
}

// Production bundles whatever started this process: a test runner's NODE_ENV (e.g. `test`) would
// otherwise make Vite build React's development code (StrictMode then runs effects twice).
const ENV = { ...process.env, NODE_ENV: 'production' };
const STEPS = [
  ['the service, the console and the screening snapshot', 'electron-vite', ['build', '--logLevel', 'warn']],
  ['the hosted verification page', 'vite', ['build', '--config', 'vite.hosted.config.ts', '--logLevel', 'warn']],
  ['the age-gate widget', 'vite', ['build', '--config', 'vite.widget.config.ts', '--logLevel', 'warn']],
  ['the API reference (docs/openapi.json)', 'tsx', ['scripts/write-openapi.ts']],
];

/** Builds unless the build is current (or always, with force); false when a step failed. */
export function build({ force = false, say = (line) => process.stderr.write(`${line}\n`) } = {}) {
  if (!force && isBuildCurrent()) return true;
  const began = Date.now();
  // Stamped with the time the build began: an edit made while it runs makes the next one build again.
  const startedAt = new Date();
  say(`Building Compliance Console (${STEPS.length} steps, about half a minute the first time)…`);
  for (const [i, [what, bin, args]] of STEPS.entries()) {
    // Each step says what it builds when it starts and how long it took, so a first start is never
    // a minute of silence.
    say(`  ${i + 1}/${STEPS.length} ${what}…`);
    const stepBegan = Date.now();
    const r = spawnSync(join(ROOT, 'node_modules', '.bin', bin), args, { cwd: ROOT, env: ENV, stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0) {
      say(`  ${i + 1}/${STEPS.length} failed (${bin} exited ${r.status ?? r.signal}).`);
      return false;
    }
    say(`  ${i + 1}/${STEPS.length} done in ${((Date.now() - stepBegan) / 1000).toFixed(1)} s.`);
  }
  writeFileSync(STAMP, startedAt.toISOString());
  utimesSync(STAMP, startedAt, startedAt);
  say(`Built in ${((Date.now() - began) / 1000).toFixed(1)} s.`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const force = process.argv.includes('--force');
  if (!force && isBuildCurrent()) process.stderr.write('The build is current (nothing it reads changed): skipped. `npm run build -- --force` builds anyway.\n');
  else if (!build({ force })) process.exit(1);
}
