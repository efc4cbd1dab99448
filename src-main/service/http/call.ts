// HTTP to use case and back: the request's payer, Idempotency-Key and analyst as a `Call`, and a
// use case's answer as JSON (with `Idempotent-Replayed` when it is a retried key's first result).
import type { Context } from 'hono';
import type { Answer, Call } from '../core/app/call';
import type { Payer } from '../core/verification/billing';
import type { AppEnv } from './types';

/** The request's Idempotency-Key with its method and path, when it sent one. */
export function idempotencyOf(c: Context<AppEnv>): Call['idempotency'] {
  const key = c.req.header('idempotency-key');
  return key !== undefined ? { key, method: c.req.method, path: c.req.path } : undefined;
}

/** The call a request makes: paid by its API key unless another payer is named; the signed-in analyst, if any. */
export function callOf(c: Context<AppEnv>, payer: Payer = c.get('key')): Call {
  const session = c.get('session') as AppEnv['Variables']['session'] | undefined;
  return { payer, idempotency: idempotencyOf(c), ...(session ? { analyst: { email: session.user.email } } : {}) };
}

export function reply<R>(c: Context<AppEnv>, answer: Answer<R>): Response {
  if (answer.replayed) c.header('Idempotent-Replayed', 'true');
  return c.json(answer.body as object);
}
