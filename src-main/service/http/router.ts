// The route registry: the one way a route exists. Each entry carries its auth spec, its request
// and response schemas and its handler; the registry mounts the guard composed from the auth
// spec, records the entry in the route table (security tests, OpenAPI), and, in tests, holds
// every answer to the schema declared for its status.
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { AppError, type ErrorCode } from '../../../src-shared/errors';
import type { Services } from '../compose';
import { clientAddress, createGuards, guard } from './auth';
import { isContentBody, responseCheck, type DriftHandler } from './response-check';
import type { AppEnv, AuthSpec, RouteEntry, RouteInfo, RouteInput, RouteRequest } from './types';
import { acceptsMediaType, createUploadLimits, identify, JSON_LIMIT, newClaim, readBounded, releaseClaim, type BodyClaim, type UploadLimits } from './body';
import { parseJsonText, parseQuery } from './validate';
import { createVersions, etagOf } from './versions';

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
  /** The upload budgets and body pace (body.ts; tests make them small). */
  uploads?: UploadLimits;
}

export function createRouter(app: Hono<AppEnv>, services: Services, options: RegistryOptions = {}): Router {
  const table: RouteInfo[] = [];
  const guards = createGuards(services);
  const uploads = options.uploads ?? createUploadLimits();
  const versions = createVersions(app, table);
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
      // The request's input (bounded body, declared schemas) is made first, so the guard can read
      // a form field through it too; the body's bytes stay claimed until the answer is made (a
      // streamed answer may still be running: its chunk was parsed into rows already).
      const prepare: MiddlewareHandler<AppEnv> = async (c, next) => {
        c.set('authKind', info.auth.kind);
        const claim: BodyClaim = newClaim(uploads, clientAddress(c));
        c.set('input', inputOf(c, info.path, info.auth, info.request, claim));
        try {
          await next();
        } finally {
          releaseClaim(claim);
        }
      };
      // Past the guard of a route with credentials, the caller is known: its body (unless read to
      // find the key) draws on the main budget. A public route says when it knows (`identified`).
      const run = async (c: Context<AppEnv>) => {
        const input = c.get('input') as RouteInput<Q, B>;
        if (info.auth.kind !== 'public') input.identified();
        if (!versions.applies(info)) return handler(c, input);
        // A setting read and written on one path: the write is refused when what its sender saw
        // (If-Match, the ETag of their read) is no longer what the read answers (versions.ts).
        if (info.method !== 'GET') await versions.check(c);
        const res = await handler(c, input);
        if (info.method === 'GET' ? res.status !== 200 : !res.ok) return res;
        // A new answer with the ETag: the node server's answers do not keep headers set on them.
        const bytes = new Uint8Array(await res.arrayBuffer());
        const headers = new Headers(res.headers);
        headers.set('ETag', info.method === 'GET' ? etagOf(bytes) : await versions.current(c));
        return new Response(bytes, { status: res.status, headers });
      };
      if (options.onDrift) app.on(info.method, info.path, responseCheck(info, options.onDrift), prepare, guard(steps), run);
      else app.on(info.method, info.path, prepare, guard(steps), run);
    },
  };
}

/** The handler's view of the request: only what the entry declares, parsed with its schemas. */
function inputOf<Q extends z.ZodObject, B extends z.ZodType>(
  c: Context<AppEnv>, path: string, auth: AuthSpec, req: RouteRequest<Q, B> | undefined, claim: BodyClaim,
): RouteInput<Q, B> {
  const fallback: ErrorCode = auth.kind === 'session' ? 'account_validation' : 'invalid_parameters';
  const invalid = (part: 'query' | 'body'): ErrorCode =>
    typeof req?.invalid === 'string' ? req.invalid : (req?.invalid?.[part] ?? fallback);
  let bytes: Promise<Uint8Array> | undefined;
  let text: Promise<string> | undefined;
  const readText = (): Promise<string> => (text ??= read().then((b) => new TextDecoder().decode(b)));
  const read = (): Promise<Uint8Array> => {
    const spec = req?.body;
    if (!spec) throw new Error(`${path}: the route declares no body`);
    return (bytes ??= (async () => {
      const taken = isContentBody(spec) ? spec : { json: true as const };
      if (!acceptsMediaType(c.req.header('content-type'), taken)) {
        const wanted = 'json' in taken ? 'application/json' : [taken.contentType, ...(taken.accept ?? [])].join(' or ');
        throw new AppError('unsupported_media_type', { message: `Send this request's body as ${wanted}` });
      }
      return readBounded(c, req.maxBytes ?? JSON_LIMIT, claim);
    })());
  };
  return {
    identified: () => identify(claim),
    query() {
      if (!req?.query) throw new Error(`${path}: the route declares no query schema`);
      return parseQuery(c, req.query, { error: invalid('query') });
    },
    bytes: read,
    text: readText,
    async form() {
      const bytes = await read();
      return new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'Content-Type': c.req.header('content-type') ?? '' } }).formData().catch(() => {
        throw new AppError(invalid('body'), { message: 'The request body is not a readable form' });
      });
    },
    async body() {
      const schema = req?.body;
      if (!schema || isContentBody(schema)) throw new Error(`${path}: the route declares no JSON body schema`);
      return parseJsonText(await readText(), schema, { error: invalid('body') });
    },
  };
}
