// Runs a "do due work" function on an interval, one run at a time, until stopped. Durable
// state lives in SQLite (leases), so a restart simply picks up where the last process left off.
export interface Poller {
  /** Runs once now (tests call this to drive the work without timers). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

export function startPoller(work: () => Promise<void>, intervalMs: number, onError: (e: unknown) => void): Poller {
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = (): Promise<void> => {
    if (running) return running;
    running = work()
      .catch(onError)
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => {
    if (!stopped) void tick();
  }, intervalMs);
  timer.unref();
  return {
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (running) await running;
    },
  };
}
