// Runs commands at the same time and prints each one's output whole when it ends, so their lines
// never interleave; resolves true when every command exited 0. `npm run checks` (lint, typecheck
// and build) and `npm run test:unit` (the unit files beside the service drivers) use it.
// A command that failed is printed again at the very end, after every other command's output:
// a long log's tail (all a CI page may show) then says what failed, not that the rest passed.
import { spawn } from 'node:child_process';

/** @param {[name: string, file: string, args: string[], cwd: string][]} steps */
export async function sideBySide(steps) {
  const results = await Promise.all(steps.map(run));
  const failed = results.filter((r) => !r.ok);
  if (failed.length && results.length > 1) {
    process.stdout.write(`\n── failed, printed again after the rest: ${failed.map((r) => r.name).join(', ')}\n`);
    for (const r of failed) process.stdout.write(r.report);
  }
  return failed.length === 0;
}

function run([name, file, args, cwd]) {
  const began = Date.now();
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
    const out = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => out.push(c));
    let settled = false;
    const done = (code) => {
      if (settled) return;
      settled = true;
      const text = Buffer.concat(out).toString().trimEnd();
      const secs = ((Date.now() - began) / 1000).toFixed(1);
      const report = `\n── ${name}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${secs} s\n${text ? `${text}\n` : ''}`;
      process.stdout.write(report);
      resolve({ name, ok: code === 0, report });
    };
    child.once('error', (e) => {
      out.push(Buffer.from(String(e)));
      done(-1);
    });
    child.once('close', (code) => done(code ?? 1));
  });
}
