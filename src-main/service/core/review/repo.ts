// SQL for the clearances waiting for, or given, a second person's approval (four-eyes), on either
// engine (db/engine.ts): ids, codes, hashes and flags only, never a customer's name or the listed
// record. Each function takes the query builder to run on: the engine's, or the caller's transaction.
import type { Insertable, Selectable } from 'kysely';
import type { Clearance } from '../../../../src-shared/contracts/review';
import { changedOne, type Q } from '../../db/engine';
import type { ClearancesTable } from '../../db/tables';

/**
 * A clearance as read (the migrated schema's row: db/tables.ts). `match_flags`: per match, [kind
 * of list, score, dob, country, exact name] (migration 0021; null before it).
 */
export type ClearanceRow = Selectable<ClearancesTable>;

const clearances = (q: Q) => q.selectFrom('clearances').selectAll();

export const clearanceRepo = {
  async insert(q: Q, row: Omit<Insertable<ClearancesTable>, 'state'>): Promise<void> {
    await q.insertInto('clearances').values({ ...row, state: 'pending' }).execute();
  },
  byId: (q: Q, id: string): Promise<ClearanceRow | undefined> => clearances(q).where('id', '=', id).executeTakeFirst(),
  pendingFor: (q: Q, orgId: number, batchId: string, row: number): Promise<ClearanceRow[]> =>
    clearances(q).where('org_id', '=', orgId).where('batch_id', '=', batchId).where('row_number', '=', row).where('state', '=', 'pending').execute(),
  async pendingCount(q: Q, orgId: number): Promise<number> {
    const r = await q.selectFrom('clearances').select((e) => e.fn.countAll<number>().as('n')).where('org_id', '=', orgId).where('state', '=', 'pending').executeTakeFirst();
    return Number(r?.n ?? 0);
  },
  pendingOf: (q: Q, orgId: number): Promise<ClearanceRow[]> =>
    clearances(q).where('org_id', '=', orgId).where('state', '=', 'pending').orderBy('requested_at').orderBy('id').limit(500).execute(),
  ofBatch: (q: Q, orgId: number, batchId: string, requestedBy: number): Promise<ClearanceRow[]> =>
    clearances(q).where('org_id', '=', orgId).where('batch_id', '=', batchId).where('requested_by', '=', requestedBy).orderBy('requested_at').orderBy('id').execute(),
  /**
   * Decides a clearance that still waits: true for the one call that did (two approvers at once,
   * on any instances: one decides, the other finds it decided).
   */
  async decide(q: Q, id: string, state: Exclude<Clearance['state'], 'pending'>, by: number, at: string): Promise<boolean> {
    const r = await q.updateTable('clearances').set({ state, decided_by: by, decided_at: at }).where('id', '=', id).where('state', '=', 'pending').executeTakeFirst();
    return changedOne(r);
  },
};
