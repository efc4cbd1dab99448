// SQL for published flows, on either engine (db/engine.ts): their settings, their stable slug, and
// how many sessions each started and saw completed (counted from the hosted sessions, never stored
// twice). Each function takes the query builder to run on: the engine's, or the caller's transaction.
import { sql, type Insertable, type Updateable } from 'kysely';
import type { Environment } from '../../../../src-shared/catalog';
import { changedOne, type Q } from '../../db/engine';
import type { PublishedFlowsTable } from '../../db/tables';
import type { FlowRow, FlowWithCounts } from './flows';

/** The flow's columns and its sessions' counts. */
const withCounts = (q: Q) => q.selectFrom('published_flows as f').selectAll('f').select([
  sql<number>`(SELECT COUNT(*) FROM hosted_sessions h WHERE h.flow_id = f.id)`.as('started'),
  sql<number>`(SELECT COUNT(*) FROM hosted_sessions h WHERE h.flow_id = f.id AND h.state = 'completed')`.as('completed'),
]);

const counted = (r: Record<string, unknown>) => ({ ...r, started: Number(r.started), completed: Number(r.completed) }) as FlowWithCounts;

export const publishedFlowsRepo = {
  async insert(q: Q, row: Insertable<PublishedFlowsTable>): Promise<void> {
    await q.insertInto('published_flows').values(row).execute();
  },
  /** The slug, org and environment are not among `set`'s columns: an edit cannot move a flow or change its URL. */
  async update(q: Q, id: string, orgId: number, set: Omit<Updateable<PublishedFlowsTable>, 'id' | 'slug' | 'org_id' | 'env' | 'created_at'>): Promise<boolean> {
    const r = await q.updateTable('published_flows').set(set).where('id', '=', id).where('org_id', '=', orgId).executeTakeFirst();
    return changedOne(r);
  },
  async byId(q: Q, id: string): Promise<FlowWithCounts | undefined> {
    const r = await withCounts(q).where('f.id', '=', id).executeTakeFirst();
    return r && counted(r);
  },
  bySlug: (q: Q, slug: string): Promise<FlowRow | undefined> =>
    q.selectFrom('published_flows').selectAll().where('slug', '=', slug).executeTakeFirst() as Promise<FlowRow | undefined>,
  async list(q: Q, orgId: number, env: Environment, limit: number): Promise<FlowWithCounts[]> {
    return (await withCounts(q).where('f.org_id', '=', orgId).where('f.env', '=', env).orderBy('f.created_at', 'desc').orderBy('f.id', 'desc').limit(limit).execute()).map(counted);
  },
};
