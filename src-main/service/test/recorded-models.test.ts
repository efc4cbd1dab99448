// The replay of recorded model outputs: a recorded answer comes back without the model running,
// anything not recorded (other pixels, other options) runs the model, and `live` runs it always.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DocumentReader } from '../core/documents/pool';
import type { FacePool } from '../core/faces/pool';
import { recordedModels, staleRecordings } from './recorded-models';

function fakeModels() {
  const calls = { faces: 0, documents: 0 };
  const faces = {
    analyze: async (job: { width: number }) => {
      calls.faces++;
      return { faces: [{ score: job.width / 100, descriptor: new Float32Array([1, 2, 3]) }] };
    },
  } as unknown as FacePool;
  const documents = {
    read: async () => {
      calls.documents++;
      return { ms: 5, text: 'P<UTOERIKSSON<<ANNA' };
    },
  } as unknown as DocumentReader;
  return { calls, faces, documents };
}

const px = (v: number) => ({ rgb: new Uint8Array([v, v, v]), width: 1, height: 1 });

describe('recorded model outputs', () => {
  it('replays what was recorded, typed arrays included, and runs the model for anything else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-recorded-'));
    const first = fakeModels();
    const rec = recordedModels('x', { dir, record: true });
    const recorded = await rec.faces(first.faces).analyze(px(7));
    await rec.documents(first.documents).read(px(7));
    expect(first.calls).toEqual({ faces: 1, documents: 1 });

    const again = fakeModels();
    const play = recordedModels('x', { dir, record: false });
    const faces = play.faces(again.faces);
    const replayed = await faces.analyze(px(7));
    expect(replayed).toEqual(recorded);
    expect((replayed as unknown as { faces: { descriptor: unknown }[] }).faces[0]!.descriptor).toBeInstanceOf(Float32Array);
    expect(await play.documents(again.documents).read(px(7))).toEqual({ ms: 5, text: 'P<UTOERIKSSON<<ANNA' });
    expect(again.calls).toEqual({ faces: 0, documents: 0 });

    await faces.analyze(px(8));
    await faces.analyze({ ...px(7), describe: false });
    expect(again.calls.faces).toBe(2);
    play.live = true;
    await faces.analyze(px(7));
    expect(again.calls.faces).toBe(3);
    expect(play.counts()).toEqual({ replayed: 2, ran: 3 });
  });

  it('the committed recordings were made by this release of the model code and packages', () => {
    // Stale ones would make their route tests run the real models (minutes of CPU), not fail them.
    expect(staleRecordings(), 'refresh: RECORD_MODELS=1 npx vitest run --project shared <each test file named by a recording>').toEqual([]);
  });
});
