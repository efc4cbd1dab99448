// Webhook signing-secret rotation: the secret being replaced stays in use for an overlap, so
// receivers can switch without losing deliveries.
import type Database from 'better-sqlite3';

export const version = 5;
export const name = 'webhook-rotation';

export function up(db: Database.Database): void {
  db.exec(`
    ALTER TABLE webhook_endpoints ADD COLUMN previous_secret TEXT;
    ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_until TEXT;
  `);
}
