// The Hono environment shared by middleware and routes.
import type { IncomingMessage } from 'node:http';
import type { Context, Env } from 'hono';
import type { z } from 'zod';
import type { ErrorCode } from '../../../src-shared/errors';
import type { Product, RateCategory } from '../../../src-shared/catalog';
import type { SessionContext } from '../core/accounts/accounts';
import type { ResolvedKey } from '../core/keys/keys';
import type { OrgRow } from '../core/accounts/repo';
import type { Act } from '../../../src-shared/policy';
import type { Forwarded } from './proxy';

export interface AppEnv extends Env {
  /**
   * The node server's request; `listener: 'team'` on the team server's (http/onsite.ts);
   * `forwarded` when a trusted reverse proxy passed the request on (http/proxy.ts).
   */
  Bindings: { incoming?: IncomingMessage; listener?: 'team'; authorities?: readonly string[]; forwarded?: Forwarded };
  Variables: {
    key: ResolvedKey;
    org: OrgRow;
    session: SessionContext;
    /** The request as its route entry declares it (router.ts); the guard reads a form field through it. */
    input: RouteInput;
    /** The matched route's auth kind (router.ts): errors on session routes take the account APIs' shape. */
    authKind: AuthSpec['kind'];
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
  | {
      kind: 'session';
      /** The act (src-shared/policy.ts) the signed-in user's role must allow; any role when absent. */
      act?: Act;
      /** Only for users who see credits (policy.seesCredits: owners, admins, members with billing access). */
      credits?: true;
      /** A product the organisation's plan must include (policy.planAllows). */
      product?: Product;
      /** The error a signed-in user whose role does not allow `act` gets (default `permission_denied`). */
      denied?: ErrorCode;
    };

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A body that is not one JSON document: a file upload, a CSV or PDF download, or NDJSON (whose
 * `schema`, when given, describes each line).
 */
export interface ContentBody {
  contentType: string;
  description: string;
  schema?: z.ZodType;
  /**
   * Other media types taken for the same bytes (a CSV sent as text/plain, say; others answer 415),
   * or, for an answer, the other media types it may come as (an export's PDF or CSV).
   */
  accept?: readonly string[];
}

/** A JSON body is its zod schema; anything else says its content type. */
export type BodySpec = z.ZodType | ContentBody;

export interface RouteRequest<Q extends z.ZodObject = z.ZodObject, B extends z.ZodType = z.ZodType> {
  query?: Q;
  /** Path parameters; strings named as in the path when not given. */
  params?: z.ZodObject;
  body?: B | ContentBody;
  /** The body's size limit in bytes (default 1 MiB); larger bodies answer 413 while they stream. */
  maxBytes?: number;
  /**
   * The error a request that fails its schema gets: one code, or one for the query and one for
   * the body. Default: `account_validation` for session routes, else `invalid_parameters`.
   */
  invalid?: ErrorCode | { query?: ErrorCode; body?: ErrorCode };
}

/** The request as the entry declares it, parsed on demand with the entry's own schemas. */
export interface RouteInput<Q extends z.ZodObject = z.ZodObject, B extends z.ZodType = z.ZodType> {
  /**
   * The caller is known (the guard's credentials, or a public route's session found): a body not
   * read yet draws on the main upload budget, not the anonymous one (http/body.ts).
   */
  identified(): void;
  query(): z.output<Q>;
  /** The raw body as sent (bounded, media type checked): uploads. */
  bytes(): Promise<Uint8Array>;
  /** The raw body as text (bounded, media type checked), e.g. for an idempotency fingerprint. */
  text(): Promise<string>;
  body(): Promise<z.output<B>>;
  /** A multipart body (bounded, media type checked). */
  form(): Promise<FormData>;
}

/** One route: everything the app, the security tests and the OpenAPI document know of it. */
export interface RouteEntry<Q extends z.ZodObject = z.ZodObject, B extends z.ZodType = z.ZodType> {
  method: Method;
  /** Hono syntax: `/api/keys/:id/revoke`. */
  path: string;
  auth: AuthSpec;
  summary: string;
  description?: string;
  tags?: readonly string[];
  request?: RouteRequest<Q, B>;
  /** Every success answer by status. Error answers are the shared error bodies (errors.ts ErrorBody). */
  responses: Readonly<Record<number, BodySpec>>;
  handler: (c: Context<AppEnv>, input: RouteInput<Q, B>) => Response | Promise<Response>;
}

/** A registered route, as the route table lists it. */
export interface RouteInfo extends Omit<RouteEntry, 'handler'> {
  /** The named middleware steps the registry composed from the auth spec, in order. */
  steps: readonly string[];
}
