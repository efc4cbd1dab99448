// Redirects and origins (issue 25): the app schemes each organisation registered for its mobile
// apps' return (the only custom schemes a hosted redirect may use), and the on-site server's
// setting (on or off, its address and port), so a restart brings it back. Settings only: no session.
import type Database from 'better-sqlite3';

export const version = 16;
export const name = 'app-schemes-onsite';

export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE organization_app_schemes (
      org_id INTEGER NOT NULL REFERENCES organizations(id),
      scheme TEXT NOT NULL CHECK (length(scheme) BETWEEN 2 AND 64 AND scheme NOT GLOB '*[^a-z0-9+.-]*' AND scheme GLOB '[a-z]*'),
      PRIMARY KEY (org_id, scheme)
    ) STRICT;
    CREATE TABLE onsite_setting (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      running INTEGER NOT NULL CHECK (running IN (0,1)),
      host TEXT NOT NULL CHECK (length(host) BETWEEN 1 AND 64),
      port INTEGER NOT NULL CHECK (port BETWEEN 0 AND 65535),
      updated_at TEXT NOT NULL
    ) STRICT;
  `);
}
