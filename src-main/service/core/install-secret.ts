// The per-install secret (meta.idempotency_secret, made on first use): the key of every HMAC the
// service keeps instead of a value (Idempotency-Keys, client references) and of the audit chain.
// Each use gets its own key derived from it, so one purpose's HMACs say nothing about another's.
// Read once when the service starts (every instance on one PostgreSQL reads the same one) and held
// in memory: HMACs are made on the request path.
import { createHmac, randomBytes } from 'node:crypto';
import type { Engine } from '../db/engine';

const KEY = 'idempotency_secret';

/** The install's secret, made by whichever comes first (the service, the CLI, another instance) and then only read. */
export async function loadInstallSecret(engine: Engine) {
  await engine.q.insertInto('meta').values({ key: KEY, value: randomBytes(32).toString('hex') })
    .onConflict((oc) => oc.column('key').doNothing()).execute();
  const secret = (await engine.q.selectFrom('meta').select('value').where('key', '=', KEY).executeTakeFirstOrThrow()).value;
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
