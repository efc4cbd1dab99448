#!/usr/bin/env node
// `npm run checks`: lint, typecheck and build side by side (npm test's first step). One after the
// other they left a core idle most of the time (each is mostly one thread); together they take the
// longest one's time. Each step's output is printed whole when it ends, so the three never
// interleave; the exit code is non-zero when any step failed.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(ROOT, 'node_modules', '.bin', name);
const STEPS = [
  ['lint', bin('eslint'), ['.']],
  ['typecheck', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']],
  ['build', process.execPath, [join(ROOT, 'scripts', 'build.mjs')]],
];

function run([name, file, args]) {
  const began = Date.now();
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
    const out = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => out.push(c));
    const done = (code) => {
      const text = Buffer.concat(out).toString().trimEnd();
      const secs = ((Date.now() - began) / 1000).toFixed(1);
      process.stdout.write(`\n── ${name}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${secs} s\n${text ? `${text}\n` : ''}`);
      resolve(code === 0);
    };
    child.once('error', (e) => {
      out.push(Buffer.from(String(e)));
      done(-1);
    });
    child.once('close', (code) => done(code ?? 1));
  });
}

const results = await Promise.all(STEPS.map(run));
process.exitCode = results.every(Boolean) ? 0 : 1;
