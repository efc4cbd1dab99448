// Swagger UI, kept as published (swagger-ui-dist) and bundled with the console: loaded only when
// the API reference opens, so the rest of the console does not carry it. Nothing comes from a CDN.
import SwaggerUIBundle from 'swagger-ui-dist/swagger-ui-es-bundle.js';
import 'swagger-ui-dist/swagger-ui.css';
import './swagger-theme.css';

export interface MountOptions {
  /** The document: the service's GET /api/openapi.json, already fetched. */
  spec: object;
  /** Every "Try it" request passes through here (see ApiReferenceScreen). */
  authorize: (headers: Record<string, string>, url: string) => void;
}

/**
 * Swagger UI draws its operations (and schemas) in <main> elements, inside the console's own main
 * landmark: a page with two or three "main" regions. Each is named and made a region instead, as
 * Swagger UI draws or redraws it; so is its unlabelled server list.
 */
function demoteMains(root: HTMLElement): void {
  const demote = () => {
    for (const m of root.querySelectorAll('main:not([role])')) {
      m.setAttribute('role', 'region');
      if (!m.hasAttribute('aria-label')) m.setAttribute('aria-label', m.id === 'operations' ? 'Operations' : 'API section');
    }
    // Its server list is a <select> whose "Servers" title is not its label: named here.
    for (const s of root.querySelectorAll('select#servers:not([aria-label])')) s.setAttribute('aria-label', 'Server');
  };
  new MutationObserver(demote).observe(root, { childList: true, subtree: true });
  demote();
}

export function mountSwagger(domNode: HTMLElement, opts: MountOptions): void {
  demoteMains(domNode);
  SwaggerUIBundle({
    domNode,
    spec: opts.spec,
    deepLinking: false,
    // No call to swagger.io's online validator: nothing leaves this computer.
    validatorUrl: null,
    persistAuthorization: false,
    defaultModelsExpandDepth: 0,
    docExpansion: 'list',
    requestInterceptor: (req) => {
      opts.authorize(req.headers, req.url);
      // Never the analyst's session: "Try it" on a console route must not act as them for real.
      req.credentials = 'omit';
      return req;
    },
  });
}
