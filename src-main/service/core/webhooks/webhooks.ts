// Webhooks: endpoints, a durable outbox written in the same transaction as the result it
// reports, and a dispatcher that leases due deliveries, signs and POSTs them, and retries with
// exponential backoff. Survives restarts and, on PostgreSQL, the death of an instance: state is in
// the database, leases expire, and one instance at a time leases (each delivery is sent by one).
import type { Environment } from '../../../../src-shared/catalog';
import type { WebhookDelivery, WebhookEndpoint, WebhookEventType } from '../../../../src-shared/contracts/webhooks';
import { AppError } from '../../../../src-shared/errors';
import type { Engine, Q } from '../../db/engine';
import { retryDelay } from '../../jobs/backoff';
import type { Clock } from '../clock';
import { newId, nowIso, randomBase62 } from '../ids';
import { SIGNATURE_HEADER, sign, TIMESTAMP_HEADER } from './signing';
import { webhooksRepo, type DeliveryRow, type EndpointRow } from './repo';
import { guardedLookup, RANGE_WORDS, refusedHost, type Resolve } from './destination';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export const MAX_ATTEMPTS = 10;
/** Endpoints per organisation: each event is one delivery row per endpoint, so they bound the outbox. */
export const MAX_ENDPOINTS = 10;
export const DELIVERY_TIMEOUT_MS = 10_000;
const LEASE_MS = 60_000;
/** Any fixed number: the lock instances lease deliveries under (engine.exclusive). */
const LEASE_LOCK = 4_310_101;
const EVENT_RETENTION_MS = 7 * 24 * 3600_000;

export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export interface WebhookEvent {
  type: WebhookEventType;
  /** Public-safe fields only: ids, statuses, risk, flags. Never subject data. */
  fields: Record<string, unknown>;
}

/** After a rotation, how long the previous secret keeps signing (receivers switch in that time). */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;
export const NEXT_SIGNATURE_HEADER = 'X-Service-Signature-Next';

const rotating = (r: { previous_secret: string | null; previous_secret_until: string | null }, now: number) =>
  r.previous_secret !== null && r.previous_secret_until !== null && Date.parse(r.previous_secret_until) > now;

/**
 * The signature headers of a delivery. During a rotation's overlap X-Service-Signature is still
 * made with the previous secret (receivers that have not switched keep working) and
 * X-Service-Signature-Next with the new one (a receiver that switched early checks that); after
 * it, X-Service-Signature alone, with the new secret.
 */
export function signatureHeaders(
  e: { secret: string; previous_secret: string | null; previous_secret_until: string | null; payload: string }, now: number,
): Record<string, string> {
  if (!rotating(e, now)) return { [SIGNATURE_HEADER]: sign(e.secret, e.payload) };
  return { [SIGNATURE_HEADER]: sign(e.previous_secret!, e.payload), [NEXT_SIGNATURE_HEADER]: sign(e.secret, e.payload) };
}

function toEndpoint(r: EndpointRow, now: number): WebhookEndpoint {
  return {
    id: r.id, url: r.url, env: r.env, events: r.events.split(','), description: r.description,
    secret_prefix: r.secret.slice(0, 10), created_at: r.created_at, disabled_at: r.disabled_at,
    previous_secret_until: rotating(r, now) ? r.previous_secret_until : null,
  };
}

function toDelivery(r: DeliveryRow & { type: string }): WebhookDelivery {
  return {
    id: r.id, event_id: r.event_id, event: r.type, state: r.state, attempts: r.attempts, last_status: r.last_status,
    last_error: r.last_error, last_latency_ms: r.last_latency_ms,
    next_attempt_at: r.state === 'pending' ? r.next_attempt_at : null, created_at: r.created_at, completed_at: r.completed_at,
  };
}

/** A short, fixed description of a failure: never a response body or anything a receiver sent. */
function describeFailure(e: unknown): string {
  if (e instanceof Error) {
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timeout';
    const own = (e as { code?: unknown }).code;
    if (own === 'EDESTINATION') return e.message;
    const code = (e as { cause?: { code?: unknown } }).cause?.code ?? own;
    if (typeof code === 'string') return code;
  }
  return 'network error';
}

/**
 * A POST over node's http(s) whose connection is made only to addresses the destination rule
 * allows (destination.ts guardedLookup); the answer's status, its body drained unread.
 */
function guardedFetch(allowed: readonly string[], resolve?: Resolve): Fetch {
  return (url, init) =>
    new Promise<Response>((done, fail) => {
      const u = new URL(url);
      const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(u, {
        method: init.method ?? 'POST', headers: init.headers as Record<string, string>, lookup: guardedLookup(allowed, resolve),
        ...(init.signal ? { signal: init.signal } : {}),
      }, (res) => {
        res.resume();
        done(new Response(null, { status: res.statusCode ?? 500 }));
      });
      req.on('error', fail);
      req.end(typeof init.body === 'string' ? init.body : undefined);
    });
}

/** Deliveries in flight at once, and per endpoint: a receiver that never answers holds only its own. */
export const DELIVERY_SLOTS = { total: 32, perEndpoint: 8 } as const;

export function createWebhooks(engine: Engine, clock: Clock, opts: {
  /** Tests: a transport of their own (the destination rule on the URL's own host still applies). */
  fetch?: Fetch;
  /** The hosts the organisation's owner allowed as on-premises receivers (destination.ts). */
  privateHosts?: (orgId: number, q: Q) => Promise<readonly string[]>;
  /** Tests: the name resolution the delivery's lookup uses. */
  resolve?: Resolve;
} = {}) {
  const repo = webhooksRepo;
  const { q } = engine;
  const privateHosts = opts.privateHosts ?? (async () => []);
  let flying = 0;
  /** While the service keeps sending (startSending): asks for a lease now, outside the poll. */
  let poke: (() => void) | null = null;

  async function emitInTransaction(tx: Q, orgId: number, env: Environment, event: WebhookEvent, onlyEndpoint?: string): Promise<string | null> {
    const targets = (await repo.subscribed(tx, orgId, env))
      .filter((e) => (onlyEndpoint ? e.id === onlyEndpoint : e.events.split(',').includes(event.type)));
    if (targets.length === 0) return null;
    const now = clock.now();
    const id = newId('evt');
    const payload = JSON.stringify({
      event: event.type, event_id: id, timestamp: nowIso(now), environment: env, livemode: env === 'live', ...event.fields,
    });
    await repo.insertEvent(tx, { id, org_id: orgId, type: event.type, env, payload, created_at: nowIso(now) });
    await repo.insertDeliveries(tx, targets.map((t) => ({ id: newId('whd'), event_id: id, endpoint_id: t.id, next_attempt_at: nowIso(now), created_at: nowIso(now) })));
    return id;
  }

  /** An event in a transaction of its own; once committed, leased at once while the service keeps sending. */
  async function emitCommitted(orgId: number, env: Environment, event: WebhookEvent, onlyEndpoint?: string): Promise<string | null> {
    const id = await engine.transaction((tx) => emitInTransaction(tx, orgId, env, event, onlyEndpoint));
    if (id) poke?.();
    return id;
  }

  /**
   * Leases up to `free` due deliveries, oldest first, at most DELIVERY_SLOTS.perEndpoint of an
   * endpoint in flight counting those other instances are sending (their leases still run), so a
   * receiver that never answers holds only its own slots. One instance leases at a time (on
   * PostgreSQL an advisory lock for the transaction; SQLite's write lock is one already): a
   * delivery is leased once, and sent by the instance that leased it; a dead instance's leases run out.
   */
  async function lease(free: number): Promise<DeliveryRow[]> {
    const now = clock.now();
    return engine.transaction(async (tx) => {
      await engine.exclusive(tx, LEASE_LOCK);
      const at = nowIso(now);
      const busy = await repo.leasedPerEndpoint(tx, at);
      const chosen: string[] = [];
      // The candidates an endpoint at its cap gives are passed over: read that many more.
      const passedOver = [...busy.values()].reduce((a, n) => a + Math.min(n, DELIVERY_SLOTS.perEndpoint), 0);
      for (const d of await repo.due(tx, at, DELIVERY_SLOTS.perEndpoint, free + passedOver)) {
        if (chosen.length >= free) break;
        const n = busy.get(d.endpoint_id) ?? 0;
        if (n >= DELIVERY_SLOTS.perEndpoint) continue;
        busy.set(d.endpoint_id, n + 1);
        chosen.push(d.id);
      }
      const rows = await repo.lease(tx, chosen, nowIso(now + LEASE_MS));
      // The UPDATE answers in no set order: oldest first, as chosen.
      return chosen.map((id) => rows.find((r) => r.id === id)!).filter(Boolean);
    });
  }

  async function deliver(d: DeliveryRow): Promise<void> {
    const details = await repo.dueDetails(q, d.id);
    const attempts = d.attempts + 1;
    const now = () => nowIso(clock.now());
    if (!details || details.disabled_at) {
      await repo.finish(q, { id: d.id, state: 'failed', attempts: d.attempts, next_attempt_at: d.next_attempt_at, last_status: null,
        last_error: 'endpoint removed', last_latency_ms: null, completed_at: now() });
      return;
    }
    const timestamp = JSON.parse(details.payload).timestamp as string;
    const started = performance.now();
    let status: number | null = null;
    let error: string | null = null;
    const allowed = await privateHosts(details.org_id, q);
    // An address written in the URL never reaches the lookup: refused here (the owner may have
    // allowed it since the endpoint was added, or taken the allowance back).
    const refused = refusedHost(details.url, allowed);
    const doFetch = opts.fetch ?? guardedFetch(allowed, opts.resolve);
    try {
      if (refused) throw Object.assign(new Error(`destination refused: the URL names ${RANGE_WORDS[refused]}`), { code: 'EDESTINATION' });
      const res = await doFetch(details.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'ComplianceConsole-Webhooks/1',
          ...signatureHeaders(details, clock.now()),
          [TIMESTAMP_HEADER]: String(Math.floor(Date.parse(timestamp) / 1000)),
          'X-Service-Event': details.type,
          'X-Service-Delivery': d.id,
        },
        body: details.payload,
      });
      status = res.status;
      // Drain without reading into anything we keep.
      await res.body?.cancel();
      if (status < 200 || status >= 300) error = `http ${status}`;
    } catch (e) {
      error = describeFailure(e);
    }
    const latency = Math.round(performance.now() - started);
    const ok = error === null;
    const final = ok || attempts >= MAX_ATTEMPTS;
    await repo.finish(q, {
      id: d.id,
      state: ok ? 'succeeded' : final ? 'failed' : 'pending',
      attempts,
      next_attempt_at: final ? d.next_attempt_at : nowIso(clock.now() + retryDelay(attempts)),
      last_status: status,
      last_error: error,
      last_latency_ms: latency,
      completed_at: final ? now() : null,
    });
  }

  return {
    /** `tx`: the transaction that also writes the act's audit row. */
    async create(input: { orgId: number; url: string; env: Environment; events: string[]; description?: string; createdBy: number | null }, tx: Q = q) {
      if ((await repo.endpoints(tx, input.orgId)).length >= MAX_ENDPOINTS) {
        throw new AppError('resource_limit', {
          team_limit: MAX_ENDPOINTS, message: `At most ${MAX_ENDPOINTS} webhook endpoints per organization. Remove one first.`,
        });
      }
      const refused = refusedHost(input.url, await privateHosts(input.orgId, tx));
      if (refused) {
        throw new AppError('invalid_parameters', {
          message: `The URL names ${RANGE_WORDS[refused]}. Webhooks go to receivers on the internet; for a receiver on your own network, `
            + 'the owner names its host first (Settings → Webhook receivers on your network).',
          fields: [{ field: 'url', issue: 'private_destination' }],
        });
      }
      const secret = `whsec_${randomBase62(40)}`;
      const row: Omit<EndpointRow, 'disabled_at' | 'previous_secret' | 'previous_secret_until'> = {
        id: newId('whe', 16), org_id: input.orgId, url: input.url, env: input.env, events: [...new Set(input.events)].join(','),
        secret, description: input.description ?? null, created_by: input.createdBy, created_at: nowIso(clock.now()),
      };
      await repo.insertEndpoint(tx, row);
      return { endpoint: toEndpoint((await repo.endpoint(tx, row.id))!, clock.now()), secret };
    },

    list: async (orgId: number) => (await repo.endpoints(q, orgId)).map((r) => toEndpoint(r, clock.now())),

    async get(orgId: number, id: string, tx: Q = q): Promise<EndpointRow> {
      const row = await repo.endpoint(tx, id);
      if (!row || row.org_id !== orgId || row.disabled_at) throw new AppError('webhook_not_found');
      return row;
    },

    /** Gone with its delivery log: a create-and-remove loop leaves nothing behind. */
    async remove(orgId: number, id: string, tx: Q = q): Promise<void> {
      await this.get(orgId, id, tx);
      await repo.remove(tx, id);
    },

    async deliveries(orgId: number, id: string, limit = 50): Promise<WebhookDelivery[]> {
      await this.get(orgId, id);
      return (await repo.deliveries(q, id, limit)).map(toDelivery);
    },

    /** A new signing secret (shown once); the old one keeps signing for ROTATION_OVERLAP_MS. */
    async rotateSecret(orgId: number, id: string, tx: Q = q): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
      const ep = await this.get(orgId, id, tx);
      if (rotating(ep, clock.now())) throw new AppError('conflict', { message: 'A rotation of this secret is still in its overlap. Rotate again after it ends.' });
      const secret = `whsec_${randomBase62(40)}`;
      await repo.rotate(tx, id, secret, nowIso(clock.now() + ROTATION_OVERLAP_MS));
      return { endpoint: toEndpoint((await repo.endpoint(tx, id))!, clock.now()), secret };
    },

    /**
     * A failed delivery tried again now (once: it keeps its attempt count, so one more failure
     * ends it again). Pending or succeeded deliveries are a conflict; another endpoint's, not found.
     */
    async retry(orgId: number, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
      await this.get(orgId, endpointId);
      const row = await repo.delivery(q, deliveryId, endpointId);
      if (!row) throw new AppError('webhook_not_found', { message: 'Delivery not found' });
      if (!(await repo.retry(q, deliveryId, endpointId, nowIso(clock.now())))) {
        throw new AppError('conflict', { message: row.state === 'pending' ? 'This delivery is still being retried.' : 'This delivery succeeded; there is nothing to retry.' });
      }
      return toDelivery((await repo.delivery(q, deliveryId, endpointId))!);
    },

    /** Writes an event and its deliveries in `tx`, the transaction of the result it reports. */
    emitInTransaction,

    emit: (orgId: number, env: Environment, event: WebhookEvent): Promise<string | null> => emitCommitted(orgId, env, event),

    /** A `webhook.test` event to one endpoint, whatever it subscribes to. */
    async sendTest(orgId: number, endpointId: string): Promise<string | null> {
      const ep = await this.get(orgId, endpointId);
      return emitCommitted(orgId, ep.env, { type: 'webhook.test', fields: { message: 'Test event from Compliance Console' } }, ep.id);
    },

    /**
     * Starts what is due now, as far as free slots allow, without waiting for it: each delivery
     * frees its slot when it ends, and the next call fills it. Returns the deliveries started.
     */
    async pump(): Promise<Promise<void>[]> {
      const free = DELIVERY_SLOTS.total - flying;
      if (free <= 0) return [];
      // Taken now, before the lease is read: a second pump meanwhile sees these slots used.
      flying += free;
      let leased: DeliveryRow[] = [];
      try {
        leased = await lease(free);
      } finally {
        flying -= free - leased.length;
      }
      return leased.map(async (d) => {
        try {
          await deliver(d);
        } catch {
          // deliver() records its own failures; anything else leaves the lease to expire and retry.
        } finally {
          flying--;
        }
      });
    },

    /**
     * Keeps sending until stopped: leases what is due every `pollMs` (retries coming due, events
     * written in another module's transaction or by another instance), at once after `emit` and
     * `sendTest` commit, and again as soon as a delivery ends and frees its slot. Refilling only
     * on the poll capped an endpoint at DELIVERY_SLOTS.perEndpoint deliveries a poll: a receiver
     * that leaves one delivery in ten unanswered (each holds its slot for DELIVERY_TIMEOUT_MS)
     * then fell behind three screenings a second and its outbox grew (`npm run soak`).
     */
    startSending(opts: { pollMs?: number; onError: (e: unknown) => void }): { stop(): Promise<void> } {
      let stopped = false;
      let running: Promise<void> | null = null;
      let again = false;
      const run = (): void => {
        if (stopped) return;
        if (running) {
          again = true;
          return;
        }
        running = (async () => {
          do {
            again = false;
            for (const sent of await this.pump()) void sent.finally(run);
          } while (again && !stopped);
        })().catch(opts.onError).finally(() => {
          running = null;
        });
      };
      const timer = setInterval(run, opts.pollMs ?? 1000);
      timer.unref();
      poke = run;
      run();
      return {
        async stop() {
          stopped = true;
          clearInterval(timer);
          if (poke === run) poke = null;
          if (running) await running;
        },
      };
    },

    /** Sends what is due now and waits for those deliveries; returns how many were attempted. */
    async dispatchDue(): Promise<number> {
      const started = await this.pump();
      await Promise.all(started);
      return started.length;
    },

    purgeOldEvents(): Promise<number> {
      return repo.purgeEvents(q, nowIso(clock.now() - EVENT_RETENTION_MS));
    },
  };
}
export type Webhooks = ReturnType<typeof createWebhooks>;
