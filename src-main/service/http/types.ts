// The Hono environment shared by middleware and routes.
import type { IncomingMessage } from 'node:http';
import type { Env } from 'hono';
import type { Product, RateCategory, Role } from '../../../src-shared/catalog';
import type { SessionContext } from '../core/accounts/accounts';
import type { ResolvedKey } from '../core/keys/keys';
import type { OrgRow } from '../core/accounts/repo';

export interface AppEnv extends Env {
  Bindings: { incoming?: IncomingMessage };
  Variables: {
    key: ResolvedKey;
    org: OrgRow;
    session: SessionContext;
  };
}

/** How a route authenticates. The route table drives the shared security tests. */
export type AuthSpec =
  | { kind: 'public'; category?: RateCategory }
  | {
      kind: 'key';
      /** null = any valid key of the organisation. */
      scope: Product | null;
      category: Exclude<RateCategory, 'health'>;
      /** Product whose multiplier applies to verification limits. */
      product?: Product;
      /**
       * Where the key may come from: X-API-Key (default); a Bearer key (hosted sessions); or
       * X-API-Key or the multipart form field `clientKey` (spec: /api/verify).
       */
      via?: 'header' | 'bearer' | 'header-or-form';
    }
  | { kind: 'secret' }
  | { kind: 'session'; roles?: readonly Role[] };

export interface RouteInfo {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  auth: AuthSpec;
}
