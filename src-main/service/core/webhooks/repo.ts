// SQL for webhook endpoints, the event outbox and deliveries.
import type { Db } from '../../db/open';
import type { Environment } from '../../../../src-shared/catalog';

export interface EndpointRow {
  id: string;
  org_id: number;
  url: string;
  env: Environment;
  events: string;
  secret: string;
  description: string | null;
  created_by: number | null;
  created_at: string;
  disabled_at: string | null;
  /** The secret replaced by a rotation, still used to sign until previous_secret_until. */
  previous_secret: string | null;
  previous_secret_until: string | null;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  state: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: string;
  lease_until: string | null;
  last_status: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  created_at: string;
  completed_at: string | null;
}

export interface DueDelivery extends DeliveryRow {
  type: string;
  payload: string;
  url: string;
  secret: string;
  disabled_at: string | null;
}

export function webhooksRepo(db: Db) {
  const s = {
    insertEndpoint: db.prepare(
      `INSERT INTO webhook_endpoints (id, org_id, url, env, events, secret, description, created_by, created_at)
       VALUES (@id, @org_id, @url, @env, @events, @secret, @description, @created_by, @created_at)`,
    ),
    endpoint: db.prepare<[string], EndpointRow>('SELECT * FROM webhook_endpoints WHERE id = ?'),
    endpoints: db.prepare<[number], EndpointRow>('SELECT * FROM webhook_endpoints WHERE org_id = ? AND disabled_at IS NULL ORDER BY created_at DESC, id'),
    subscribed: db.prepare<[number, Environment], EndpointRow>(
      'SELECT * FROM webhook_endpoints WHERE org_id = ? AND env = ? AND disabled_at IS NULL',
    ),
    // Its deliveries go with it (ON DELETE CASCADE); one being sent just now finds it gone.
    remove: db.prepare<[string]>('DELETE FROM webhook_endpoints WHERE id = ?'),
    insertEvent: db.prepare(
      'INSERT INTO webhook_events (id, org_id, type, env, payload, created_at) VALUES (@id, @org_id, @type, @env, @payload, @created_at)',
    ),
    insertDelivery: db.prepare(
      `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, state, next_attempt_at, created_at)
       VALUES (@id, @event_id, @endpoint_id, 'pending', @next_attempt_at, @created_at)`,
    ),
    // Due deliveries, oldest first, at most `cap` in flight per endpoint counting those already in
    // flight (a JSON object endpoint id -> count), so one silent receiver cannot take every slot.
    lease: db.prepare<[string, string, string, number, string, number], DeliveryRow>(
      `UPDATE webhook_deliveries SET lease_until = ?
       WHERE id IN (
         SELECT id FROM (
           SELECT id, endpoint_id, next_attempt_at,
                  ROW_NUMBER() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, id) AS n
           FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)
         ) WHERE n <= ? - COALESCE((SELECT value FROM json_each(?) WHERE key = endpoint_id), 0)
         ORDER BY next_attempt_at LIMIT ?)
       RETURNING *`,
    ),
    dueDetails: db.prepare<[string], {
      type: string; payload: string; url: string; secret: string; disabled_at: string | null; previous_secret: string | null; previous_secret_until: string | null;
      org_id: number;
    }>(
      `SELECT e.type, e.payload, p.org_id, p.url, p.secret, p.disabled_at, p.previous_secret, p.previous_secret_until FROM webhook_deliveries d
       JOIN webhook_events e ON e.id = d.event_id JOIN webhook_endpoints p ON p.id = d.endpoint_id WHERE d.id = ?`,
    ),
    finish: db.prepare(
      `UPDATE webhook_deliveries SET state = @state, attempts = @attempts, next_attempt_at = @next_attempt_at, lease_until = NULL,
       last_status = @last_status, last_error = @last_error, last_latency_ms = @last_latency_ms, completed_at = @completed_at
       WHERE id = @id`,
    ),
    deliveries: db.prepare<[string, number], DeliveryRow & { type: string }>(
      `SELECT d.*, e.type FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
       WHERE d.endpoint_id = ? ORDER BY d.created_at DESC, d.id LIMIT ?`,
    ),
    rotate: db.prepare('UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = @until, secret = @secret WHERE id = @id'),
    delivery: db.prepare<[string, string], DeliveryRow & { type: string }>(
      'SELECT d.*, e.type FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.id = ? AND d.endpoint_id = ?',
    ),
    retry: db.prepare(
      `UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = @now, lease_until = NULL, completed_at = NULL
       WHERE id = @id AND endpoint_id = @endpoint AND state = 'failed'`,
    ),
    purgeEvents: db.prepare<[string]>(
      `DELETE FROM webhook_events WHERE created_at < ?
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id AND d.state = 'pending')`,
    ),
  };
  return {
    insertEndpoint: (r: Omit<EndpointRow, 'disabled_at' | 'previous_secret' | 'previous_secret_until'>) => s.insertEndpoint.run(r),
    endpoint: (id: string) => s.endpoint.get(id),
    endpoints: (orgId: number) => s.endpoints.all(orgId),
    subscribed: (orgId: number, env: Environment) => s.subscribed.all(orgId, env),
    remove: (id: string) => s.remove.run(id).changes,
    insertEvent: (r: { id: string; org_id: number; type: string; env: Environment; payload: string; created_at: string }) => s.insertEvent.run(r),
    insertDelivery: (r: { id: string; event_id: string; endpoint_id: string; next_attempt_at: string; created_at: string }) =>
      s.insertDelivery.run(r),
    lease: (until: string, now: string, limit: number, perEndpoint: number, inFlight: ReadonlyMap<string, number>) =>
      s.lease.all(until, now, now, perEndpoint, JSON.stringify(Object.fromEntries(inFlight)), limit),
    dueDetails: (id: string) => s.dueDetails.get(id),
    finish: (r: Pick<DeliveryRow, 'id' | 'state' | 'attempts' | 'next_attempt_at' | 'last_status' | 'last_error' | 'last_latency_ms' | 'completed_at'>) =>
      s.finish.run(r),
    deliveries: (endpointId: string, limit: number) => s.deliveries.all(endpointId, limit),
    delivery: (id: string, endpointId: string) => s.delivery.get(id, endpointId),
    rotate: (id: string, secret: string, until: string) => s.rotate.run({ id, secret, until }),
    retry: (id: string, endpointId: string, now: string) => s.retry.run({ id, endpoint: endpointId, now }).changes === 1,
    purgeEvents: (before: string) => s.purgeEvents.run(before).changes,
  };
}
