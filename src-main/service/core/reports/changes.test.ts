// The reports' cache told of other instances' changes (changes.ts), on an engine that records what
// it is asked to notify and hands the test its listener: a burst of changes here is one
// notification naming each organisation once; what is heard is forgotten, a reconnection forgets
// everything, a payload that is not organisation ids is ignored; on SQLite nothing is sent.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Engine } from '../../db/engine';
import { createReportChanges, NOTIFY_AFTER_MS } from './changes';

function fakeEngine(dialect: 'sqlite' | 'postgres') {
  const sent: string[] = [];
  let heard: ((payload: string | null) => void) | null = null;
  const engine = {
    dialect, q: {},
    notify: async (_q: unknown, channel: string, payload: string) => {
      sent.push(`${channel}:${payload}`);
    },
    listen: async (_channel: string, h: (payload: string | null) => void) => {
      heard = h;
      return async () => {
        heard = null;
      };
    },
  } as unknown as Engine;
  return { engine, sent, hear: (p: string | null) => heard?.(p) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('report changes', () => {
  it('forgets at once here and tells the others once for a burst, each organisation once', async () => {
    vi.useFakeTimers();
    const { engine, sent } = fakeEngine('postgres');
    const forgot: (number | null)[] = [];
    const changes = createReportChanges(engine, (o) => forgot.push(o));
    for (const org of [1, 1, 2, 1]) changes.recorded(org);
    expect(forgot).toEqual([1, 1, 2, 1]);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(NOTIFY_AFTER_MS);
    expect(sent).toEqual(['console_reports:1,2']);
    changes.recorded(3);
    await vi.advanceTimersByTimeAsync(NOTIFY_AFTER_MS);
    expect(sent).toEqual(['console_reports:1,2', 'console_reports:3']);
  });

  it('forgets what it hears; everything after a reconnection; nothing for a payload that is not ids; tells what is left when it stops', async () => {
    const { engine, sent, hear } = fakeEngine('postgres');
    const forgot: (number | null)[] = [];
    const changes = createReportChanges(engine, (o) => forgot.push(o));
    const stop = await changes.follow();
    hear('4,7');
    hear(null);
    hear('drop table;,1e400');
    expect(forgot).toEqual([4, 7, null]);
    changes.recorded(9);
    await stop();
    expect(sent).toEqual(['console_reports:9']);
  });

  it('on SQLite forgets here and sends nothing', async () => {
    vi.useFakeTimers();
    const { engine, sent } = fakeEngine('sqlite');
    const forgot: (number | null)[] = [];
    const changes = createReportChanges(engine, (o) => forgot.push(o));
    changes.recorded(5);
    await (await changes.follow())();
    await vi.advanceTimersByTimeAsync(NOTIFY_AFTER_MS * 2);
    expect([forgot, sent]).toEqual([[5], []]);
  });
});
