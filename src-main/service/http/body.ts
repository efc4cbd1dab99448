// Request bodies: read as they arrive and never past the route's limit, so a client streaming
// 300 MB with no Content-Length costs one chunk past the limit, not 300 MB. Bytes held by
// requests still in their handlers count against a budget for the whole service; past it a
// request is answered 503 with Retry-After instead of growing the process.
//
// Two budgets, so nobody without credentials can crowd out a paying customer: a body read before
// the caller is known (public routes such as the storefront's age check, a key sent as a form
// field) draws on the smaller anonymous budget, at most ANONYMOUS_UPLOADS_PER_ADDRESS at once
// per client address, and at most a quarter of its bytes per address and half per address block
// (IPv4 /24, IPv6 /64), so a few senders cannot fill it for everyone else; a body read after the
// guard knew the key or session draws on the main budget, which anonymous bodies never take.
// A body that stops arriving, or arrives slower than BODY_PACE allows, is cut off with 408.
import type { Context } from 'hono';
import { AppError } from '../../../src-shared/errors';
import { addressBlock } from '../core/rate-limit/key-throttle';

/** A JSON body's limit unless the route says otherwise. */
export const JSON_LIMIT = 1024 * 1024;
/** Upload bytes held at once across all requests: four full list files, or 256 JSON bodies. */
export const UPLOAD_BUDGET = 256 * 1024 * 1024;
/** Bytes held at once by bodies read before their sender was known: four full selfie uploads. */
export const ANONYMOUS_BUDGET = 64 * 1024 * 1024;
/** Bodies one client address may be sending at once before it is known. */
export const ANONYMOUS_UPLOADS_PER_ADDRESS = 4;
/** The most of the anonymous budget one address, and one address block, may hold at once. */
export const ANONYMOUS_SHARE = { address: 1 / 4, block: 1 / 2 } as const;
/** An anonymous body's first bytes, which need no share: a sign-in or an age check's answer is smaller. */
export const SMALL_BODY = 64 * 1024;
/** The anonymous budget's last bytes, kept for small bodies (at most a sixteenth of the budget). */
export const ANONYMOUS_RESERVE = 4 * 1024 * 1024;
/** What http/auth.ts clientAddress says of a request with no socket: one caller, no network. */
const IN_PROCESS = 'in-process';
/** Seconds a client told "busy" waits before retrying. */
const BUSY_RETRY_AFTER = 2;

/** How slowly a body may arrive: a gap with no bytes, and an average rate after a grace period. */
export interface BodyPace {
  /** Longest wait for the next chunk. */
  idleMs: number;
  /** The average rate is judged only after this long (a connection's slow start). */
  graceMs: number;
  /** Bytes per second, on average since the body began, once the grace period is over. */
  minBytesPerSecond: number;
}
export const BODY_PACE: BodyPace = { idleMs: 15_000, graceMs: 10_000, minBytesPerSecond: 4 * 1024 };

export interface UploadBudget {
  readonly max: number;
  /** Bytes held now. */
  held(): number;
  /** Takes `n` bytes if they fit; false (nothing taken) if they do not. */
  take(n: number): boolean;
  give(n: number): void;
}

export function createUploadBudget(max = UPLOAD_BUDGET): UploadBudget {
  let held = 0;
  return {
    max,
    held: () => held,
    take(n) {
      if (held + n > max) return false;
      held += n;
      return true;
    },
    give(n) {
      held = Math.max(0, held - n);
    },
  };
}

/** The service's upload limits: both budgets, the per-address count of anonymous bodies, the pace. */
export interface UploadLimits {
  identified: UploadBudget;
  anonymous: UploadBudget;
  perAddress: number;
  /** Anonymous bodies being read now, by client address. */
  readonly reading: Map<string, number>;
  /** Anonymous bytes held now, by client address and by address block. */
  readonly held: Map<string, number>;
  pace: BodyPace;
}

export function createUploadLimits(o: { identified?: number; anonymous?: number; perAddress?: number; pace?: Partial<BodyPace> } = {}): UploadLimits {
  return {
    identified: createUploadBudget(o.identified ?? UPLOAD_BUDGET),
    anonymous: createUploadBudget(o.anonymous ?? ANONYMOUS_BUDGET),
    perAddress: o.perAddress ?? ANONYMOUS_UPLOADS_PER_ADDRESS,
    reading: new Map(),
    held: new Map(),
    pace: { ...BODY_PACE, ...o.pace },
  };
}

/**
 * One request's claim on a budget: grows as its body arrives, given back once when it ends. It
 * starts on the anonymous budget and moves to the main one when the guard knows the caller
 * (`identify`), unless its body was already read to find out.
 */
export interface BodyClaim {
  readonly limits: UploadLimits;
  readonly address: string;
  budget: UploadBudget;
  bytes: number;
  /** Whether it holds one of its address's anonymous reading places (while its body arrives). */
  placed: boolean;
}

export function newClaim(limits: UploadLimits, address: string): BodyClaim {
  return { limits, address, budget: limits.anonymous, bytes: 0, placed: false };
}

/** The caller is known: a body not read yet draws on the main budget. */
export function identify(claim: BodyClaim): void {
  if (claim.bytes === 0 && !claim.placed) claim.budget = claim.limits.identified;
}

/** The keys an anonymous claim's bytes count under, with the most each may hold (none in process). */
function shares(claim: BodyClaim): [string, number][] {
  if (claim.address === IN_PROCESS) return [];
  const max = claim.limits.anonymous.max;
  const block = blockOf(claim.address);
  const own: [string, number] = [`a ${claim.address}`, Math.floor(max * ANONYMOUS_SHARE.address)];
  return block === claim.address ? [own] : [own, [`b ${block}`, Math.floor(max * ANONYMOUS_SHARE.block)]];
}

/**
 * An address's block; a loopback address is its own (every one of them is this computer, and a
 * block stands for a network neighbourhood).
 */
function blockOf(address: string): string {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1' ? address : addressBlock(address);
}

/**
 * Takes `n` more bytes for the claim from its budget. An anonymous body's first SMALL_BODY bytes
 * (a sign-in, an age check's answer) only need the budget; past them it also needs its address's
 * and block's shares, and leaves the budget's reserve to small bodies.
 */
function takeBytes(claim: BodyClaim, n: number): void {
  const limits = claim.limits;
  const anonymous = claim.budget === limits.anonymous;
  const keys = anonymous ? shares(claim) : [];
  if (keys.length > 0 && claim.bytes + n > SMALL_BODY) {
    const reserve = Math.min(ANONYMOUS_RESERVE, Math.floor(limits.anonymous.max / 16));
    if (limits.anonymous.held() + n > limits.anonymous.max - reserve) throw busy();
    if (keys.some(([k, most]) => (limits.held.get(k) ?? 0) + n > most)) throw busy();
  }
  if (!claim.budget.take(n)) throw busy();
  for (const [k] of keys) limits.held.set(k, (limits.held.get(k) ?? 0) + n);
  claim.bytes += n;
}

function giveBytes(claim: BodyClaim): void {
  claim.budget.give(claim.bytes);
  if (claim.budget === claim.limits.anonymous) {
    const held = claim.limits.held;
    for (const [k] of shares(claim)) {
      const left = (held.get(k) ?? 0) - claim.bytes;
      if (left > 0) held.set(k, left);
      else held.delete(k);
    }
  }
  claim.bytes = 0;
}

export function releaseClaim(claim: BodyClaim): void {
  giveBytes(claim);
  unplace(claim);
}

function busy(): AppError {
  return new AppError('server_busy', { retry_after: BUSY_RETRY_AFTER });
}

/** An anonymous body takes one of its address's reading places first, or is refused as busy. */
function place(claim: BodyClaim): void {
  if (claim.placed || claim.budget !== claim.limits.anonymous) return;
  const n = claim.limits.reading.get(claim.address) ?? 0;
  if (n >= claim.limits.perAddress) throw busy();
  claim.limits.reading.set(claim.address, n + 1);
  claim.placed = true;
}

/** Its reading place is given back once the body has arrived (or failed to). */
function unplace(claim: BodyClaim): void {
  if (!claim.placed) return;
  const n = (claim.limits.reading.get(claim.address) ?? 1) - 1;
  if (n > 0) claim.limits.reading.set(claim.address, n);
  else claim.limits.reading.delete(claim.address);
  claim.placed = false;
}

/**
 * Reads the whole body, at most `maxBytes`. A declared Content-Length over the limit is refused
 * before a byte is read; a streamed body is cut off at the first chunk past it (the rest is left
 * to the server, which drains a little and closes the connection).
 */
export async function readBounded(c: Context, maxBytes: number, claim: BodyClaim): Promise<Uint8Array> {
  const header = c.req.header('content-length');
  const declared = header === undefined ? null : Number(header);
  if (declared !== null && (!Number.isSafeInteger(declared) || declared < 0)) {
    throw new AppError('invalid_parameters', { message: 'Content-Length is not a byte count' });
  }
  if (declared !== null && declared > maxBytes) throw new AppError('payload_too_large');
  const take = (n: number) => takeBytes(claim, n);
  const stream = c.req.raw.body;
  if (!stream) return new Uint8Array(0);
  place(claim);
  // A declared length is claimed whole up front: a large upload is turned away before it starts.
  if (declared) take(declared);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  // With a declared length (already claimed from the budget), each chunk is copied into one
  // buffer of that size as it comes, made when the first one does (a 30 MB list file was held as
  // its chunks, then their copy, then a copy of that for Hono).
  let whole: Uint8Array | null = null;
  let filled = 0;
  let total = 0;
  const { idleMs, graceMs, minBytesPerSecond } = claim.limits.pace;
  const began = Date.now();
  try {
    for (;;) {
      // The next chunk must come within the idle limit, and soon enough to keep the average rate
      // (a body trickling a byte every few seconds holds its budget for no more than the grace).
      const elapsed = Date.now() - began;
      const behind = Math.max(graceMs, ((total + 1) / minBytesPerSecond) * 1000) - elapsed;
      const wait = Math.max(1, Math.min(idleMs, behind));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), wait)));
      let next: ReadableStreamReadResult<Uint8Array> | 'late';
      try {
        next = await Promise.race([reader.read(), late]);
      } catch {
        throw new AppError('invalid_parameters', { message: 'The request body was cut off' });
      } finally {
        clearTimeout(timer);
      }
      if (next === 'late') {
        void reader.cancel().catch(() => undefined);
        throw new AppError('body_timeout');
      }
      if (next.done) break;
      total += next.value.byteLength;
      if (total > maxBytes) throw new AppError('payload_too_large');
      if (total > claim.bytes) take(total - claim.bytes);
      if (declared && !whole && chunks.length === 0) whole = new Uint8Array(declared);
      if (whole && chunks.length === 0 && total <= whole.byteLength) {
        whole.set(next.value, filled);
        filled = total;
      } else chunks.push(next.value);
    }
  } finally {
    reader.releaseLock();
    unplace(claim);
  }
  // A body longer than it said (not possible through Node's parser) keeps what came, in order.
  if (whole && chunks.length > 0) chunks.unshift(whole.subarray(0, filled));
  const out = whole && chunks.length === 0 ? whole.subarray(0, filled) : chunks.length === 1 ? chunks[0]! : concat(chunks, total);
  // Later readers of the request (Hono's own helpers) get these bytes, not the spent stream: the
  // same memory when the bytes are a buffer of their own.
  const own = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength;
  (c.req.bodyCache as { arrayBuffer?: Promise<ArrayBuffer> }).arrayBuffer = Promise.resolve(
    (own ? out.buffer : out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength)) as ArrayBuffer,
  );
  return out;
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const ch of chunks) {
    out.set(ch, at);
    at += ch.byteLength;
  }
  return out;
}

/** The media type of a Content-Type header, lower-case, without parameters; '' when absent. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * Whether a request's Content-Type is one the route takes. JSON routes take JSON (`+json` types
 * too) or no Content-Type at all (clients that omit it send JSON); a route taking
 * `application/octet-stream` takes any bytes; others take their type or a listed alternative.
 */
export function acceptsMediaType(header: string | undefined, body: { json: true } | { contentType: string; accept?: readonly string[] }): boolean {
  const type = mediaType(header);
  if ('json' in body) return type === '' || type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
  if (body.contentType === 'application/octet-stream') return true;
  return type === body.contentType || (body.accept ?? []).includes(type);
}
