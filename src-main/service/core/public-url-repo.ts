// The installation's public URL as an owner or admin saved it in Settings (issue 26; migration
// 0018, one row), on either engine: the origin links are built on when the on-site server is not
// running and no `--public-url` was given at start (core/public-origin.ts). Links and the reading
// of forwarded requests need it on every request, so it is held in memory: loaded when the service
// starts listening, replaced when it is saved here, and read again in the background when the copy
// is older than `REFRESH_MS` (another instance on the same PostgreSQL may have saved it).
import type { Engine, Q } from '../db/engine';
import type { Clock } from './clock';
import { nowIso } from './ids';

/** How long a saved public URL may take to reach the other instances on one PostgreSQL. */
export const REFRESH_MS = 5_000;

const repo = {
  get: async (q: Q): Promise<string | null> => (await q.selectFrom('public_url_setting').select('url').where('id', '=', 1).executeTakeFirst())?.url ?? null,
  async put(q: Q, url: string, at: string, by: number | null): Promise<void> {
    await q.insertInto('public_url_setting').values({ id: 1, url, updated_at: at, updated_by: by })
      .onConflict((oc) => oc.column('id').doUpdateSet({ url, updated_at: at, updated_by: by })).execute();
  },
  async clear(q: Q): Promise<void> {
    await q.deleteFrom('public_url_setting').where('id', '=', 1).execute();
  },
};

export function createPublicUrlSetting(engine: Engine, clock: Clock) {
  let held: string | null = null;
  let readAt = -Infinity;
  let reading: Promise<string | null> | null = null;
  const load = (): Promise<string | null> => {
    reading ??= repo.get(engine.q).then((url) => {
      held = url;
      readAt = clock.now();
      return url;
    }).finally(() => (reading = null));
    return reading;
  };
  return {
    /** The saved origin as last read (null: none), read again in the background once it is older than REFRESH_MS. */
    current(): string | null {
      if (clock.now() - readAt >= REFRESH_MS && reading === null) load().catch(() => {});
      return held;
    },
    /** Reads the saved origin now (the service's start; the settings page). */
    load,
    /** The saved origin as the transaction `tx` sees it. */
    saved: (tx: Q): Promise<string | null> => repo.get(tx),
    /** Saves an origin already checked by the shared rule (contracts/links.ts), or clears it with null, in `tx`. */
    async set(url: string | null, by: number | null, tx: Q): Promise<void> {
      if (url === null) await repo.clear(tx);
      else await repo.put(tx, url, nowIso(clock.now()), by);
    },
    /** The transaction that saved it committed: this instance uses it at once. */
    committed(url: string | null): void {
      held = url;
      readAt = clock.now();
    },
  };
}
export type PublicUrlSetting = ReturnType<typeof createPublicUrlSetting>;
