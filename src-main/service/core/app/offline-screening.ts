// The CLI's offline screening commands: streaming, line in → line out, for benchmarks and outside checks.
//   screening score-pairs   CSV `schema,name1,name2` (header) on stdin → one score (0..1) per row
//   screening screen        NDJSON screen request bodies on stdin → one response body per line
// Same name comparison, engine, lists and risk mapping as the API; test environment, no credits,
// no rate limit, and nothing is written to the data directory.
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import Papa from 'papaparse';
import { ScreenRequest } from '../../../../src-shared/contracts/screening';
import { errorResponse } from '../../../../src-shared/errors';
import { scoreNamePair } from '../screening/match/compare';
import { newId } from '../ids';
import { createScreening, runScreening } from '../screening/service';
import { firstIssueMessage } from '../../../../src-shared/validation';

function write(out: Writable, line: string): Promise<void> {
  return new Promise((resolve) => {
    if (out.write(line + '\n')) resolve();
    else out.once('drain', () => resolve());
  });
}

export async function scorePairs(input: Readable, out: Writable): Promise<number> {
  let rows = 0;
  let header: string[] | null = null;
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const cells = Papa.parse<string[]>(line).data[0] ?? [];
    if (!header) {
      header = cells.map((c) => c.trim().toLowerCase());
      continue;
    }
    const at = (name: string) => cells[header!.indexOf(name)] ?? '';
    await write(out, scoreNamePair(at('schema') || 'Person', at('name1'), at('name2')).toFixed(4));
    rows++;
  }
  return rows;
}

export async function screenStream(input: Readable, out: Writable, resourcesDir: string, dataDir?: string): Promise<number> {
  const screening = createScreening(resourcesDir, dataDir);
  const loaded = await screening.ready(120_000);
  if (!loaded) throw new Error('The watchlists could not be loaded');
  let rows = 0;
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    rows++;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      await write(out, JSON.stringify(errorResponse('invalid_subject', { message: 'Line is not valid JSON' }).body));
      continue;
    }
    const parsed = ScreenRequest.safeParse(data);
    if (!parsed.success) {
      await write(out, JSON.stringify(errorResponse('invalid_subject', { message: firstIssueMessage(parsed.error) }).body));
      continue;
    }
    const b = parsed.data;
    const response = runScreening(loaded, {
      id: newId('scr'), created: Date.now(), livemode: false, subject: b.subject, lists: b.screening?.lists,
      clientReferenceId: b.client_reference_id, metadata: b.metadata,
    });
    await write(out, JSON.stringify(response));
  }
  return rows;
}
