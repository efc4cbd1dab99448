// The OpenAPI 3.1 document: generated from the registry, served at GET /api/openapi.json, and
// checked in as docs/openapi.json (a stale file fails here).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiPath, operationId, securityOf, type OpenApiDocument } from '../http/openapi';
import { isContentBody } from '../http/response-check';
import { OPENAPI_FILE, openApiText } from '../../../scripts/write-openapi';
import { closeAll, testService, type TestService } from './harness';

afterAll(closeAll);

let t: TestService;
let doc: OpenApiDocument;
beforeAll(async () => {
  t = await testService();
  const res = await t.json<OpenApiDocument>('GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});

type Op = {
  operationId: string; security: unknown; parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, unknown> }; responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};

function resolve(ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    if (!at || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return at;
}

function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refs(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 in shape, and every $ref resolves', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: expect.any(String), version: '2.1.0' });
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['ApiKey', 'BearerApiKey', 'BearerSecret', 'Session']);
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.components.securitySchemes.Session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'cc_session' });
    expect(doc.components.securitySchemes.BearerSecret).toMatchObject({ type: 'http', scheme: 'bearer' });
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(50);
    expect([...new Set(all)].filter((r) => resolve(r) === undefined)).toEqual([]);
    for (const [path, ops] of Object.entries(doc.paths)) {
      expect(path).toMatch(/^\/[^:]*$/);
      for (const [method, op] of Object.entries(ops)) {
        expect(['get', 'post', 'put', 'patch', 'delete']).toContain(method);
        expect(Object.keys((op as Op).responses).length).toBeGreaterThan(0);
      }
    }
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => (op as Op).operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('lists every registered route with its method, security, parameters, request and response schemas, and the error body', () => {
    for (const r of t.routes) {
      const op = doc.paths[openApiPath(r.path)]?.[r.method.toLowerCase()] as Op | undefined;
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      if (!op) continue;
      expect(op.operationId).toBe(operationId(r));
      expect(op.security).toEqual(securityOf(r.auth));
      expect(op.security).toEqual(r.auth.kind === 'public' ? [] : [expect.any(Object)]);
      for (const name of [...r.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1])) {
        expect(op.parameters).toContainEqual(expect.objectContaining({ name, in: 'path', required: true }));
      }
      for (const name of Object.keys(r.request?.query?.shape ?? {})) {
        expect(op.parameters).toContainEqual(expect.objectContaining({ name, in: 'query' }));
      }
      if (r.request?.body) {
        const types = isContentBody(r.request.body) ? [r.request.body.contentType, ...(r.request.body.accept ?? [])] : ['application/json'];
        expect(Object.keys(op.requestBody?.content ?? {})).toEqual(types);
      } else {
        expect(op.requestBody).toBeUndefined();
      }
      for (const [code, spec] of Object.entries(r.responses)) {
        const type = isContentBody(spec) ? spec.contentType : 'application/json';
        const content = op.responses[code]?.content?.[type];
        expect(content, `${r.method} ${r.path} ${code}`).toBeDefined();
        if (!isContentBody(spec) || spec.schema) expect(content?.schema).toEqual({ $ref: expect.stringMatching(/^#\/components\/schemas\//) });
      }
      expect(op.responses.default?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    }
  });

  it('the screening response carries the spec\'s fields, list versions and matcher version', () => {
    const s = doc.components.schemas.ScreeningResponse as { required: string[]; properties: Record<string, { properties?: Record<string, unknown> }> };
    expect(s.required).toEqual(expect.arrayContaining([
      'id', 'object', 'livemode', 'created', 'status', 'client_reference_id', 'subject_type', 'provider', 'screening', 'risk', 'matches', 'flags',
      'data_retention', 'metadata',
    ]));
    expect(Object.keys(s.properties.screening?.properties ?? {})).toEqual(expect.arrayContaining(['list_versions', 'matcher_version']));
  });

  it('the served document is the checked-in docs/openapi.json (run `npm run build` after changing a route)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(openApiText(doc));
  });

  it('is served without credentials', async () => {
    const res = await t.call('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
