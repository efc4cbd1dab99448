// The reports' cache and the other instances (issue 40). Each instance caches the figures it
// computed (reports.ts, 30 s at most) and forgets an organisation's when its own billing records a
// row. On PostgreSQL the other instances write the same ledger: an instance that recorded rows
// tells them which organisations changed (NOTIFY, gathered over NOTIFY_AFTER_MS so a burst of
// requests costs one notification), and each forgets those organisations' figures when it hears.
// A listening connection that was lost and made again may have missed some: everything is
// forgotten then. On SQLite one process serves the file and its own forgetting is all there is.
import type { Engine } from '../../db/engine';

const CHANNEL = 'console_reports';
/** How long recorded changes are gathered before the others are told (one notification for a burst). */
export const NOTIFY_AFTER_MS = 100;

export interface ReportChanges {
  /** An organisation's ledger rows changed here: forgotten at once here, and soon by the other instances. */
  recorded(orgId: number): void;
  /** Hears the other instances' changes until the answered function is called (which also tells what is left to tell). */
  follow(): Promise<() => Promise<void>>;
}

export function createReportChanges(
  engine: Engine,
  /** Forgets the cached figures of an organisation, or of every organisation (null). */
  forget: (orgId: number | null) => void,
  log: (msg: string) => void = () => {},
): ReportChanges {
  if (engine.dialect === 'sqlite') return { recorded: (orgId) => forget(orgId), follow: async () => async () => {} };
  const pending = new Set<number>();
  let timer: NodeJS.Timeout | null = null;
  const tell = async (): Promise<void> => {
    timer = null;
    if (pending.size === 0) return;
    const orgs = [...pending].join(',');
    pending.clear();
    await engine.notify(engine.q, CHANNEL, orgs).catch(() => log('report_changes_not_sent'));
  };
  return {
    recorded(orgId) {
      forget(orgId);
      pending.add(orgId);
      if (!timer) {
        timer = setTimeout(() => void tell(), NOTIFY_AFTER_MS);
        timer.unref();
      }
    },
    async follow() {
      const stop = await engine.listen(CHANNEL, (payload) => {
        if (payload === null) return forget(null);
        for (const id of payload.split(',')) {
          const orgId = Number(id);
          if (Number.isSafeInteger(orgId)) forget(orgId);
        }
      });
      return async () => {
        if (timer) clearTimeout(timer);
        await tell();
        await stop();
      };
    },
  };
}
