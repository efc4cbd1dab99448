// The document reader's process management, with a stand-in reader process (the real one loads
// the text models: documents.test.ts): a reader that spins is killed by its CPU time, one that
// waits for a core is not, and one that never answers is replaced after the wall-time limit.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDocumentReader, type DocumentReader } from './pool';
import type { DocumentReading } from './reader';

// The job's width says what the stand-in does: 1 spins, 2 answers after 1.5 s of sleeping, 3 answers at once.
const STAND_IN = `
process.on('disconnect', () => process.exit(0));
process.on('message', (m) => {
  if (m.job.width === 1) for (;;) {}
  setTimeout(() => process.send({ seq: m.seq, answer: { ms: 1, width: m.job.width } }), m.job.width === 2 ? 1500 : 0);
});
process.send({ ready: true });
`;

function standIn(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'cc-reader-')), 'reader.mjs');
  writeFileSync(file, STAND_IN);
  return file;
}

const job = (width: number) => ({ rgb: new Uint8Array(3), width, height: 1 });
let reader: DocumentReader | undefined;
afterEach(async () => {
  await reader?.stop();
  reader = undefined;
});

describe('document reader deadlines', () => {
  it('kills a reader that spins past its CPU limit, fails only that request, and reads the next one in a new process', async () => {
    const logged: string[] = [];
    reader = createDocumentReader({ entry: standIn(), jobTimeoutMs: 400, jobWallLimitMs: 60_000, log: (m, f) => logged.push(`${m} ${JSON.stringify(f ?? {})}`) });
    await expect(reader.read(job(1))).rejects.toMatchObject({ code: 'document_reader_failed' });
    expect(logged.join('\n')).toMatch(/document_reader_hung \{"by":"cpu"/);
    await expect(reader.read(job(3))).resolves.toMatchObject({ width: 3 } as unknown as DocumentReading);
    expect(reader.stats().restarts).toBe(1);
  });

  it('lets a reader that is waiting, not working, answer past the CPU limit', async () => {
    reader = createDocumentReader({ entry: standIn(), jobTimeoutMs: 300, jobWallLimitMs: 60_000 });
    await expect(reader.read(job(2))).resolves.toMatchObject({ width: 2 } as unknown as DocumentReading);
    expect(reader.stats().restarts).toBe(0);
  });

  it('replaces a reader that has not answered within the wall-time limit, whatever CPU it used', async () => {
    const logged: string[] = [];
    reader = createDocumentReader({ entry: standIn(), jobTimeoutMs: 30_000, jobWallLimitMs: 600, log: (m, f) => logged.push(`${m} ${JSON.stringify(f ?? {})}`) });
    await expect(reader.read(job(2))).rejects.toMatchObject({ code: 'document_reader_failed' });
    expect(logged.join('\n')).toMatch(/document_reader_hung \{"by":"wall"/);
  });
});
