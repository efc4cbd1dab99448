// collectGarbage through its interface: on this (main) thread it collects only when asked `here`.
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from './collect';

/** A WeakRef to an object nothing else holds, once the job that made it has ended (WeakRefs hold their target until then). */
async function unheld(): Promise<WeakRef<object>> {
  const ref = new WeakRef({ bytes: new Uint8Array(1 << 20) });
  await tick();
  return ref;
}

describe('collectGarbage on a main thread', () => {
  it('does nothing by default (the HTTP loop, and the worker program when it runs in this thread)', async () => {
    const ref = await unheld();
    collectGarbage();
    expect(ref.deref()).toBeDefined();
  });

  it('collects when asked to collect here', async () => {
    const ref = await unheld();
    collectGarbage('here');
    expect(ref.deref()).toBeUndefined();
  });
});
