// Runs commands at the same time and prints each one's output whole when it ends, so their lines
// never interleave; resolves true when every command exited 0. `npm run checks` (lint, typecheck
// and build) and `npm run test:unit` (the unit files beside the service drivers) use it.
import { spawn } from 'node:child_process';

/** @param {[name: string, file: string, args: string[], cwd: string][]} steps */
export async function sideBySide(steps) {
  const results = await Promise.all(steps.map(run));
  return results.every(Boolean);
}

function run([name, file, args, cwd]) {
  const began = Date.now();
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
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
