// Request bodies: read as they arrive and never past the route's limit, so a client streaming
// 300 MB with no Content-Length costs one chunk past the limit, not 300 MB. Bytes held by
// requests still in their handlers count against one budget for the whole service; past it a
// request is answered 503 with Retry-After instead of growing the process.
import type { Context } from 'hono';
import { AppError } from '../../../src-shared/errors';

/** A JSON body's limit unless the route says otherwise. */
export const JSON_LIMIT = 1024 * 1024;
/** Upload bytes held at once across all requests: four full list files, or 256 JSON bodies. */
export const UPLOAD_BUDGET = 256 * 1024 * 1024;
/** Seconds a client told "busy" waits before retrying. */
const BUSY_RETRY_AFTER = 2;

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

/** One request's claim on the budget: grows as its body arrives, given back once when it ends. */
export interface BodyClaim {
  readonly budget: UploadBudget;
  bytes: number;
}

export function releaseClaim(claim: BodyClaim): void {
  claim.budget.give(claim.bytes);
  claim.bytes = 0;
}

function busy(): AppError {
  return new AppError('server_busy', { retry_after: BUSY_RETRY_AFTER });
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
  const take = (n: number) => {
    if (!claim.budget.take(n)) throw busy();
    claim.bytes += n;
  };
  // A declared length is claimed whole up front: a large upload is turned away before it starts.
  if (declared) take(declared);
  const stream = c.req.raw.body;
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch {
        throw new AppError('invalid_parameters', { message: 'The request body was cut off' });
      }
      if (next.done) break;
      total += next.value.byteLength;
      if (total > maxBytes) throw new AppError('payload_too_large');
      if (total > claim.bytes) take(total - claim.bytes);
      chunks.push(next.value);
    }
  } finally {
    reader.releaseLock();
  }
  const out = chunks.length === 1 ? chunks[0]! : concat(chunks, total);
  // Later readers of the request (Hono's own helpers) get these bytes, not the spent stream.
  (c.req.bodyCache as { arrayBuffer?: Promise<ArrayBuffer> }).arrayBuffer = Promise.resolve(
    out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer,
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
