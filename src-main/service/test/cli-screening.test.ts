// The streaming screening CLI, as benchmarks and outside checks use it.
import { describe, expect, it } from 'vitest';
import { scoreNamePair } from '../core/screening/match/compare';
import { cliSync } from './cli-command';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { screenStream } from '../core/app/offline-screening';
import { defaultResourcesDir } from '../paths';

function cli(input: string, ...args: string[]) {
  return cliSync(args, { input });
}

describe('screening score-pairs', () => {
  it('scores each CSV row with the engine comparison, one line per row', () => {
    const pairs = [['Person', 'Vladimir Putin', 'PUTIN, Vladimir Vladimirovich'], ['Company', 'EMMA LLC', 'ACME LLC'], ['Person', 'Osama bin Laden', 'Usama bin Ladin']] as const;
    const r = cli('schema,name1,name2\nPerson,Vladimir Putin,"PUTIN, Vladimir Vladimirovich"\nCompany,EMMA LLC,ACME LLC\nPerson,Osama bin Laden,Usama bin Ladin\n', 'screening', 'score-pairs');
    expect(r.status, r.stderr).toBe(0);
    const scores = r.stdout.trim().split('\n').map(Number);
    // Exactly the engine's comparison of each row, in row order.
    expect(scores).toEqual(pairs.map(([schema, a, b]) => scoreNamePair(schema, a, b)));
    expect(scores[0]).toBeGreaterThan(0.85);
    expect(scores[1]).toBeLessThan(0.3);
    expect(scores[2]).toBeGreaterThan(0.7);
  });
});

describe('screening screen', () => {
  it('streams one response per NDJSON line, with errors in the screening shape', () => {
    const lines = [
      JSON.stringify({ client_reference_id: 'a', subject: { type: 'individual', first_name: 'Vladimir', last_name: 'Putin', date_of_birth: '1952-10-07' } }),
      JSON.stringify({ subject: { type: 'individual', first_name: 'Ingeborg', last_name: 'Abrahamsen' } }),
      '{not json',
      JSON.stringify({ subject: { type: 'company', first_name: 'X', last_name: 'Y' } }),
    ];
    const r = cli(lines.join('\n') + '\n', 'screening', 'screen', '--data-dir', '/nonexistent-not-used');
    expect(r.status, r.stderr).toBe(0);
    const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { error: { message: string } } & Record<string, unknown>);
    expect(out).toHaveLength(4);
    expect(out[0]).toMatchObject({ object: 'compliance.screening', livemode: false, client_reference_id: 'a', risk: { level: 'high' } });
    expect(out[1]).toMatchObject({ risk: { score: 0, decision: 'clear' }, matches: [] });
    expect(out[2]).toEqual({ error: { type: 'invalid_request', code: 'invalid_subject', message: 'Line is not valid JSON' } });
    expect(out[3]!.error.message).toContain('subject.type');
  }, 120_000);

  it('answers lines however the input is cut: across chunks, inside a character, CRLF, no final newline', async () => {
    const lines = [
      JSON.stringify({ client_reference_id: 'r1', subject: { type: 'individual', first_name: 'أسامة', last_name: 'بن لادن' } }),
      JSON.stringify({ client_reference_id: 'r2', subject: { type: 'individual', first_name: 'Ingeborg', last_name: 'Abrahamsen' } }),
      JSON.stringify({ client_reference_id: 'r3', subject: { type: 'individual', first_name: 'Vladimir', last_name: 'Putin', date_of_birth: '1952-10-07' } }),
    ];
    const bytes = Buffer.from(`${lines[0]}\r\n\n${lines[1]}\n${lines[2]}`, 'utf8');
    // Cut every 3 bytes: lines and the Arabic letters' two-byte sequences fall across chunks.
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 3) chunks.push(bytes.subarray(i, i + 3));
    let text = '';
    const sink = new Writable({ write(chunk: Buffer, _enc, done) { text += chunk.toString('utf8'); done(); } });
    const rows = await screenStream(Readable.from(chunks), sink, defaultResourcesDir(), mkdtempSync(path.join(tmpdir(), 'cli-stream-')));
    expect(rows).toBe(3);
    const out = text.trim().split('\n').map((l) => JSON.parse(l) as { client_reference_id: string; matches: { name: string; explanation: { alignment: { query: string | null }[] } }[]; risk: { level: string } });
    expect(out.map((o) => o.client_reference_id)).toEqual(['r1', 'r2', 'r3']);
    expect(out[0]!.matches[0]?.name).toMatch(/lad[ei]n/i);
    // The name as sent, letter for letter (a character cut by a chunk is not garbled).
    expect(out[0]!.matches[0]?.explanation.alignment.map((a) => a.query)).toEqual(['أسامة', 'بن', 'لادن']);
    expect(out[2]!.risk.level).toBe('high');
  }, 120_000);
});
