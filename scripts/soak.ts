// `npm run soak [-- --seconds S]`: the real built service under steady mixed traffic at the Pro
// plan's rate limits for a bounded time (default 5 minutes), while the organisation's own list is
// imported and replaced (the screening index swaps under load) and webhooks go to a flaky local
// receiver. Reports p50/p99 latency per route class, the service's RSS over time and the webhook
// outbox depth over time, and exits 1 when a target is missed:
//   errors   no 5xx and no failed connection, on any route
//   health   GET /api/health p99 <= 50 ms
//   memory   RSS does not keep climbing: after the warm-up (the first quarter: start-up, the batch
//            worker's index, the first list import), the last third's mean RSS stays within 1.3x of
//            the highest RSS of the first third. Each index swap leaves a whole index to a lazy
//            garbage collector, so RSS steps up and down; a bounded sawtooth stays under its
//            earlier peaks, while a leak (an index kept per swap) passes them by far.
//   outbox   the webhook deliveries waiting for a slot (due and not being sent) stay bounded: the
//            last third's mean is within 1.5x of the first third's, plus 25 deliveries of slack (a
//            few seconds of events). All pending deliveries are reported too; they include the
//            receiver's failures waiting out their backoff (10 s, 20 s, ...), which pile up over a
//            short run however fast the outbox is sent
// Rates are a fraction (--load, default 0.9) of each bucket's rate: compliance screens 10/3 per
// second per key, reads 100/s per key, health 5/s per address; console reads (sessions have no
// limit) at --console-rps.
import { spawnSync } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HEALTH_LIMIT, PLAN_INFO, verificationLimit } from '../src-shared/catalog';
import {
  login, mean, numberFlags, openReadOnly, quantile, rng, rssMiB, seedOrganisation, sleep, startService, stopService, subject,
  waitForFaces, waitForLists, type RunningService,
} from './support/service';

export interface SoakOptions {
  seconds: number;
  seed: number;
  /** Fraction of each rate limit to send at. */
  load: number;
  consoleRps: number;
  /** A live batch rescreen every this many seconds (0: none), of this many rows. */
  batchEvery: number;
  batchRows: number;
  sampleMs: number;
  /**
   * The organisation's own list is imported at 15 % of the run (inside the warm-up), then
   * replaced every this many seconds until 90 % (0: imported once, never replaced).
   */
  importEvery: number;
  /** The receiver's answers: 200 with probability ok, 500 with probability fail, else no answer until the service gives up. */
  webhookOk: number;
  webhookFail: number;
  log?: (line: string) => void;
}

export const SOAK_DEFAULTS: Omit<SoakOptions, 'seed' | 'log'> = {
  seconds: 300, load: 0.9, consoleRps: 5, batchEvery: 30, batchRows: 1000, sampleMs: 2000, importEvery: 40, webhookOk: 0.75, webhookFail: 0.15,
};

const CLASSES = ['screening', 'status', 'health', 'console', 'batch', 'list-import'] as const;
type RouteClass = (typeof CLASSES)[number];

export interface ClassStats {
  count: number;
  p50: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
  /** Requests not sent because this class already had too many in flight (the service fell behind). */
  skipped: number;
}

export interface Sample {
  t: number;
  rss_mib: number;
  /** Pending webhook deliveries, and those of them due and not being sent (waiting for a slot). */
  outbox: number;
  waiting: number;
}

export interface SoakResult {
  seed: number;
  seconds: number;
  classes: Record<RouteClass, ClassStats>;
  samples: Sample[];
  webhooks: { received: number; ok: number; failed: number; held: number; succeeded: number; failed_final: number };
  /** When the index swaps and the batches ran, and the slowest health checks: what stalled the service, and when. */
  events: { t: number; what: string }[];
  slowest_health: { t: number; ms: number }[];
  memory: { first_third_peak_mib: number; last_third_mib: number; ratio: number; peak_mib: number };
  outbox: {
    first_third: number; last_third: number; max: number; final: number;
    waiting_first_third: number; waiting_last_third: number; waiting_max: number;
  };
  missed: string[];
}

const MAX_IN_FLIGHT = 32;

export async function runSoak(opts: SoakOptions): Promise<SoakResult> {
  const log = opts.log ?? (() => {});
  const r = rng(opts.seed);
  // Whatever earlier work left to write back (a test suite's many temporary databases) is
  // written now, not during the run, where the service's own writes would wait behind it.
  if (process.platform === 'linux') spawnSync('sync');
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-soak-'));
  const latencies = Object.fromEntries(CLASSES.map((c) => [c, [] as number[]])) as Record<RouteClass, number[]>;
  const statuses = Object.fromEntries(CLASSES.map((c) => [c, {} as Record<string, number>])) as Record<RouteClass, Record<string, number>>;
  const skipped = Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<RouteClass, number>;
  const inFlight = Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<RouteClass, number>;
  const samples: Sample[] = [];
  const screened: { id: string; risk: { score: number; level: string } }[] = [];
  const webhooks = { received: 0, ok: 0, failed: 0, held: 0 };
  const events: { t: number; what: string }[] = [];
  const health: { t: number; ms: number }[] = [];
  let start = performance.now();
  const now = () => Math.round((performance.now() - start) / 100) / 10;

  // The flaky receiver: 200, 500, or no answer at all (the service's delivery timeout ends it).
  const held = new Set<ServerResponse>();
  const receiver = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    webhooks.received++;
    const x = r();
    if (x < opts.webhookOk) {
      webhooks.ok++;
      res.end('ok');
    } else if (x < opts.webhookOk + opts.webhookFail) {
      webhooks.failed++;
      res.statusCode = 500;
      res.end('flaky');
    } else {
      webhooks.held++;
      held.add(res);
      res.on('close', () => held.delete(res));
    }
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  let svc: RunningService | undefined;
  try {
    const seeded = await seedOrganisation(dataDir, { plan: 'pro', credits: 100_000_000 });
    svc = await startService(dataDir);
    const s = svc;
    const cookie = await login(s.url, seeded.email, seeded.password);
    await waitForLists(s.url, cookie);
    await waitForFaces(dataDir);
    // The flaky receiver runs on this computer: the owner names its host first (issue 39).
    const allow = await fetch(`${s.url}/api/webhooks/private-hosts`, {
      method: 'PUT', headers: { Cookie: cookie, 'Content-Type': 'application/json' }, body: JSON.stringify({ hosts: ['127.0.0.1'] }),
    });
    if (allow.status !== 200) throw new Error(`private host refused: ${allow.status} ${await allow.text()}`);
    const hook = await fetch(`${s.url}/api/webhooks`, {
      method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: receiverUrl, env: 'live', events: ['compliance.screening.completed', 'compliance.rescreen.completed', 'compliance.rescreen.risk_changed'] }),
    });
    if (hook.status !== 201) throw new Error(`webhook endpoint refused: ${hook.status} ${await hook.text()}`);
    const hookId = ((await hook.json()) as { endpoint: { id: string } }).endpoint.id;
    const db = openReadOnly(dataDir);
    const pending = db.prepare("SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'pending'").pluck();
    const waiting = db.prepare(`SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= @now
      AND (lease_until IS NULL OR lease_until < @now)`).pluck();
    const outboxDepth = () => pending.get() as number;
    const outboxWaiting = () => waiting.get({ now: new Date().toISOString() }) as number;
    log(`soak: seed ${opts.seed}, ${opts.seconds} s, pid ${s.pid}, ${s.url}, receiver ${receiverUrl}`);

    /** Times one request of a class; the body is read in full (a streamed answer counts to its end). */
    const timed = async (cls: RouteClass, path: string, init: RequestInit = {}): Promise<Response | null> => {
      const started = performance.now();
      const t = now();
      inFlight[cls]++;
      try {
        const res = await fetch(`${s.url}${path}`, init);
        const body = await res.arrayBuffer();
        const ms = performance.now() - started;
        latencies[cls].push(ms);
        if (cls === 'health') health.push({ t, ms: Math.round(ms) });
        statuses[cls][res.status] = (statuses[cls][res.status] ?? 0) + 1;
        return new Response(res.status === 204 ? null : body, { status: res.status, headers: res.headers });
      } catch {
        statuses[cls]['failed'] = (statuses[cls]['failed'] ?? 0) + 1;
        return null;
      } finally {
        inFlight[cls]--;
      }
    };
    const fire = (cls: RouteClass, run: () => Promise<unknown>) => {
      if (inFlight[cls] >= MAX_IN_FLIGHT) skipped[cls]++;
      else void run();
    };
    const key = { 'X-API-Key': seeded.apiKey };
    const session = { Cookie: cookie };

    const screenOnce = async () => {
      const prev = screened.length > 0 && r() < 0.35 ? screened[Math.floor(r() * screened.length)] : undefined;
      const body = prev
        ? { subject: subject(r), previous_screening_id: prev.id, previous_result_summary: { risk_score: prev.risk.score, risk_level: prev.risk.level, flags: [] } }
        : { subject: subject(r) };
      const res = await timed('screening', prev ? '/api/compliance/v1/rescreen' : '/api/compliance/v1/screen', {
        method: 'POST', body: JSON.stringify(body), headers: { ...key, 'Content-Type': 'application/json' },
      });
      if (res?.status === 200) {
        const out = (await res.json()) as { id: string; risk: { score: number; level: string } };
        screened.push({ id: out.id, risk: out.risk });
        if (screened.length > 500) screened.shift();
      }
    };
    const statusOnce = () => {
      const id = screened.length > 0 && r() < 0.9 ? screened[Math.floor(r() * screened.length)]!.id : `scr_unknown${Math.floor(r() * 1e6)}`;
      return timed('status', `/api/status/${id}`, { headers: key });
    };
    const CONSOLE = [
      '/api/account', '/api/credits/ledger?page=1&per_page=50', '/api/screening/lists', '/api/webhooks', '/api/keys', '/api/audit',
      `/api/webhooks/${hookId}/deliveries`, '/api/auth/me', '/api/settings',
    ];
    const consoleOnce = () => timed('console', CONSOLE[Math.floor(r() * CONSOLE.length)]!, { headers: session });

    const batchOnce = async () => {
      events.push({ t: now(), what: `batch of ${opts.batchRows} rows starts` });
      const preview = await timed('console', `/api/console/batches/preview?env=live&rows=${opts.batchRows}`, { headers: session });
      const credits = preview?.status === 200 ? ((await preview.json()) as { total_credits: number }).total_credits : 0;
      const created = await timed('batch', '/api/console/batches', {
        method: 'POST', headers: { ...session, 'Content-Type': 'application/json' },
        body: JSON.stringify({ env: 'live', total_rows: opts.batchRows, confirm_credits: credits }),
      });
      if (created?.status !== 201) return;
      const id = ((await created.json()) as { id: string }).id;
      for (let row = 1; row <= opts.batchRows; row += 500) {
        const n = Math.min(500, opts.batchRows - row + 1);
        const body = Array.from({ length: n }, (_, k) => JSON.stringify({ row: row + k, subject: subject(r) })).join('\n');
        await timed('batch', `/api/console/batches/${id}/rows`, { method: 'POST', body, headers: { ...session, 'Content-Type': 'application/x-ndjson' } });
      }
      await timed('batch', `/api/console/batches/${id}/finish`, { method: 'POST', headers: session });
      events.push({ t: now(), what: 'batch finished' });
    };

    let imports = 0;
    let imported = 0;
    const importOnce = async () => {
      imports++;
      events.push({ t: now(), what: `user list ${imports === 1 ? 'imported' : 'replaced'} (2,000 rows)` });
      const res = await timed('list-import', `/api/screening/lists/user?name=${encodeURIComponent('Soak watchlist')}`, {
        method: 'POST', body: userListCsv(imports, 2000), headers: { ...session, 'Content-Type': 'text/csv' },
      });
      events.push({ t: now(), what: `import answered ${res?.status ?? 'nothing'}` });
      imported++;
    };

    const f = opts.load;
    const pro = PLAN_INFO.pro;
    const rates: [RouteClass, number, () => Promise<unknown>][] = [
      ['screening', f * verificationLimit('pro', 'compliance').rps, screenOnce],
      ['status', f * pro.read.rps, statusOnce],
      ['health', f * HEALTH_LIMIT.rps, () => timed('health', '/api/health')],
      ['console', opts.consoleRps, consoleOnce],
    ];
    // The list import lands before the warm-up ends, and is replaced twice under load.
    const importsAt = [0.15 * opts.seconds * 1000];
    while (opts.importEvery > 0 && importsAt.at(-1)! + opts.importEvery * 1000 <= 0.9 * opts.seconds * 1000) importsAt.push(importsAt.at(-1)! + opts.importEvery * 1000);
    const sent = rates.map(() => 0);
    start = performance.now();
    // The first batch starts the batch worker with its own index: inside the warm-up, and after
    // the first import answered, so the worker's first index is the one the steady state uses.
    let nextBatch = opts.batchEvery > 0 ? 0.2 * opts.seconds * 1000 : Infinity;
    const ticker = setInterval(() => {
      const elapsed = performance.now() - start;
      rates.forEach(([cls, rps, run], i) => {
        for (; sent[i]! < Math.floor((elapsed / 1000) * rps); sent[i]!++) fire(cls, run);
      });
      if (importsAt.length > 0 && elapsed >= importsAt[0]!) {
        importsAt.shift();
        fire('list-import', importOnce);
      }
      if (elapsed >= nextBatch && imported > 0) {
        nextBatch += opts.batchEvery * 1000;
        if (inFlight.batch === 0) fire('batch', batchOnce);
      }
    }, 5);
    const sampler = setInterval(() => {
      samples.push({ t: Math.round(now()), rss_mib: Math.round(rssMiB(s.pid) ?? 0), outbox: outboxDepth(), waiting: outboxWaiting() });
    }, opts.sampleMs);
    const progress = setInterval(() => {
      const last = samples.at(-1);
      if (last) log(`  t=${last.t}s rss=${last.rss_mib} MiB outbox=${last.outbox} waiting=${last.waiting} health p99 so far=${quantile([...latencies.health].sort((a, b) => a - b), 0.99).toFixed(1)} ms`);
    }, 30_000);

    await sleep(opts.seconds * 1000);
    clearInterval(ticker);
    clearInterval(progress);
    for (let waited = 0; CLASSES.some((c) => inFlight[c] > 0) && waited < 30_000; waited += 100) await sleep(100);
    clearInterval(sampler);
    const deliveries = db.prepare('SELECT state, COUNT(*) AS n FROM webhook_deliveries GROUP BY state').all() as { state: string; n: number }[];
    const final = outboxDepth();
    db.close();
    const died = s.proc.exitCode !== null || s.proc.signalCode !== null;
    await stopService(s);

    const result = analyse(deliveries, final);
    if (died) result.missed.unshift(`errors: the service exited during the run:\n${s.output().slice(-2000)}`);
    return result;
  } finally {
    if (svc) await stopService(svc);
    for (const res of held) res.destroy();
    receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  function analyse(deliveries: { state: string; n: number }[], final: number): SoakResult {
    const classes = Object.fromEntries(CLASSES.map((c) => {
      const sorted = [...latencies[c]].sort((a, b) => a - b);
      const round = (x: number) => Math.round(x * 10) / 10;
      return [c, { count: sorted.length, p50: round(quantile(sorted, 0.5)), p99: round(quantile(sorted, 0.99)), max: round(sorted.at(-1) ?? 0), statuses: statuses[c], skipped: skipped[c] }];
    })) as Record<RouteClass, ClassStats>;
    // Thirds of what follows the warm-up (the first quarter of the run).
    const steady = samples.filter((x) => x.t >= opts.seconds / 4);
    const third = Math.max(1, Math.floor(steady.length / 3));
    const first = steady.slice(0, third);
    const last = steady.slice(-third);
    const memory = {
      first_third_peak_mib: Math.max(0, ...first.map((x) => x.rss_mib)), last_third_mib: Math.round(mean(last.map((x) => x.rss_mib))), ratio: 0,
      peak_mib: Math.max(0, ...samples.map((x) => x.rss_mib)),
    };
    memory.ratio = Math.round((100 * memory.last_third_mib) / Math.max(1, memory.first_third_peak_mib)) / 100;
    const outbox = {
      first_third: Math.round(mean(first.map((x) => x.outbox))), last_third: Math.round(mean(last.map((x) => x.outbox))),
      max: Math.max(0, ...samples.map((x) => x.outbox)), final,
      waiting_first_third: Math.round(mean(first.map((x) => x.waiting))), waiting_last_third: Math.round(mean(last.map((x) => x.waiting))),
      waiting_max: Math.max(0, ...samples.map((x) => x.waiting)),
    };
    const count = (state: string) => deliveries.find((d) => d.state === state)?.n ?? 0;

    const missed: string[] = [];
    for (const c of CLASSES) {
      const bad = Object.entries(classes[c].statuses).filter(([k]) => k === 'failed' || Number(k) >= 500);
      for (const [k, n] of bad) missed.push(`errors: ${n} ${k === 'failed' ? 'failed connections' : `answers of ${k}`} on ${c}`);
    }
    if (classes.health.count === 0) missed.push('health: no health check answered');
    if (classes.health.p99 > 50) missed.push(`health: /api/health p99 ${classes.health.p99} ms > 50 ms`);
    if (steady.length < 3) missed.push('memory: too few samples after the warm-up to judge');
    else if (memory.ratio > 1.3) missed.push(`memory: RSS peaked at ${memory.first_third_peak_mib} MiB in the first third, averaged ${memory.last_third_mib} MiB in the last (${memory.ratio}x > 1.3x)`);
    if (outbox.waiting_last_third > outboxLimit(outbox.waiting_first_third)) {
      missed.push(`outbox: deliveries waiting for a slot grew from ${outbox.waiting_first_third} to ${outbox.waiting_last_third} (mean of first vs last third; all pending ${outbox.first_third} to ${outbox.last_third})`);
    }
    return {
      seed: opts.seed, seconds: opts.seconds, classes, samples, events,
      slowest_health: [...health].sort((a, b) => b.ms - a.ms).slice(0, 5),
      webhooks: { ...webhooks, succeeded: count('succeeded'), failed_final: count('failed') },
      memory, outbox, missed,
    };
  }
}

/** The outbox target: the last third's mean deliveries waiting for a slot within 1.5x the first's, plus 25 (a few seconds of events). */
export const outboxLimit = (firstThird: number): number => 1.5 * firstThird + 25;

/** The organisation's own list, version n: 2,000 made-up people; each version names other people. */
function userListCsv(version: number, rows: number): string {
  const r = rng(version * 7919);
  const word = () => Array.from({ length: 4 + Math.floor(r() * 6) }, (_, i) => String.fromCharCode((i === 0 ? 65 : 97) + Math.floor(r() * 26))).join('');
  const lines = ['kind,name,aliases,dob,country'];
  for (let i = 0; i < rows; i++) {
    lines.push(`${r() < 0.5 ? 'pep' : 'wanted'},${word()} ${word()} V${version}N${i},${word()} ${word()},${1940 + Math.floor(r() * 60)},GB`);
  }
  return lines.join('\n') + '\n';
}

async function main(): Promise<void> {
  const o = numberFlags(process.argv.slice(2), {
    seconds: SOAK_DEFAULTS.seconds, seed: Math.floor(Math.random() * 2 ** 31), load: SOAK_DEFAULTS.load,
    'console-rps': SOAK_DEFAULTS.consoleRps, 'batch-every': SOAK_DEFAULTS.batchEvery, 'batch-rows': SOAK_DEFAULTS.batchRows,
    'import-every': SOAK_DEFAULTS.importEvery, 'webhook-ok': SOAK_DEFAULTS.webhookOk, 'webhook-fail': SOAK_DEFAULTS.webhookFail,
  });
  const result = await runSoak({
    ...SOAK_DEFAULTS, seconds: o.seconds, seed: o.seed, load: o.load, consoleRps: o['console-rps'], batchEvery: o['batch-every'],
    batchRows: o['batch-rows'], importEvery: o['import-every'], webhookOk: o['webhook-ok'], webhookFail: o['webhook-fail'], log: (line) => console.log(line),
  });
  console.log('\nlatency per route class (ms):');
  console.table(Object.fromEntries(Object.entries(result.classes).map(([c, s]) => [c, {
    requests: s.count, p50: s.p50, p99: s.p99, max: s.max, skipped: s.skipped,
    statuses: Object.entries(s.statuses).map(([k, n]) => `${k}:${n}`).join(' '),
  }])));
  const every = Math.max(1, Math.floor(result.samples.length / 15));
  console.log('RSS and outbox (pending / waiting for a slot) over time:');
  console.log(result.samples.filter((_, i) => i % every === 0 || i === result.samples.length - 1)
    .map((x) => `  t=${String(x.t).padStart(4)}s  rss=${String(x.rss_mib).padStart(4)} MiB  outbox=${x.outbox} / ${x.waiting}`).join('\n'));
  console.log(`events: ${result.events.map((e) => `${e.t}s ${e.what}`).join('; ')}`);
  console.log(`slowest health checks: ${result.slowest_health.map((h) => `${h.ms} ms at ${h.t}s`).join(', ')}`);
  console.log(`memory: ${JSON.stringify(result.memory)}`);
  console.log(`outbox: ${JSON.stringify(result.outbox)}`);
  console.log(`webhooks: ${JSON.stringify(result.webhooks)}`);
  if (result.missed.length > 0) {
    console.error(`\nsoak: ${result.missed.length} target(s) missed (seed ${result.seed}):\n${result.missed.map((m) => `  ${m}`).join('\n')}`);
    process.exitCode = 1;
  } else {
    console.log(`\nsoak: ${result.seconds} s, every target met (seed ${result.seed})`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e: unknown) => {
    console.error(`soak: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    process.exitCode = 2;
  });
}
