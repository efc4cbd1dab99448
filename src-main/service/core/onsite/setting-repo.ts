// The network listeners' settings, kept in SQLite (the on-site server's: migration 0016; the team
// server's: 0026): whether it was left running, on which address and port. The service starts it
// again at its next start (compose.ts listening); stopping the service is not switching it off.
// Nothing of its sessions is here: they are hosted sessions and console sessions.
import type { Db } from '../../db/open';
import type { Clock } from '../clock';
import { nowIso } from '../ids';

export interface ListenerSetting {
  running: boolean;
  host: string;
  port: number;
}

export function createListenerSetting(db: Db, clock: Clock, table: 'onsite_setting' | 'team_server_setting') {
  const s = {
    get: db.prepare<[], { running: number; host: string; port: number }>(`SELECT running, host, port FROM ${table} WHERE id = 1`),
    put: db.prepare<[number, string, number, string]>(
      `INSERT INTO ${table} (id, running, host, port, updated_at) VALUES (1, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET running = excluded.running, host = excluded.host, port = excluded.port, updated_at = excluded.updated_at`,
    ),
    off: db.prepare<[string]>(`UPDATE ${table} SET running = 0, updated_at = ? WHERE id = 1`),
  };
  return {
    get(): ListenerSetting | null {
      const r = s.get.get();
      return r ? { running: r.running === 1, host: r.host, port: r.port } : null;
    },
    /** Started from the console: on, at this address and the port it bound. */
    started(host: string, port: number): void {
      s.put.run(1, host, port, nowIso(clock.now()));
    },
    /** Stopped from the console: off (its last address is kept for the form). */
    stopped(): void {
      s.off.run(nowIso(clock.now()));
    },
  };
}
export type ListenerSettingStore = ReturnType<typeof createListenerSetting>;
