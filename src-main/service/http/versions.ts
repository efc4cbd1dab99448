// Two people changing the same setting (issue 39, item 6). A path the console both reads (GET,
// without a query) and writes (PUT or PATCH) is a setting: its read answers an ETag, a digest of what it shows,
// and a write that sends the ETag of what its sender saw (If-Match) is refused with 412
// `setting_changed` when the read now answers something else: someone changed it in between, and
// their change is not silently overwritten. A write without If-Match (API clients, scripts) is
// taken as before; every successful write answers the ETag of the setting as it now stands.
import { createHash } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { AppError } from '../../../src-shared/errors';
import type { AppEnv, RouteInfo } from './types';

/** A weak ETag of an answer's bytes (weak: the same meaning, not byte-for-byte promises). */
export function etagOf(bytes: Uint8Array): string {
  return `W/"${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"`;
}

export function createVersions(app: Hono<AppEnv>, table: readonly RouteInfo[]) {
  // A read that takes a query (the age gate's store per environment) is not one setting per path.
  const readable = (path: string) => table.some((r) => r.method === 'GET' && r.path === path && r.request?.query === undefined);
  const writable = (path: string) => table.some((r) => (r.method === 'PUT' || r.method === 'PATCH') && r.path === path);
  /** The setting's ETag now, as its read would answer it to this caller. */
  const current = async (c: Context<AppEnv>): Promise<string> => {
    const res = await app.request(c.req.url, { headers: { cookie: c.req.header('cookie') ?? '' } }, c.env);
    return res.status === 200 ? etagOf(new Uint8Array(await res.arrayBuffer())) : '';
  };
  return {
    /** The route is one side of a setting: a read with a write on its path, or a write with a read. */
    applies(info: Pick<RouteInfo, 'method' | 'path' | 'auth'>): boolean {
      if (info.auth.kind !== 'session') return false;
      if (info.method === 'GET') return writable(info.path) && readable(info.path);
      return (info.method === 'PUT' || info.method === 'PATCH') && readable(info.path);
    },
    current,
    /** Refuses the write when If-Match names a version other than the current one. */
    async check(c: Context<AppEnv>): Promise<void> {
      const seen = c.req.header('if-match');
      if (seen === undefined || seen.trim() === '*') return;
      const now = await current(c);
      if (!seen.split(',').map((v) => v.trim()).includes(now)) throw new AppError('setting_changed');
    },
  };
}
