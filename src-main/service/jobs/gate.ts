// At most `max` pieces of work at once; the rest wait their turn in order. A freed place is handed
// on after the event loop's pending I/O has had its turn (setImmediate), so a burst of requests
// is worked through a few at a time while a health check or a page load still gets answered.
export interface Gate {
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Work waiting for a place now. */
  waiting(): number;
}

export function createGate(max: number): Gate {
  let active = 0;
  const queue: (() => void)[] = [];
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (active < max) active++;
      else await new Promise<void>((resolve) => queue.push(resolve));
      try {
        return await work();
      } finally {
        const next = queue.shift();
        if (next) setImmediate(next);
        else active--;
      }
    },
    waiting: () => queue.length,
  };
}
