// The route registry: the one way a route exists. Each entry carries its auth spec, its request
// and response schemas and its handler; the registry mounts the guard composed from the auth
// spec, records the entry in the route table (security tests, OpenAPI), and, in tests, holds
// every answer to the schema declared for its status.
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import type { ErrorCode } from '../../../src-shared/errors';
import type { Services } from '../compose';
import { createGuards, guard } from './auth';
import { isContentBody, responseCheck, type DriftHandler } from './response-check';
import type { AppEnv, AuthSpec, RouteEntry, RouteInfo, RouteInput, RouteRequest } from './types';
import { parseJsonText, parseQuery, readBody } from './validate';

/** What a route module gets: the services and the registry. No Hono app: nothing is mounted past it. */
export interface Router {
  readonly services: Services;
  route<Q extends z.ZodObject = z.ZodObject, B extends z.ZodType = z.ZodType>(entry: RouteEntry<Q, B>): void;
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
    route<Q extends z.ZodObject, B extends z.ZodType>(entry: RouteEntry<Q, B>) {
      const { handler, ...info } = entry;
      if (table.some((r) => r.method === info.method && r.path === info.path)) {
        throw new Error(`Route registered twice: ${info.method} ${info.path}`);
      }
      const steps = guards(info.auth);
      table.push({ ...info, steps: steps.map((s) => s.name) });
      const run = (c: Context<AppEnv>) => handler(c, inputOf(c, info.path, info.auth, info.request));
      if (options.onDrift) app.on(info.method, info.path, responseCheck(info, options.onDrift), guard(steps), run);
      else app.on(info.method, info.path, guard(steps), run);
    },
  };
}

/** The handler's view of the request: only what the entry declares, parsed with its schemas. */
function inputOf<Q extends z.ZodObject, B extends z.ZodType>(
  c: Context<AppEnv>, path: string, auth: AuthSpec, req: RouteRequest<Q, B> | undefined,
): RouteInput<Q, B> {
  const fallback: ErrorCode = auth.kind === 'session' ? 'account_validation' : 'invalid_parameters';
  const invalid = (part: 'query' | 'body'): ErrorCode =>
    typeof req?.invalid === 'string' ? req.invalid : (req?.invalid?.[part] ?? fallback);
  let text: Promise<string> | undefined;
  return {
    query() {
      if (!req?.query) throw new Error(`${path}: the route declares no query schema`);
      return parseQuery(c, req.query, { error: invalid('query') });
    },
    text: () => (text ??= readBody(c)),
    async body() {
      const schema = req?.body;
      if (!schema || isContentBody(schema)) throw new Error(`${path}: the route declares no JSON body schema`);
      return parseJsonText(await (text ??= readBody(c)), schema, { error: invalid('body') });
    },
  };
}
