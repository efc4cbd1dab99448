// SQL for the audit log: append, page through with filters, walk in order for verification.
import type { Db } from '../../db/open';
import { CHAINED_COLUMNS, type AuditRow } from './chain';

export interface AuditFilter {
  action?: string;
  /** 'cli', 'system', or a user id. */
  actor?: string;
  from?: string;
  to?: string;
  clientRefHmac?: string;
}

const HEAD_KEY = 'audit_head';

export function auditRepo(db: Db) {
  const columns = [...CHAINED_COLUMNS, 'prev_hash', 'hash'];
  const s = {
    last: db.prepare<[], { seq: number; hash: string }>('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1'),
    insert: db.prepare(`INSERT INTO audit_log (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`),
    all: db.prepare<[], AuditRow>('SELECT * FROM audit_log ORDER BY seq'),
    head: db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = '${HEAD_KEY}'`),
    setHead: db.prepare<[string]>(`INSERT INTO meta (key, value) VALUES ('${HEAD_KEY}', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`),
  };

  function where(orgId: number, f: AuditFilter): { sql: string; params: (string | number)[] } {
    const parts = ['org_id = ?'];
    const params: (string | number)[] = [orgId];
    if (f.action) {
      parts.push('action = ?');
      params.push(f.action);
    }
    if (f.actor === 'cli' || f.actor === 'system') {
      parts.push('actor_kind = ?');
      params.push(f.actor);
    } else if (f.actor) {
      parts.push("actor_id = ? AND actor_kind = 'user'");
      params.push(f.actor);
    }
    if (f.from) {
      parts.push('at >= ?');
      params.push(f.from);
    }
    if (f.to) {
      parts.push('at < ?');
      params.push(f.to);
    }
    if (f.clientRefHmac) {
      parts.push('client_ref_hmac = ?');
      params.push(f.clientRefHmac);
    }
    return { sql: parts.join(' AND '), params };
  }

  return {
    last: () => s.last.get(),
    insert: (row: AuditRow) => s.insert.run(row),
    /** Every row in seq order, one at a time (the log can be long). */
    iterate: () => s.all.iterate(),
    head(): { seq: number; hash: string } | null {
      const v = s.head.get()?.value;
      const m = v ? /^(\d+):([0-9a-f]{64})$/.exec(v) : null;
      return m ? { seq: Number(m[1]), hash: m[2]! } : null;
    },
    setHead: (seq: number, hash: string) => s.setHead.run(`${seq}:${hash}`),
    page(orgId: number, f: AuditFilter, limit: number, offset: number): AuditRow[] {
      const w = where(orgId, f);
      return db.prepare<(string | number)[], AuditRow>(`SELECT * FROM audit_log WHERE ${w.sql} ORDER BY seq DESC LIMIT ? OFFSET ?`).all(...w.params, limit, offset);
    },
    count(orgId: number, f: AuditFilter): number {
      const w = where(orgId, f);
      return db.prepare<(string | number)[], { n: number }>(`SELECT COUNT(*) AS n FROM audit_log WHERE ${w.sql}`).get(...w.params)?.n ?? 0;
    },
  };
}
