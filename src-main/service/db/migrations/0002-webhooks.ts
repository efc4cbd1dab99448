// Webhook endpoints, the durable outbox of events and the delivery log. Event payloads are
// built from the public-safe part of a result (ids, statuses, risk, flags): never a subject,
// a client reference, metadata or a matched list record.
import type Database from 'better-sqlite3';

export const version = 2;
export const name = 'webhooks';

export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE webhook_endpoints (
      id TEXT PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES organizations(id),
      url TEXT NOT NULL,
      env TEXT NOT NULL CHECK (env IN ('test','live')),
      events TEXT NOT NULL,
      secret TEXT NOT NULL,
      description TEXT,
      created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      created_at TEXT NOT NULL,
      disabled_at TEXT
    ) STRICT;
    CREATE INDEX webhook_endpoints_org ON webhook_endpoints(org_id, env);

    CREATE TABLE webhook_events (
      id TEXT PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES organizations(id),
      type TEXT NOT NULL,
      env TEXT NOT NULL CHECK (env IN ('test','live')),
      payload TEXT NOT NULL,
      created_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX webhook_events_created ON webhook_events(created_at);

    CREATE TABLE webhook_deliveries (
      id TEXT PRIMARY KEY,
      event_id TEXT NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
      endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
      state TEXT NOT NULL CHECK (state IN ('pending','succeeded','failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at TEXT NOT NULL,
      lease_until TEXT,
      last_status INTEGER,
      last_error TEXT,
      last_latency_ms INTEGER,
      created_at TEXT NOT NULL,
      completed_at TEXT
    ) STRICT;
    CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_attempt_at);
    CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, created_at);
  `);
}
