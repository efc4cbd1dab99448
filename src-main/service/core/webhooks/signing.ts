// Webhook signatures. The signed string is the raw request body, exactly as sent (spec:
// X-Service-Signature: sha256=<hex HMAC-SHA256(secret, body)>). The body carries the event's
// `timestamp`, and X-Service-Timestamp repeats it in Unix seconds: because the body is signed,
// a receiver can trust that instant and refuse anything older than 5 minutes.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const TIMESTAMP_HEADER = 'X-Service-Timestamp';
export const REPLAY_WINDOW_S = 300;

export function sign(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** What a receiver does: constant-time signature check plus the replay window. */
export function verify(secret: string, body: string, signature: string, nowS: number, timestampS: number): boolean {
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  return Math.abs(nowS - timestampS) <= REPLAY_WINDOW_S;
}
