// The installation's public URL as an owner or admin saved it in Settings (issue 26; migration
// 0018, one row): the origin links are built on when the on-site server is not running and no
// `--public-url` was given at start (core/public-origin.ts). Read on every link made, so a change
// applies to the next one without a restart.
import type { Db } from '../db/open';
import type { Clock } from './clock';
import { nowIso } from './ids';

export function createPublicUrlSetting(db: Db, clock: Clock) {
  const s = {
    get: db.prepare<[], { url: string }>('SELECT url FROM public_url_setting WHERE id = 1'),
    put: db.prepare<[string, string, number | null]>(
      `INSERT INTO public_url_setting (id, url, updated_at, updated_by) VALUES (1, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET url = excluded.url, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    ),
    clear: db.prepare('DELETE FROM public_url_setting WHERE id = 1'),
  };
  return {
    /** The saved origin, or null. */
    get: (): string | null => s.get.get()?.url ?? null,
    /** Saves an origin already checked by the shared rule (contracts/links.ts), or clears it with null. */
    set(url: string | null, by: number | null): void {
      if (url === null) s.clear.run();
      else s.put.run(url, nowIso(clock.now()), by);
    },
  };
}
export type PublicUrlSetting = ReturnType<typeof createPublicUrlSetting>;
