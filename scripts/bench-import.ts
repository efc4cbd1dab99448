// `npm run bench:import` (issue 38, item 2): an official list import through the running service,
// as an owner makes it in the console, bounded in time and memory. Prints figures; asserts nothing.
// Target: a 30 MB official file in <= 15 s and <= 200 MB (the service's resident memory above what
// it held before the upload).
//   large   the shipped UN consolidated XML made 30 MB by repeating its records under new ids
//           (public list data, made in memory and sent as the console sends it): the answer, then
//           screening on the new edition
//   held    a file of one record sent as the UN list: held (202) without touching the edition in use
// It starts the service as `npm run serve` does (building first when a source changed), on a
// temporary data directory, with the face and document models left unloaded.
//   npm run bench:import [-- --mb 30]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { login, ROOT, rssMiB, seedOrganisation, sleep, startService, stopService, waitForLists } from './support/service';

const args = process.argv.slice(2);
const MB = Number(args[args.indexOf('--mb') + 1] || 30) || 30;
const line = (label: string, value: string) => process.stdout.write(`  ${label.padEnd(52)} ${value}\n`);

/** The UN list's records repeated under new ids (DATAID, REFERENCE_NUMBER) until the file is `mb` MB. */
function largeUnList(mb: number): { xml: Buffer; records: number } {
  const src = readFileSync(join(ROOT, 'resources', 'watchlists', 'un_sc', '2026-02-27', 'consolidated.xml'), 'utf8');
  const individuals = src.match(/<INDIVIDUAL>[\s\S]*?<\/INDIVIDUAL>/g) ?? [];
  const entities = src.match(/<ENTITY>[\s\S]*?<\/ENTITY>/g) ?? [];
  const per = individuals.join('').length + entities.join('').length;
  const copies = Math.max(1, Math.round((mb * 1e6) / per));
  const copy = (block: string, k: number) => (k === 0 ? block : block
    .replace(/<DATAID>(\d+)<\/DATAID>/, (_m, id: string) => `<DATAID>${Number(id) + k * 100_000_000}</DATAID>`)
    .replace(/<REFERENCE_NUMBER>([^<]*)<\/REFERENCE_NUMBER>/, (_m, ref: string) => `<REFERENCE_NUMBER>${ref}-${k}</REFERENCE_NUMBER>`));
  const ind: string[] = [];
  const ent: string[] = [];
  for (let k = 0; k < copies; k++) {
    for (const b of individuals) ind.push(copy(b, k));
    for (const b of entities) ent.push(copy(b, k));
  }
  const head = src.slice(0, src.indexOf('<INDIVIDUALS>'));
  const xml = `${head}<INDIVIDUALS>\n${ind.join('\n')}\n</INDIVIDUALS>\n<ENTITIES>\n${ent.join('\n')}\n</ENTITIES>\n</CONSOLIDATED_LIST>\n`;
  return { xml: Buffer.from(xml), records: ind.length + ent.length };
}

const dir = mkdtempSync(join(tmpdir(), 'cc-bench-import-'));
const owner = await seedOrganisation(dir, { plan: 'pro', credits: 1 });
const service = await startService(dir, 120_000, ['--lazy-models']);
try {
  const url = service.url;
  const cookie = await login(url, owner.email, owner.password);
  await waitForLists(url, cookie);
  const upload = (body: Buffer) => fetch(`${url}/api/screening/lists/official?source=un_sc&filename=consolidated.xml`, {
    method: 'POST', body: new Uint8Array(body), headers: { Cookie: cookie, 'Content-Type': 'application/octet-stream', Origin: url },
  });
  const screenListed = () => fetch(`${url}/api/console/screen?env=test`, {
    method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/json', Origin: url },
    body: JSON.stringify({ subject: { type: 'individual', first_name: 'Eric', last_name: 'Badege' } }),
  });
  const rss = () => rssMiB(service.pid) ?? 0;

  const { xml, records } = largeUnList(MB);
  // Let start-up's garbage settle before the baseline.
  await sleep(3000);
  const before = rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rss())), 20);

  process.stdout.write(`\n== large: the UN list as a ${(xml.length / 1e6).toFixed(1)} MB file, ${records} records (target <= 15 s, <= 200 MB)\n`);
  const t0 = performance.now();
  const res = await upload(xml);
  const answer = (await res.json()) as { records?: number; held?: boolean; changes?: { added: number } };
  const answered = performance.now() - t0;
  // The answer comes once the new edition is indexed; a screen proves it is in use.
  const screened = await screenListed();
  const inUse = performance.now() - t0;
  clearInterval(sampler);
  line('answer', `${res.status} (${answer.records ?? '?'} records, held: ${answer.held}, added ${answer.changes?.added ?? '?'})`);
  line('time to the answer', `${(answered / 1000).toFixed(2)} s`);
  line('time to a screen on the new edition', `${(inUse / 1000).toFixed(2)} s (screen ${screened.status})`);
  line('service resident memory before / peak', `${before.toFixed(0)} MB / ${peak.toFixed(0)} MB`);
  line('memory the import took (peak above before)', `${(peak - before).toFixed(0)} MB`);

  // One record, as the 213-byte file had.
  const tiny = Buffer.from('<CONSOLIDATED_LIST dateGenerated="2026-03-01T00:00:00Z"><INDIVIDUALS><INDIVIDUAL><DATAID>1</DATAID><FIRST_NAME>ERIC</FIRST_NAME><SECOND_NAME>BADEGE</SECOND_NAME><REFERENCE_NUMBER>CDi.001</REFERENCE_NUMBER></INDIVIDUAL></INDIVIDUALS></CONSOLIDATED_LIST>\n');
  process.stdout.write(`\n== held: a ${tiny.length}-byte file of one record sent as the UN list\n`);
  const t1 = performance.now();
  const held = await upload(tiny);
  const heldBody = (await held.json()) as { held?: boolean; reason?: string };
  line('answer', `${held.status} held: ${heldBody.held} (${String(heldBody.reason ?? '').slice(0, 80)})`);
  line('time to the answer', `${((performance.now() - t1) / 1000).toFixed(2)} s`);
} finally {
  await stopService(service);
  rmSync(dir, { recursive: true, force: true });
}
