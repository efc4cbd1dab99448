// The per-install secret (meta.idempotency_secret, made on first use): the key of every HMAC the
// service keeps instead of a value (Idempotency-Keys, client references) and of the audit chain.
// Each use gets its own key derived from it, so one purpose's HMACs say nothing about another's.
// Read once when the service starts (every instance on one PostgreSQL reads the same one) and held
// in memory: HMACs are made on the request path.
import { createHmac, randomBytes } from 'node:crypto';
import type { Engine } from '../db/engine';
import { metaRepo } from './meta-repo';

const KEY = 'idempotency_secret';

/** The install's secret, made by whichever comes first (the service, the CLI, another instance) and then only read. */
export async function loadInstallSecret(engine: Engine) {
  await metaRepo.putIfAbsent(engine.q, KEY, randomBytes(32).toString('hex'));
  const secret = (await metaRepo.get(engine.q, KEY))!;
  const derived = new Map<string, Buffer>();
  return {
    /** The secret itself (the idempotency HMACs have always used it directly). */
    raw: (): string => secret,
    /** A key for one purpose, e.g. 'audit-chain/v1'. */
    derive(purpose: string): Buffer {
      let key = derived.get(purpose);
      if (!key) {
        key = createHmac('sha256', secret).update(purpose).digest();
        derived.set(purpose, key);
      }
      return key;
    },
  };
}
export type InstallSecret = Awaited<ReturnType<typeof loadInstallSecret>>;
