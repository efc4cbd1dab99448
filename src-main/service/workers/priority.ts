// Worker threads (face models, report exports) run at a lower CPU priority than the HTTP thread,
// so a core busy with them never delays an answer (on 2 cores the scheduler otherwise lets a
// model or a PDF run on while /api/health waits). Linux: the calling thread's own id from
// /proc/thread-self, and setpriority on it, which affects only that thread. Elsewhere, or when
// refused, the worker runs at normal priority.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

export function lowerThreadPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
  } catch {
    // Best effort.
  }
}
