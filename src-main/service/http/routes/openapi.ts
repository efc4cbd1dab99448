// GET /api/openapi.json: the OpenAPI 3.1 document of every route in the registry, this one too.
import type { Router } from '../router';
import { openApiDocument, type OpenApiDocument } from '../openapi';

export function openApiRoutes(r: Router): void {
  let doc: OpenApiDocument | null = null;
  r.route({
    method: 'GET', path: '/api/openapi.json', auth: { kind: 'public' }, tags: ['meta'],
    summary: 'The OpenAPI 3.1 document of this service',
    responses: { 200: { contentType: 'application/json', description: 'OpenAPI 3.1 document (docs/openapi.json)' } },
    // Built on first use, when every route is registered.
    handler: (c) => c.json(doc ??= openApiDocument(r.table)),
  });
}
