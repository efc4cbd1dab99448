// The per-install secret (meta.idempotency_secret, made on first use): the key of every HMAC the
// service keeps instead of a value (Idempotency-Keys, client references) and of the audit chain.
// Each use gets its own key derived from it, so one purpose's HMACs say nothing about another's.
import { createHmac, randomBytes } from 'node:crypto';
import type { Db } from '../db/open';

export function createInstallSecret(db: Db) {
  const get = db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'idempotency_secret'");
  const put = db.prepare<[string]>("INSERT OR IGNORE INTO meta (key, value) VALUES ('idempotency_secret', ?)");
  let secret: string | undefined;
  const derived = new Map<string, Buffer>();

  function raw(): string {
    if (!secret) {
      // INSERT OR IGNORE then read: the CLI and the service may both be first.
      put.run(randomBytes(32).toString('hex'));
      secret = get.get()!.value;
    }
    return secret;
  }

  return {
    /** The secret itself (the idempotency HMACs have always used it directly). */
    raw,
    /** A key for one purpose, e.g. 'audit-chain/v1'. */
    derive(purpose: string): Buffer {
      let key = derived.get(purpose);
      if (!key) {
        key = createHmac('sha256', raw()).update(purpose).digest();
        derived.set(purpose, key);
      }
      return key;
    },
  };
}
export type InstallSecret = ReturnType<typeof createInstallSecret>;
