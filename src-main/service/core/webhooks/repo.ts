// SQL for webhook endpoints, the event outbox and deliveries, on either engine. Each function takes
// the builder to run on: the engine's, or the caller's transaction.
import { sql, type Selectable } from 'kysely';
import { changedOne, type Q } from '../../db/engine';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from '../../db/tables';
import type { Environment } from '../../../../src-shared/catalog';

/** The migrated schema's rows (db/tables.ts). */
export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

export interface DueDetails {
  type: string; payload: string; url: string; secret: string; disabled_at: string | null; previous_secret: string | null; previous_secret_until: string | null;
  org_id: number;
}

export const webhooksRepo = {
  async insertEndpoint(q: Q, r: Omit<EndpointRow, 'disabled_at' | 'previous_secret' | 'previous_secret_until'>): Promise<void> {
    await q.insertInto('webhook_endpoints').values(r).execute();
  },
  endpoint: (q: Q, id: string): Promise<EndpointRow | undefined> => q.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst(),
  endpoints: (q: Q, orgId: number): Promise<EndpointRow[]> =>
    q.selectFrom('webhook_endpoints').selectAll().where('org_id', '=', orgId).where('disabled_at', 'is', null).orderBy('created_at', 'desc').orderBy('id').execute(),
  subscribed: (q: Q, orgId: number, env: Environment): Promise<EndpointRow[]> =>
    q.selectFrom('webhook_endpoints').selectAll().where('org_id', '=', orgId).where('env', '=', env).where('disabled_at', 'is', null).execute(),
  // Its deliveries go with it (ON DELETE CASCADE); one being sent just now finds it gone.
  async remove(q: Q, id: string): Promise<number> {
    return Number((await q.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst()).numDeletedRows);
  },
  async insertEvent(q: Q, r: { id: string; org_id: number; type: string; env: Environment; payload: string; created_at: string }): Promise<void> {
    await q.insertInto('webhook_events').values(r).execute();
  },
  async insertDeliveries(q: Q, rows: { id: string; event_id: string; endpoint_id: string; next_attempt_at: string; created_at: string }[]): Promise<void> {
    if (rows.length) await q.insertInto('webhook_deliveries').values(rows.map((r) => ({ ...r, state: 'pending' as const }))).execute();
  },
  /**
   * Due deliveries not leased (or whose lease ran out), oldest first, at most `perEndpoint` of an
   * endpoint: the candidates a lease chooses from, so one endpoint's backlog cannot hide another's.
   */
  due: (q: Q, now: string, perEndpoint: number, limit: number): Promise<{ id: string; endpoint_id: string }[]> =>
    q.selectFrom((d) => d.selectFrom('webhook_deliveries')
      .select(['id', 'endpoint_id', 'next_attempt_at', sql<number>`ROW_NUMBER() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, id)`.as('n')])
      .where('state', '=', 'pending').where('next_attempt_at', '<=', now)
      .where((e) => e.or([e('lease_until', 'is', null), e('lease_until', '<', now)]))
      .as('c'))
      .select(['c.id', 'c.endpoint_id']).where('c.n', '<=', perEndpoint).orderBy('c.next_attempt_at').orderBy('c.id').limit(limit).execute(),
  /** Deliveries being sent now, by any instance, per endpoint (their lease still runs). */
  async leasedPerEndpoint(q: Q, now: string): Promise<Map<string, number>> {
    const rows = await q.selectFrom('webhook_deliveries').select(['endpoint_id', (e) => e.fn.countAll<number>().as('n')])
      .where('state', '=', 'pending').where('lease_until', '>=', now).groupBy('endpoint_id').execute();
    return new Map(rows.map((r) => [r.endpoint_id, Number(r.n)]));
  },
  lease: (q: Q, ids: readonly string[], until: string): Promise<DeliveryRow[]> =>
    ids.length ? q.updateTable('webhook_deliveries').set({ lease_until: until }).where('id', 'in', ids).returningAll().execute() : Promise.resolve([]),
  dueDetails: (q: Q, id: string): Promise<DueDetails | undefined> =>
    q.selectFrom('webhook_deliveries as d').innerJoin('webhook_events as e', 'e.id', 'd.event_id').innerJoin('webhook_endpoints as p', 'p.id', 'd.endpoint_id')
      .select(['e.type', 'e.payload', 'p.org_id', 'p.url', 'p.secret', 'p.disabled_at', 'p.previous_secret', 'p.previous_secret_until'])
      .where('d.id', '=', id).executeTakeFirst(),
  async finish(q: Q, r: Pick<DeliveryRow, 'id' | 'state' | 'attempts' | 'next_attempt_at' | 'last_status' | 'last_error' | 'last_latency_ms' | 'completed_at'>): Promise<void> {
    const { id, ...set } = r;
    await q.updateTable('webhook_deliveries').set({ ...set, lease_until: null }).where('id', '=', id).execute();
  },
  deliveries: (q: Q, endpointId: string, limit: number): Promise<(DeliveryRow & { type: string })[]> =>
    q.selectFrom('webhook_deliveries as d').innerJoin('webhook_events as e', 'e.id', 'd.event_id').selectAll('d').select('e.type')
      .where('d.endpoint_id', '=', endpointId).orderBy('d.created_at', 'desc').orderBy('d.id').limit(limit).execute(),
  delivery: (q: Q, id: string, endpointId: string): Promise<(DeliveryRow & { type: string }) | undefined> =>
    q.selectFrom('webhook_deliveries as d').innerJoin('webhook_events as e', 'e.id', 'd.event_id').selectAll('d').select('e.type')
      .where('d.id', '=', id).where('d.endpoint_id', '=', endpointId).executeTakeFirst(),
  async rotate(q: Q, id: string, secret: string, until: string): Promise<void> {
    await q.updateTable('webhook_endpoints').set((e) => ({ previous_secret: e.ref('secret'), previous_secret_until: until, secret })).where('id', '=', id).execute();
  },
  async retry(q: Q, id: string, endpointId: string, now: string): Promise<boolean> {
    const r = await q.updateTable('webhook_deliveries').set({ state: 'pending', next_attempt_at: now, lease_until: null, completed_at: null })
      .where('id', '=', id).where('endpoint_id', '=', endpointId).where('state', '=', 'failed').executeTakeFirst();
    return changedOne(r);
  },
  async purgeEvents(q: Q, before: string): Promise<number> {
    const r = await q.deleteFrom('webhook_events').where('created_at', '<', before)
      .where((e) => e.not(e.exists(e.selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'webhook_events.id').where('d.state', '=', 'pending'))))
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  },
};
