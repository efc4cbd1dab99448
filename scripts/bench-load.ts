// `npm run bench:load` (after `npm run build`): is the service responsive while it screens?
// Starts the built service (demo organisation, loopback), then:
//   idle      /api/health latency with nothing else running
//   screens   /api/health polled every 2 ms while bursts of concurrent long-name screens run
//             (64 at once, repeated; the console's session route has no rate limit, so this is
//             more than any key's limits admit)
//   batch     a 5,000-row batch chunk: time to its first result line and to the last, rows/s,
//             /api/health meanwhile
// Prints figures; exits 1 when /api/health p99 under load is over 50 ms or the batch's first line
// takes over 1 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { healthDuring } from './support/health';
import { startDemo, waitForFaces } from './support/service';

const HEALTH_P99_MS = 50;
const FIRST_LINE_MS = 1000;

function line(label: string, value: string | number): void {
  process.stdout.write(`  ${label.padEnd(44)} ${value}\n`);
}
function q(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function start(dir: string) {
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const { child, url, output: out } = await startDemo([...prof, 'scripts/serve.mjs'], dir);
  const email = /login:\s+(\S+) \/ (\S+)/.exec(out)!;
  const key = /Test key \(all products\): (\S+)/.exec(out)![1]!;
  return { child, url, email: email[1]!, password: email[2]!, key };
}


const LONG = [
  'Abdul Rahman Mohammed Al Hashimi Ibn Saeed Bin Khalid', 'Maria del Carmen Fernandez de la Cruz Gonzalez Y Lopez',
  'Vladimir Vladimirovich Aleksandrovich Konstantinov Petrov', 'Nguyen Thi Thanh Huong Tran Le Pham Hoang Vu Dang',
];

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-bench-load-'));
  const svc = await start(dir);
  let failed = false;
  try {
    // Ready: lists loaded and the screening worker up (a warm-up screen until it is fast).
    const screen = (i: number) => fetch(`${svc.url}/api/compliance/v1/screen`, {
      method: 'POST', headers: { 'X-API-Key': svc.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ subject: { type: 'individual', first_name: LONG[i % LONG.length], last_name: LONG[(i + 1) % LONG.length], date_of_birth: '1970-01-01' } }),
    });
    const login = await fetch(`${svc.url}/api/auth/login`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Origin: svc.url }, body: JSON.stringify({ email: svc.email, password: svc.password }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const consoleScreen = (i: number) => fetch(`${svc.url}/api/console/screen?env=test`, {
      method: 'POST', headers: { Cookie: cookie, Origin: svc.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ subject: { type: 'individual', first_name: LONG[i % LONG.length], last_name: LONG[(i + 2) % LONG.length] } }),
    });
    for (let i = 0; i < 100; i++) {
      const r = await screen(i);
      await r.arrayBuffer();
      if (r.status === 200) break;
      await sleep(200);
    }
    await sleep(3000); // the worker loads its index after the lists
    await waitForFaces(dir);

    process.stdout.write('\n== /api/health, idle\n');
    const idle = await healthDuring(svc.url, sleep(2000));
    line('p50 / p99 / max', `${q(idle, 0.5).toFixed(1)} / ${q(idle, 0.99).toFixed(1)} / ${idle.at(-1)!.toFixed(1)} ms (${idle.length} requests)`);

    process.stdout.write('\n== /api/health while 64 long-name screens run at once, 8 rounds\n');
    const screenMs: number[] = [];
    const statuses = new Map<number, number>();
    const load = (async () => {
      for (let round = 0; round < 8; round++) {
        await Promise.all(Array.from({ length: 64 }, async (_, i) => {
          const t = performance.now();
          const r = await consoleScreen(round * 64 + i);
          await r.arrayBuffer();
          screenMs.push(performance.now() - t);
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        }));
      }
    })();
    const busy = await healthDuring(svc.url, load);
    screenMs.sort((a, b) => a - b);
    line('health p50 / p99 / max', `${q(busy, 0.5).toFixed(1)} / ${q(busy, 0.99).toFixed(1)} / ${busy.at(-1)!.toFixed(1)} ms (${busy.length} requests)`);
    line('screens p50 / p99', `${q(screenMs, 0.5).toFixed(0)} / ${q(screenMs, 0.99).toFixed(0)} ms (${screenMs.length}, statuses ${JSON.stringify(Object.fromEntries(statuses))})`);
    if (q(busy, 0.99) > HEALTH_P99_MS) {
      failed = true;
      line('MISSED', `health p99 over ${HEALTH_P99_MS} ms under screening load`);
    }

    process.stdout.write('\n== a 5,000-row batch chunk\n');
    const ROWS = 5000;
    const created = await fetch(`${svc.url}/api/console/batches`, {
      method: 'POST', headers: { Cookie: cookie, Origin: svc.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ env: 'test', total_rows: ROWS, reason: 'periodic_rescreen' }),
    });
    const batch = (await created.json()) as { id: string };
    const rows = Array.from({ length: ROWS }, (_, i) => JSON.stringify({
      row: i + 1, subject: { type: 'individual', first_name: `Given${i % 97} ${LONG[i % 4]!.split(' ')[0]}`, last_name: `Family${i % 89}` },
      previous_result_summary: { risk_score: 0, risk_level: 'low', flags: [] },
    })).join('\n');
    const t0 = performance.now();
    let first = 0;
    let lines = 0;
    const run = (async () => {
      const res = await fetch(`${svc.url}/api/console/batches/${batch.id}/rows`, {
        method: 'POST', headers: { Cookie: cookie, Origin: svc.url, 'Content-Type': 'application/x-ndjson' }, body: rows,
      });
      const reader = res.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!first) first = performance.now() - t0;
        lines += new TextDecoder().decode(value).split('\n').filter(Boolean).length;
      }
    })();
    const during = await healthDuring(svc.url, run);
    const total = performance.now() - t0;
    line('first line', `${first.toFixed(0)} ms`);
    line('all lines', `${total.toFixed(0)} ms, ${lines} lines, ${Math.round((ROWS / total) * 1000)} rows/s`);
    line('health p50 / p99 / max meanwhile', `${q(during, 0.5).toFixed(1)} / ${q(during, 0.99).toFixed(1)} / ${during.at(-1)!.toFixed(1)} ms`);
    if (first > FIRST_LINE_MS) {
      failed = true;
      line('MISSED', `first batch line over ${FIRST_LINE_MS} ms`);
    }
    if (q(during, 0.99) > HEALTH_P99_MS) {
      failed = true;
      line('MISSED', `health p99 over ${HEALTH_P99_MS} ms during the batch`);
    }
  } finally {
    svc.child.kill('SIGTERM');
    await new Promise((r) => svc.child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

void main();
