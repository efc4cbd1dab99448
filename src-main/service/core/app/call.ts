// The use-case layer's way in and out. A caller (a route, the hosted page's completion, the age
// gate, the console's try panel, the CLI) says who pays and, when its request carried one, the
// Idempotency-Key; a use case bills through `bill` and answers plain data. Nothing here knows HTTP.
import { createHash } from 'node:crypto';
import type { Billable } from '../../../../src-shared/catalog';
import type { Credits } from '../credits/credits';
import type { Idempotency } from '../idempotency/idempotency';
import type { Storage } from '../storage/storage';
import type { BillableRequest, Billed, Billing, Outcome, Payer, WorkContext } from '../verification/billing';

/**
 * What a use case that charges is given (a use case declares the few services it uses, never the
 * whole set compose.ts builds): billing and idempotency for the act, the disk's reserve, the balance.
 */
export interface ChargeDeps {
  billing: Billing;
  idempotency: Idempotency;
  storage: Storage;
  credits: Credits;
}

export interface Call {
  payer: Payer;
  /**
   * The request's Idempotency-Key and where it was sent: a retried key answers the first result,
   * uncharged, when method, path and what the use case was given are the same.
   */
  idempotency?: { key: string; method: string; path: string } | undefined;
  /** The analyst signed in, when the console asks (a report names who acted). */
  analyst?: { email: string } | undefined;
  /** One of several acts paid for once: a hosted session's attempts (its first billable act is charged, the rest are rows of 0 credits). */
  paidOnce?: BillableRequest<unknown>['paidOnce'];
}

/** The organisation itself pays (console work, a storefront, a session made in the console): no key. */
export const orgPayer = (orgId: number, env: Payer['env']): Payer => ({ id: null, orgId, env, demo: false });

/** A use case's answer: its body, and whether it is the replay of a retried Idempotency-Key. */
export interface Answer<R> {
  body: R;
  replayed: boolean;
}

export interface BillOptions<R> {
  operation: Billable;
  idPrefix: string;
  /** What the request said, for the idempotency fingerprint (the body as sent, or a digest of an upload). */
  bodyText: string;
  events?: BillableRequest<R>['events'];
  alsoRecord?: BillableRequest<R>['alsoRecord'];
  free?: boolean;
  /** One of several acts paid for once (a hosted session's recordings); the call's otherwise. */
  paidOnce?: BillableRequest<R>['paidOnce'];
  /**
   * false: the attempt is recorded but never kept under the request's Idempotency-Key (a
   * provider outage: the next attempt with the same key may well succeed).
   */
  replayable?: boolean;
}

/** The one way a use case charges or records an attempt: core billing, with the call's idempotency. */
export async function bill<R>(s: ChargeDeps, call: Call, opts: BillOptions<R>, work: (ctx: WorkContext) => Promise<Outcome<R>>): Promise<Billed<R>> {
  // Every billed act writes a ledger row: on a disk below its reserve it is refused before any
  // work is done or anything charged (507 INSUFFICIENT_STORAGE; core/storage/storage.ts).
  s.storage.require();
  const idem = opts.replayable === false ? undefined : call.idempotency;
  const paidOnce = opts.paidOnce ?? call.paidOnce;
  const billed = await s.billing.run(
    {
      key: call.payer,
      operation: opts.operation,
      idPrefix: opts.idPrefix,
      ...(opts.events ? { events: opts.events } : {}),
      ...(opts.alsoRecord ? { alsoRecord: opts.alsoRecord } : {}),
      ...(opts.free ? { free: true } : {}),
      ...(paidOnce ? { paidOnce } : {}),
      ...(idem ? { idempotency: { key: idem.key, fingerprint: s.idempotency.fingerprint(idem.method, idem.path, opts.bodyText) } } : {}),
    },
    work,
  );
  s.storage.written();
  return billed;
}

/** The balance a product answer reports: after this request, or the organisation's (test and demo keys have none of their own). */
export async function creditsAfter(s: Pick<ChargeDeps, 'credits'>, call: Call, billed: Pick<Billed<unknown>, 'creditsRemaining'>): Promise<number> {
  return billed.creditsRemaining ?? s.credits.balance(call.payer.orgId);
}

/** What an upload said, for the idempotency fingerprint: a digest of its bytes (an upload is not text). */
export function uploadDigest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
