// Published flows (issue 12; spec: "A stable published-flow URL is reusable for many users and
// does not change when flow settings are edited"). A flow is an organisation's hosted-session
// settings under a public slug that never changes; each visit starts a fresh hosted session from
// the flow's current settings. Sessions started from a flow name it, so the console can count
// them. Settings only: never subject data.
import type Database from 'better-sqlite3';

export const version = 7;
export const name = 'published-flows';

export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE published_flows (
      id TEXT PRIMARY KEY,
      slug TEXT NOT NULL UNIQUE,
      org_id INTEGER NOT NULL REFERENCES organizations(id),
      env TEXT NOT NULL CHECK (env IN ('test','live')),
      name TEXT NOT NULL,
      product TEXT NOT NULL CHECK (product IN ('human','age','identity','compliance')),
      redirect_url TEXT,
      failure_redirect_url TEXT,
      page_title TEXT,
      success_message TEXT,
      failure_message TEXT,
      min_age INTEGER,
      enabled INTEGER NOT NULL CHECK (enabled IN (0,1)),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX published_flows_org_env_created ON published_flows(org_id, env, created_at);
    ALTER TABLE hosted_sessions ADD COLUMN flow_id TEXT REFERENCES published_flows(id);
    CREATE INDEX hosted_sessions_flow_state ON hosted_sessions(flow_id, state);
  `);
}
