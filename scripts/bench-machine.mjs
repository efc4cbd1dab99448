#!/usr/bin/env node
// `npm run bench:machine`: what this machine charges for the three things the suite's time is made
// of, to tell "the code got slower" from "the machine did" before comparing suite times across days.
// - CPU: a fixed recursive loop (no allocation), median of 7 runs;
// - fresh memory: the first write to each 4 KiB page of 256 MiB the process has just mapped (every
//   new process, worker, browser tab and grown heap pays it), and the same pages written again;
// - a process: `node -e 0` spawned and waited for, median of 7.
// On an ordinary Linux host a first touch costs well under 1 µs a page; a virtual machine that hands
// freed memory back to its host pays a host fault for it, many times that.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const PAGE = 4096;
const BYTES = 256 * 1024 * 1024;

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

function cpu() {
  fib(25);
  const times = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    fib(32);
    times.push(performance.now() - t);
  }
  return median(times);
}

function memory() {
  const t0 = performance.now();
  const b = Buffer.allocUnsafeSlow(BYTES);
  for (let i = 0; i < BYTES; i += PAGE) b[i] = 1;
  const first = performance.now() - t0;
  const t1 = performance.now();
  for (let i = 0; i < BYTES; i += PAGE) b[i] = 2;
  const again = performance.now() - t1;
  return { first, again, pages: BYTES / PAGE };
}

function processes() {
  const times = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, ['-e', '0']);
    if (r.status !== 0) throw new Error('node -e 0 failed');
    times.push(performance.now() - t);
  }
  return median(times);
}

const c = cpu();
const m = memory();
const p = processes();
const us = (ms) => ((ms * 1000) / m.pages).toFixed(2);
console.log(`cpu: fib(32)                          ${c.toFixed(1)} ms (median of 7)`);
console.log(`memory: first write to 256 MiB        ${m.first.toFixed(0)} ms (${us(m.first)} µs a page)`);
console.log(`memory: the same pages again          ${m.again.toFixed(0)} ms (${us(m.again)} µs a page)`);
console.log(`process: node -e 0                    ${p.toFixed(0)} ms (median of 7)`);
