// The network listeners' settings (the on-site server's: migration 0016; the team server's: 0026),
// on either engine: whether it was left running, on which address and port. The service starts it
// again at its next start (compose.ts listening); stopping the service is not switching it off.
// Nothing of its sessions is here: they are hosted sessions and console sessions.
import type { Engine } from '../../db/engine';
import type { Clock } from '../clock';
import { nowIso } from '../ids';

export interface ListenerSetting {
  running: boolean;
  host: string;
  port: number;
}

export function createListenerSetting(engine: Engine, clock: Clock, table: 'onsite_setting' | 'team_server_setting') {
  const { q } = engine;
  return {
    async get(): Promise<ListenerSetting | null> {
      const r = await q.selectFrom(table).select(['running', 'host', 'port']).where('id', '=', 1).executeTakeFirst();
      return r ? { running: r.running === 1, host: r.host, port: r.port } : null;
    },
    /** Started from the console: on, at this address and the port it bound. */
    async started(host: string, port: number): Promise<void> {
      const at = nowIso(clock.now());
      await q.insertInto(table).values({ id: 1, running: 1, host, port, updated_at: at })
        .onConflict((oc) => oc.column('id').doUpdateSet({ running: 1, host, port, updated_at: at })).execute();
    },
    /** Stopped from the console: off (its last address is kept for the form). */
    async stopped(): Promise<void> {
      await q.updateTable(table).set({ running: 0, updated_at: nowIso(clock.now()) }).where('id', '=', 1).execute();
    },
  };
}
export type ListenerSettingStore = ReturnType<typeof createListenerSetting>;
