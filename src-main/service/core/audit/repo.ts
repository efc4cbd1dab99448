// SQL for the audit log, on either engine (db/engine.ts): append, page through with filters, walk
// in order for verification. Each function takes the query builder to run on: the engine's, or
// the caller's transaction.
import type { ExpressionBuilder } from 'kysely';
import type { Q } from '../../db/engine';
import type { Tables } from '../../db/tables';
import type { AuditRow } from './chain';

export interface AuditFilter {
  action?: string;
  /** 'cli', 'system', or a user id. */
  actor?: string;
  from?: string;
  to?: string;
  clientRefHmac?: string;
}

const HEAD_KEY = 'audit_head';
/** Rows read at a time while the whole chain is walked. */
const WALK_PAGE = 2_000;

function matching(orgId: number, f: AuditFilter) {
  return (e: ExpressionBuilder<Tables, 'audit_log'>) => {
    const parts = [e('org_id', '=', orgId)];
    if (f.action) parts.push(e('action', '=', f.action as Tables['audit_log']['action']));
    if (f.actor === 'cli' || f.actor === 'system') parts.push(e('actor_kind', '=', f.actor));
    else if (f.actor) parts.push(e('actor_id', '=', f.actor), e('actor_kind', '=', 'user'));
    if (f.from) parts.push(e('at', '>=', f.from));
    if (f.to) parts.push(e('at', '<', f.to));
    if (f.clientRefHmac) parts.push(e('client_ref_hmac', '=', f.clientRefHmac));
    return e.and(parts);
  };
}

export const auditRepo = {
  last: (q: Q) => q.selectFrom('audit_log').select(['seq', 'hash']).orderBy('seq', 'desc').limit(1).executeTakeFirst(),
  async insert(q: Q, row: AuditRow): Promise<void> {
    await q.insertInto('audit_log').values(row as Tables['audit_log'] & AuditRow).execute();
  },
  /** Every row in seq order, a page at a time (the log can be long). */
  async *walk(q: Q): AsyncGenerator<AuditRow> {
    let after = 0;
    for (;;) {
      const rows = await q.selectFrom('audit_log').selectAll().where('seq', '>', after).orderBy('seq').limit(WALK_PAGE).execute();
      for (const r of rows) yield r as AuditRow;
      if (rows.length < WALK_PAGE) return;
      after = rows[rows.length - 1]!.seq;
    }
  },
  async head(q: Q): Promise<{ seq: number; hash: string } | null> {
    const v = (await q.selectFrom('meta').select('value').where('key', '=', HEAD_KEY).executeTakeFirst())?.value;
    const m = v ? /^(\d+):([0-9a-f]{64})$/.exec(v) : null;
    return m ? { seq: Number(m[1]), hash: m[2]! } : null;
  },
  async setHead(q: Q, seq: number, hash: string): Promise<void> {
    await q.insertInto('meta').values({ key: HEAD_KEY, value: `${seq}:${hash}` })
      .onConflict((c) => c.column('key').doUpdateSet({ value: (e) => e.ref('excluded.value') })).execute();
  },
  async page(q: Q, orgId: number, f: AuditFilter, limit: number, offset: number): Promise<AuditRow[]> {
    return (await q.selectFrom('audit_log').selectAll().where(matching(orgId, f)).orderBy('seq', 'desc').limit(limit).offset(offset).execute()) as AuditRow[];
  },
  async count(q: Q, orgId: number, f: AuditFilter): Promise<number> {
    const r = await q.selectFrom('audit_log').select((e) => e.fn.countAll<number>().as('n')).where(matching(orgId, f)).executeTakeFirst();
    return Number(r?.n ?? 0);
  },
};
