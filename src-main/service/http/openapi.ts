// The OpenAPI 3.1 document, generated from the route registry with zod 4's own JSON Schema
// output: every route with its security, parameters, request body and answers. Response schemas
// that src-shared exports are components named as exported; the rest are named after their
// operation. Requests are inlined in their input form (what a client sends, defaults optional).
import { z } from 'zod';
import { API_VERSION } from '../../../src-shared/catalog';
import * as accounts from '../../../src-shared/contracts/accounts';
import * as age from '../../../src-shared/contracts/age';
import * as audit from '../../../src-shared/contracts/audit';
import * as batch from '../../../src-shared/contracts/batch';
import * as common from '../../../src-shared/contracts/common';
import * as lists from '../../../src-shared/contracts/lists';
import * as review from '../../../src-shared/contracts/review';
import * as screening from '../../../src-shared/contracts/screening';
import * as status from '../../../src-shared/contracts/status';
import * as webhooks from '../../../src-shared/contracts/webhooks';
import * as errors from '../../../src-shared/errors';
import { SESSION_COOKIE } from './auth';
import { isContentBody } from './response-check';
import type { AuthSpec, BodySpec, RouteInfo } from './types';
import { rolesFor } from '../../../src-shared/policy';

type Json = Record<string, unknown>;
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: Json;
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
  [k: string]: unknown;
}

const MODULES: readonly Record<string, unknown>[] = [errors, common, screening, batch, lists, status, accounts, review, audit, age, webhooks];
const TARGET = 'draft-2020-12' as const;
const ref = (id: string) => `#/components/schemas/${id}`;

export const SECURITY_SCHEMES = {
  ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'API key (svk- followed by 32 characters), with the product scope the operation names.' },
  BearerApiKey: { type: 'http', scheme: 'bearer', description: 'The API key sent as Authorization: Bearer <API key>.' },
  BearerSecret: { type: 'http', scheme: 'bearer', description: 'The secret (svsk- followed by 48 characters) sent as Authorization: Bearer <secret>.' },
  Session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'Console session cookie (POST /api/auth/login).' },
} as const;

export function securityOf(auth: AuthSpec): Record<string, string[]>[] {
  switch (auth.kind) {
    case 'public':
      return [];
    case 'secret':
      return [{ BearerSecret: [] }];
    case 'session':
      return [{ Session: [] }];
    case 'key':
      return [auth.via === 'bearer' ? { BearerApiKey: [] } : { ApiKey: [] }];
  }
}

/** The auth spec's details a security requirement cannot say (scope, roles, rate category, plan product). */
function authExtension(auth: AuthSpec): Json {
  switch (auth.kind) {
    case 'public':
      return { kind: 'public', ...(auth.category ? { rate_category: auth.category } : {}) };
    case 'secret':
      return { kind: 'secret', rate_category: 'read' };
    case 'session':
      return {
        kind: 'session', ...(auth.act ? { roles: [...rolesFor(auth.act)] } : {}), ...(auth.credits ? { sees_credits: true } : {}),
        ...(auth.product ? { plan_product: auth.product } : {}),
      };
    case 'key':
      return {
        kind: 'key', scope: auth.scope, rate_category: auth.category,
        ...(auth.product ? { product: auth.product } : {}),
        ...(auth.via === 'header-or-form' ? { also_form_field: 'clientKey' } : {}),
      };
  }
}

export function operationId(r: Pick<RouteInfo, 'method' | 'path'>): string {
  const words = r.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return r.method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

function inline(schema: z.ZodType): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: TARGET, io: 'input', unrepresentable: 'any', metadata: z.registry() }) as Json;
  return rest;
}

function refsIn(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.add(v);
      else refsIn(v, out);
    }
  }
}

/** The error statuses an operation can answer, from its auth spec and path; `default` covers the rest. */
function errorStatuses(auth: AuthSpec, path: string, hasBody: boolean, method: string): number[] {
  const out = new Set<number>([400, 500]);
  // Anything that writes can meet a full disk: 507 INSUFFICIENT_STORAGE (core/storage/storage.ts).
  if (method !== 'GET') out.add(507);
  // A body can be too large, of a type the route does not take, or arrive while the upload budget is spent.
  if (hasBody) for (const code of [413, 415, 503]) out.add(code);
  if (path.includes(':')) out.add(404);
  if ((auth.kind === 'key' && auth.category === 'verification') || (auth.kind === 'session' && auth.product)) out.add(402);
  if (auth.kind !== 'public') out.add(401);
  if (auth.kind === 'session' && (auth.act || auth.credits || auth.product)) out.add(403);
  if (auth.kind === 'key') {
    out.add(429);
    if ((auth.product ?? auth.scope) === 'compliance' || (auth.product ?? auth.scope) === 'age') out.add(403);
  }
  if (auth.kind === 'secret' || (auth.kind === 'public' && auth.category === 'health')) out.add(429);
  return [...out].sort((a, b) => a - b);
}

export function openApiDocument(routes: readonly RouteInfo[]): OpenApiDocument {
  // Names: every schema src-shared exports, by its export name (first name wins for aliases).
  const registry = z.registry<{ id: string }>();
  const named = new Set<string>();
  for (const mod of MODULES) {
    for (const [name, value] of Object.entries(mod)) {
      if (value instanceof z.ZodType && !registry.has(value) && !named.has(name)) {
        registry.add(value, { id: name });
        named.add(name);
      }
    }
  }
  // Response schemas nobody exported are named after their operation.
  for (const r of routes) {
    for (const [code, spec] of Object.entries(r.responses)) {
      const schema = isContentBody(spec) ? spec.schema : spec;
      if (schema && !registry.has(schema)) registry.add(schema, { id: `${operationId(r)}${code}` });
    }
  }
  const converted = z.toJSONSchema(registry, { target: TARGET, io: 'output', unrepresentable: 'any', uri: ref }).schemas;
  const idOf = (schema: z.ZodType) => ref(registry.get(schema)!.id);

  const body = (spec: BodySpec, description: string): Json => {
    if (!isContentBody(spec)) return { description, content: { 'application/json': { schema: { $ref: idOf(spec) } } } };
    const schema = spec.schema ? { $ref: idOf(spec.schema) } : { type: 'string', format: 'binary' };
    return { description: spec.description, content: Object.fromEntries([spec.contentType, ...(spec.accept ?? [])].map((type) => [type, { schema }])) };
  };

  const paths: OpenApiDocument['paths'] = {};
  for (const r of routes) {
    const parameters: Json[] = [];
    const names = [...r.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
    for (const name of names) {
      const field = r.request?.params?.shape[name] as z.ZodType | undefined;
      parameters.push({ name, in: 'path', required: true, schema: field ? inline(field) : { type: 'string' } });
    }
    if (r.request?.query) {
      const q = inline(r.request.query) as { properties?: Record<string, Json>; required?: string[] };
      for (const [name, schema] of Object.entries(q.properties ?? {})) {
        parameters.push({ name, in: 'query', required: (q.required ?? []).includes(name), schema });
      }
    }
    const responses: Json = {};
    for (const [code, spec] of Object.entries(r.responses)) responses[code] = body(spec, r.summary);
    for (const code of errorStatuses(r.auth, r.path, r.request?.body !== undefined, r.method)) {
      responses[String(code)] ??= { description: 'Error', content: { 'application/json': { schema: { $ref: ref('ErrorBody') } } } };
    }
    responses.default = { description: 'Error', content: { 'application/json': { schema: { $ref: ref('ErrorBody') } } } };
    const reqBody = r.request?.body;
    const requestBody = reqBody === undefined
      ? undefined
      : isContentBody(reqBody)
        ? {
            required: true, description: reqBody.description,
            content: Object.fromEntries([reqBody.contentType, ...(reqBody.accept ?? [])].map((type) => [
              type, { schema: reqBody.schema ? inline(reqBody.schema) : { type: 'string', format: 'binary' } },
            ])),
          }
        : { required: true, content: { 'application/json': { schema: inline(reqBody) } } };
    const op: Json = {
      operationId: operationId(r),
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      ...(r.tags ? { tags: [...r.tags] } : {}),
      security: securityOf(r.auth),
      'x-auth': authExtension(r.auth),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
    (paths[openApiPath(r.path)] ??= {})[r.method.toLowerCase()] = op;
  }

  // Only the components something refers to, each without the converter's $schema/$id.
  const schemas: Record<string, Json> = {};
  const pending = new Set<string>();
  refsIn(paths, pending);
  while (pending.size > 0) {
    const [next] = pending;
    pending.delete(next!);
    const id = next!.slice(ref('').length);
    if (schemas[id] || !converted[id]) continue;
    const { $schema: _s, $id: _i, ...rest } = converted[id] as Json;
    schemas[id] = rest;
    const inner = new Set<string>();
    refsIn(rest, inner);
    for (const r of inner) if (!schemas[r.slice(ref('').length)]) pending.add(r);
  }
  const sorted = Object.fromEntries(Object.keys(schemas).sort().map((k) => [k, schemas[k]!]));

  return {
    openapi: '3.1.0',
    info: {
      title: 'Compliance Console service API',
      version: API_VERSION,
      // Shown at the top of the console's API reference: for the people who call the API. (The
      // document is generated from the route registry; `npm run build` writes docs/openapi.json.)
      description: 'The API of this Compliance Console service. Verification and screening products take an API key (Bearer, or key and secret); '
        + 'hosted sessions take a key to make and the link\'s token to complete; the account APIs take the console\'s signed-in session. '
        + 'Test keys never touch live data or credits.',
    },
    // Relative: the service runs on whichever local port (or LAN address) it was started on.
    servers: [{ url: '/', description: 'This service' }],
    paths,
    components: { schemas: sorted, securitySchemes: SECURITY_SCHEMES },
  };
}
