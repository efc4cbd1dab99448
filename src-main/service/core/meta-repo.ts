// SQL for the `meta` table, on either engine: the install's own values, written once by whichever
// process comes first (the install secret).
import type { Q } from '../db/engine';

export const metaRepo = {
  async putIfAbsent(q: Q, key: string, value: string): Promise<void> {
    await q.insertInto('meta').values({ key, value }).onConflict((oc) => oc.column('key').doNothing()).execute();
  },
  get: async (q: Q, key: string): Promise<string | undefined> => (await q.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst())?.value,
};
