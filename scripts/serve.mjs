#!/usr/bin/env node
// `npm run serve` / `npm run demo`: builds the app when its sources changed since the last
// build, then runs the very service bundle the Electron shell forks (out/main/service.js).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'out', '.build-stamp');
const inputs = ['src-main', 'src-shared', 'src-renderer', 'electron.vite.config.ts', 'vite.hosted.config.ts', 'vite.widget.config.ts', 'package.json'];

function newest(p) {
  const st = statSync(p, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let m = st.mtimeMs;
  for (const e of readdirSync(p)) m = Math.max(m, newest(join(p, e)));
  return m;
}

// Production bundles whatever started this process: a test runner's NODE_ENV (e.g. `test`) would
// otherwise make Vite build React's development code (StrictMode then runs effects twice).
const buildEnv = { ...process.env, NODE_ENV: 'production' };

const built = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const changed = Math.max(...inputs.map((p) => newest(join(root, p))));
if (!existsSync(join(root, 'out', 'main', 'service.js')) || changed > built) {
  process.stderr.write('Building Compliance Console (electron-vite build)…\n');
  const r = spawnSync(join(root, 'node_modules', '.bin', 'electron-vite'), ['build', '--logLevel', 'warn'], {
    cwd: root,
    env: buildEnv,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
  // The hosted verification page is its own small bundle (out/hosted).
  const h = spawnSync(join(root, 'node_modules', '.bin', 'vite'), ['build', '--config', 'vite.hosted.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    env: buildEnv,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (h.status !== 0) process.exit(h.status ?? 1);
  // The storefront age-gate widget is one script (out/widget/age-gate.js).
  const w = spawnSync(join(root, 'node_modules', '.bin', 'vite'), ['build', '--config', 'vite.widget.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    env: buildEnv,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (w.status !== 0) process.exit(w.status ?? 1);
  writeFileSync(stamp, new Date().toISOString());
}

await import(pathToFileURL(join(root, 'out', 'main', 'service.js')).href);
