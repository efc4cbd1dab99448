// A job's deadline counted in the CPU time its process was given, not in wall time. A reader runs
// below the HTTP process's priority, so on a busy machine it can wait tens of seconds for a core
// while working normally; killing it then fails a request that would have been answered (seen as
// 503 document_reader_failed with two browsers and two services on 2 cores). A hung process is
// one spinning (its CPU time passes the limit) or stuck (no answer after a much longer wall time).
// Linux reads the process's CPU time from /proc; elsewhere the CPU limit is a wall-time limit.
import { readFileSync } from 'node:fs';

/** USER_HZ: the unit of /proc/<pid>/stat times on every Linux architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/** CPU milliseconds a process has used (all its threads), or null where that cannot be read. */
export function processCpuMs(pid: number): number | null {
  if (process.platform !== 'linux') return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) ": state is field 3, utime 14, stime 15 (comm may hold spaces or parens).
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

export interface DeadlineOptions {
  pid: number | undefined;
  /** CPU time the job may use: past it the process is spinning. */
  cpuMs: number;
  /** Wall time the job may take whatever its CPU time: past it the process is stuck. */
  wallMs: number;
  onHung: (why: 'cpu' | 'wall', ms: number) => void;
  /** How often the CPU time is read. */
  everyMs?: number;
}

/** Watches one job; the returned function stops watching (call it when the job is answered). */
export function watchDeadline(o: DeadlineOptions): () => void {
  const began = performance.now();
  const cpu0 = o.pid === undefined ? null : processCpuMs(o.pid);
  const timer = setInterval(() => {
    const wall = performance.now() - began;
    const now = cpu0 === null ? null : processCpuMs(o.pid!);
    // CPU time used by the job; wall time where it cannot be read.
    const cpu = now === null || cpu0 === null ? wall : now - cpu0;
    if (wall >= o.wallMs) {
      clearInterval(timer);
      o.onHung('wall', Math.round(wall));
    } else if (cpu >= o.cpuMs) {
      clearInterval(timer);
      o.onHung('cpu', Math.round(cpu));
    }
  }, o.everyMs ?? 500);
  timer.unref();
  return () => clearInterval(timer);
}
