// /api/health latency measured from another thread while a benchmark loads the service.
import { Worker } from 'node:worker_threads';

// The poller runs on its own thread: the load generator's 64 open requests must not delay the
// handling of a health answer on the client side and be counted as the service's latency.
const POLLER = `
const { parentPort, workerData } = require('node:worker_threads');
const out = [];
let done = false;
parentPort.on('message', () => { done = true; });
(async () => {
  while (!done) {
    const t = performance.now();
    const r = await fetch(workerData.url + '/api/health');
    await r.arrayBuffer();
    out.push(performance.now() - t);
    await new Promise((res) => setTimeout(res, workerData.everyMs));
  }
  parentPort.postMessage(out);
})();
`;

/** Polls /api/health every `everyMs` (2 ms: enough samples for a p99; from another thread) until `until` settles; the latencies, sorted. */
export async function healthDuring(url: string, until: Promise<unknown>, everyMs = 2): Promise<number[]> {
  const w = new Worker(POLLER, { eval: true, workerData: { url, everyMs } });
  const result = new Promise<number[]>((resolve) => w.once('message', resolve));
  await until;
  w.postMessage('stop');
  const out = await result;
  await w.terminate();
  return out.sort((a, b) => a - b);
}
