// The route registry: the one way a route exists. Each entry carries its auth spec, its request
// and response schemas and its handler; the registry mounts the guard composed from the auth
// spec, records the entry in the route table (security tests, OpenAPI), and, in tests, holds
// every answer to the schema declared for its status.
import type { Hono } from 'hono';
import type { Services } from '../compose';
import { createGuards, guard } from './auth';
import { responseCheck, type DriftHandler } from './response-check';
import type { AppEnv, RouteEntry, RouteInfo } from './types';

/** What a route module gets: the services and the registry. No Hono app: nothing is mounted past it. */
export interface Router {
  readonly services: Services;
  route(entry: RouteEntry): void;
  /** The routes registered so far (read-only), for the OpenAPI document. */
  readonly table: readonly RouteInfo[];
}

export interface RegistryOptions {
  /** Dev/test only: parse every answer against its declared schema; drift goes here. */
  onDrift?: DriftHandler;
}

export function createRouter(app: Hono<AppEnv>, services: Services, options: RegistryOptions = {}): Router {
  const table: RouteInfo[] = [];
  const guards = createGuards(services);
  return {
    services,
    table,
    route(entry) {
      const { handler, ...info } = entry;
      if (table.some((r) => r.method === info.method && r.path === info.path)) {
        throw new Error(`Route registered twice: ${info.method} ${info.path}`);
      }
      const steps = guards(info.auth);
      table.push({ ...info, steps: steps.map((s) => s.name) });
      if (options.onDrift) app.on(info.method, info.path, responseCheck(info, options.onDrift), guard(steps), handler);
      else app.on(info.method, info.path, guard(steps), handler);
    },
  };
}
