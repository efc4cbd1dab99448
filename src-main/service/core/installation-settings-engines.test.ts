// The installation's own settings on both engines: the public URL saved in Settings, and the
// network listeners' on/off. A public URL saved through one instance is used by the others once
// their copy is older than REFRESH_MS (links are made on every request, so each instance holds it
// in memory); the instance that saved it uses it at once.
import { describe, expect, it } from 'vitest';
import { ENGINES, testEngines } from '../test/engines';
import { ManualClock } from './clock';
import { createListenerSetting } from './onsite/setting-repo';
import { createPublicUrlSetting, REFRESH_MS } from './public-url-repo';

const engines = testEngines();

describe.each(ENGINES)('installation settings on $dialect', ({ dialect, skip }) => {
  const why = skip ? ` (skipped: ${skip})` : '';

  it.skipIf(skip)(`a public URL saved through one instance reaches another within ${REFRESH_MS} ms${why}`, async () => {
    const t = await engines.open(dialect);
    const clock = new ManualClock(Date.parse('2026-12-04T09:00:00.000Z'));
    const [ea, eb = ea] = engines.instances(t, 2, 2);
    const one = createPublicUrlSetting(ea!, clock);
    const other = createPublicUrlSetting(eb!, clock);
    expect(await other.load()).toBeNull();
    await ea!.transaction((tx) => one.set('https://verify.example.com', null, tx));
    one.committed('https://verify.example.com');
    expect(one.current()).toBe('https://verify.example.com');
    {
      expect(other.current()).toBeNull();
      clock.advance(REFRESH_MS);
      expect(other.current()).toBeNull(); // this answer is the held copy; the read it started lands next
      await expect.poll(() => other.current()).toBe('https://verify.example.com');
    }
    await ea!.transaction((tx) => one.set(null, null, tx));
    expect(await other.load()).toBeNull();
  });

  it.skipIf(skip)(`a listener's setting is kept as on at its bound port, and off with its address kept${why}`, async () => {
    const t = await engines.open(dialect);
    const clock = new ManualClock(Date.parse('2026-12-04T09:00:00.000Z'));
    const onsite = createListenerSetting(t.engine, clock, 'onsite_setting');
    const team = createListenerSetting(t.engine, clock, 'team_server_setting');
    expect(await onsite.get()).toBeNull();
    await onsite.started('192.168.1.20', 8443);
    await onsite.started('192.168.1.21', 8444);
    expect(await onsite.get()).toEqual({ running: true, host: '192.168.1.21', port: 8444 });
    expect(await team.get()).toBeNull();
    await onsite.stopped();
    expect(await onsite.get()).toEqual({ running: false, host: '192.168.1.21', port: 8444 });
  });
});
