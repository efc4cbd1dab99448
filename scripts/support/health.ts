// /api/health latency measured from another thread while a benchmark loads the service.
import { Worker } from 'node:worker_threads';

// The poller runs on its own thread: the load generator's 64 open requests must not delay the
// handling of a health answer on the client side and be counted as the service's latency.
const POLLER = `
const { parentPort, workerData } = require('node:worker_threads');
// Above the load's priority where allowed (root on Linux): on 2 cores the load generator's own
// threads would otherwise delay the poller, and the delay would be counted as the service's.
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(tid, -10);
} catch {}
const out = [];
let done = false;
parentPort.on('message', () => { done = true; });
(async () => {
  // Unmeasured: the first fetch in a new thread loads the HTTP client and opens the connection.
  for (let i = 0; i < 3; i++) await (await fetch(workerData.url + '/api/health')).arrayBuffer();
  parentPort.postMessage('ready');
  while (!done) {
    const t = performance.now();
    const r = await fetch(workerData.url + '/api/health');
    await r.arrayBuffer();
    out.push(performance.now() - t);
    await new Promise((res) => setTimeout(res, workerData.everyMs));
  }
  parentPort.postMessage({ out });
})();
`;

/**
 * Polls /api/health every `everyMs` (2 ms: enough samples for a p99; from another thread) until
 * `until` settles; the latencies, sorted. Given a function, the load is started only once the
 * poller is warm, so every sample falls inside it.
 */
export async function healthDuring(url: string, until: Promise<unknown> | (() => Promise<unknown>), everyMs = 2): Promise<number[]> {
  const w = new Worker(POLLER, { eval: true, workerData: { url, everyMs } });
  const ready = new Promise<void>((resolve) => w.once('message', () => resolve()));
  const result = new Promise<number[]>((resolve) => w.on('message', (m: unknown) => typeof m === 'object' && m !== null && resolve((m as { out: number[] }).out)));
  await ready;
  await (typeof until === 'function' ? until() : until);
  w.postMessage('stop');
  const out = await result;
  await w.terminate();
  return out.sort((a, b) => a - b);
}
