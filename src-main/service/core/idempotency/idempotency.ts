// Idempotency-Key handling for billable POSTs. A key is remembered for 24 hours per API key
// with keyed hashes of the key and of the request, never the request or response itself: a retry is
// answered by re-running the same work under the first attempt's id, uncharged.
import { createHmac } from 'node:crypto';
import { AppError } from '../../../../src-shared/errors';
import type { Engine, Q } from '../../db/engine';
import type { Clock } from '../clock';
import { nowIso } from '../ids';
import type { InstallSecret } from '../install-secret';
import { idempotencyRepo } from './repo';

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600_000;
/** An attempt still "in progress" after this long died with its process; it may be retried. */
export const IN_PROGRESS_STALE_MS = 5 * 60_000;
export const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,255}$/;

export type Begin =
  | { kind: 'new' }
  | { kind: 'replay'; verificationId: string; statusCode: number };

export function createIdempotency(engine: Engine, clock: Clock, secret: InstallSecret) {
  const repo = idempotencyRepo;

  const hmacKey = () => secret.raw();

  /** Clients may put anything in the key, a customer reference included: only its HMAC is kept. */
  function keyHash(idemKey: string): string {
    return createHmac('sha256', hmacKey()).update(`key\n${idemKey}`).digest('hex');
  }

  return {
    fingerprint(method: string, path: string, body: string): string {
      return createHmac('sha256', hmacKey()).update(`${method} ${path}\n${body}`).digest('hex');
    },

    async begin(apiKeyId: string, idemKey: string, fingerprint: string): Promise<Begin> {
      if (!IDEMPOTENCY_KEY_RE.test(idemKey)) {
        throw new AppError('invalid_parameters', {
          message: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
          fields: [{ field: 'Idempotency-Key', issue: 'invalid format' }],
        });
      }
      const now = clock.now();
      const hashed = keyHash(idemKey);
      return engine.transaction(async (tx): Promise<Begin> => {
        const row = await repo.get(tx, apiKeyId, hashed);
        if (row) {
          const expired = Date.parse(row.expires_at) <= now;
          const stale = row.state === 'in_progress' && now - Date.parse(row.created_at) > IN_PROGRESS_STALE_MS;
          if (expired || stale) {
            await repo.del(tx, apiKeyId, hashed);
          } else if (row.fingerprint !== fingerprint) {
            throw new AppError('idempotency_conflict');
          } else if (row.state === 'in_progress') {
            throw new AppError('idempotency_in_progress');
          } else {
            return { kind: 'replay', verificationId: row.verification_id!, statusCode: row.status_code! };
          }
        }
        // Another request (on another instance) may have begun with the same key since the read:
        // the key's row is its, and this one is a retry of an attempt in progress.
        const inserted = await repo.insertIfAbsent(tx, {
          api_key_id: apiKeyId, idem_key: hashed, fingerprint, created_at: nowIso(now), expires_at: nowIso(now + IDEMPOTENCY_WINDOW_MS),
        });
        if (!inserted) throw new AppError('idempotency_in_progress');
        return { kind: 'new' };
      });
    },

    /** Called inside the transaction `tx` that records the verification. */
    async completeInTransaction(tx: Q, apiKeyId: string, idemKey: string, verificationId: string, statusCode: number): Promise<void> {
      await repo.done(tx, apiKeyId, keyHash(idemKey), verificationId, statusCode);
    },

    /** The attempt failed before anything was recorded: the key may be used again. */
    abandon(apiKeyId: string, idemKey: string): Promise<void> {
      return repo.del(engine.q, apiKeyId, keyHash(idemKey));
    },

    /**
     * At start-up, before any request: an attempt left "in progress" was cut off with the process
     * that ran it (its charge, if any, was rolled back with it), so a client's retry must run, once.
     * Returns how many were released. On PostgreSQL none is: other instances share the keys, and a
     * starting instance cannot tell its own cut-off attempts from theirs, which are running; a
     * cut-off attempt is released by its age instead (IN_PROGRESS_STALE_MS), as on SQLite when the
     * service did not restart.
     */
    async releaseInProgress(): Promise<number> {
      if (engine.dialect === 'postgres') return 0;
      return repo.releaseAll(engine.q);
    },

    purgeExpired(): Promise<void> {
      return repo.purge(engine.q, nowIso(clock.now()));
    },
  };
}
export type Idempotency = ReturnType<typeof createIdempotency>;
