// The CLI's offline screening commands: streaming, line in → line out, for benchmarks and outside checks.
//   screening score-pairs   CSV `schema,name1,name2` (header) on stdin → one score (0..1) per row
//   screening screen        NDJSON screen request bodies on stdin → one response body per line
// Same name comparison, engine, lists and risk mapping as the API; test environment, no credits,
// no rate limit, and nothing is written to the data directory.
import { createInterface } from 'node:readline';
import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import Papa from 'papaparse';
import { ScreenRequest } from '../../../../src-shared/contracts/screening';
import { errorResponse } from '../../../../src-shared/errors';
import { scoreNamePair } from '../screening/match/compare';
import { newId } from '../ids';
import { createScreening, runScreening, warmIndex } from '../screening/service';
import { firstIssueMessage } from '../../../../src-shared/validation';

function write(out: Writable, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (out.write(text)) resolve();
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
    await write(out, scoreNamePair(at('schema') || 'Person', at('name1'), at('name2')).toFixed(4) + '\n');
    rows++;
  }
  return rows;
}

export async function screenStream(input: Readable, out: Writable, resourcesDir: string, dataDir?: string): Promise<number> {
  const screening = createScreening(resourcesDir, dataDir);
  const loaded = await screening.ready(120_000);
  if (!loaded) throw new Error('The watchlists could not be loaded');
  // A batch tool: the whole index is worked out before the first line, not on first use.
  warmIndex(loaded);
  let rows = 0;
  const answer = (line: string): string => {
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      return JSON.stringify(errorResponse('invalid_subject', { message: 'Line is not valid JSON' }).body);
    }
    const parsed = ScreenRequest.safeParse(data);
    if (!parsed.success) return JSON.stringify(errorResponse('invalid_subject', { message: firstIssueMessage(parsed.error) }).body);
    const b = parsed.data;
    return JSON.stringify(runScreening(loaded, {
      id: newId('scr'), created: Date.now(), livemode: false, subject: b.subject, lists: b.screening?.lists,
      clientReferenceId: b.client_reference_id, metadata: b.metadata,
    }));
  };
  // Lines are answered as each chunk of input arrives, and a chunk's answers written at once
  // (one write per chunk, not per line); a reader that stops reading pauses the input.
  const decoder = new StringDecoder('utf8');
  let rest = '';
  const answerLines = (text: string): string => {
    let answers = '';
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      const line = text.slice(from, nl).replace(/\r$/, '');
      from = nl + 1;
      if (line.trim() === '') continue;
      rows++;
      answers += answer(line) + '\n';
    }
    rest = text.slice(from);
    return answers;
  };
  for await (const chunk of input) {
    const answers = answerLines(rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer)));
    if (answers !== '') await write(out, answers);
  }
  const last = answerLines(rest + decoder.end() + '\n');
  if (last !== '') await write(out, last);
  return rows;
}
