// The address a request came from, for the audit rows it writes (issue 39: a team on many desks,
// each act recorded with the acting person and their source address). Set once per request by the
// app (http/app.ts) and read by audit.record for acts of a signed-in person, so no route has to
// pass it along. A person's address is the staff member's computer, never a screened subject's.
import { AsyncLocalStorage } from 'node:async_hooks';

const source = new AsyncLocalStorage<string>();

/** Runs `work` (a request) with its client address known to the audit log. */
export function withRequestSource<T>(address: string | null, work: () => T): T {
  return address === null ? work() : source.run(address, work);
}

/** The current request's client address; null outside a request (CLI, system, tests in process). */
export function requestSource(): string | null {
  return source.getStore() ?? null;
}
