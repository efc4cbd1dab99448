// Webhook deliveries on both engines: with several instances on one PostgreSQL each delivery is
// leased and sent by one instance, an endpoint never has more than its slots in flight across
// them, and deliveries leased by an instance that died are sent by another once the lease runs out.
import { describe, expect, it } from 'vitest';
import { ENGINES, testEngines } from '../../test/engines';
import { ManualClock } from '../clock';
import { webhooksRepo } from './repo';
import { createWebhooks, DELIVERY_SLOTS, type Fetch } from './webhooks';

const engines = testEngines();

/** A receiver that answers 200 after a moment, counting what arrives and how much is in flight at once. */
function receiver() {
  const sent: string[] = [];
  let inFlight = 0;
  let most = 0;
  const fetch: Fetch = async (_url, init) => {
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((r) => setTimeout(r, 5));
    sent.push((init.headers as Record<string, string>)['X-Service-Delivery']!);
    inFlight--;
    return new Response(null, { status: 200 });
  };
  return { fetch, sent, most: () => most };
}

describe.each(ENGINES)('webhook deliveries on $dialect', ({ dialect, skip }) => {
  const instances = dialect === 'postgres' ? 3 : 1;
  it.skipIf(skip)(`each of 40 deliveries is sent once by ${instances} instance(s), within the endpoint's slots${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const t = await engines.open(dialect);
    const clock = new ManualClock(Date.parse('2026-12-04T09:00:00.000Z'));
    await t.engine.q.insertInto('organizations').values({ name: 'Acme', plan: 'pro', created_at: 'x' }).execute();
    const rx = receiver();
    const hooks = engines.instances(t, 3).map((e) => createWebhooks(e, clock, { fetch: rx.fetch }));
    const { endpoint } = await hooks[0]!.create({ orgId: 1, url: 'https://hooks.example/in', env: 'live', events: ['verification.completed'], createdBy: null });
    for (let i = 0; i < 40; i++) await hooks[i % hooks.length]!.emit(1, 'live', { type: 'verification.completed', fields: { verification_id: `ver_${i}` } });

    for (let round = 0; round < 20 && rx.sent.length < 40; round++) await Promise.all(hooks.map((h) => h.dispatchDue()));
    expect(rx.sent).toHaveLength(40);
    expect(new Set(rx.sent).size).toBe(40);
    expect(rx.most()).toBeLessThanOrEqual(DELIVERY_SLOTS.perEndpoint);
    expect((await hooks[0]!.deliveries(1, endpoint.id)).every((d) => d.state === 'succeeded' && d.attempts === 1)).toBe(true);
  });

  it.skipIf(skip)(`deliveries leased by an instance that died are sent by another once the lease runs out${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const t = await engines.open(dialect);
    const clock = new ManualClock(Date.parse('2026-12-04T09:00:00.000Z'));
    await t.engine.q.insertInto('organizations').values({ name: 'Acme', plan: 'pro', created_at: 'x' }).execute();
    const rx = receiver();
    const [other] = engines.instances(t, 1, 2);
    const hooks = createWebhooks(other!, clock, { fetch: rx.fetch });
    await hooks.create({ orgId: 1, url: 'https://hooks.example/in', env: 'live', events: ['verification.completed'], createdBy: null });
    for (let i = 0; i < 3; i++) await hooks.emit(1, 'live', { type: 'verification.completed', fields: { verification_id: `ver_${i}` } });
    // The instance that dies: it leased all three (as its pump does) and never sent them.
    const due = await webhooksRepo.due(t.engine.q, new Date(clock.now()).toISOString(), DELIVERY_SLOTS.perEndpoint, 10);
    await webhooksRepo.lease(t.engine.q, due.map((d) => d.id), new Date(clock.now() + 60_000).toISOString());

    expect(await hooks.dispatchDue()).toBe(0);
    clock.advance(61_000);
    expect(await hooks.dispatchDue()).toBe(3);
    expect(rx.sent.sort()).toEqual(due.map((d) => d.id).sort());
  });
});
