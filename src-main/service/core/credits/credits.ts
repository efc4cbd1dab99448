// The credits ledger. Balance is always the sum of entries, read from a checkpoint that the
// database keeps with every insert (migration 0009) so a charge costs the same at a million
// entries as at ten; a charge is written only inside the caller's transaction together with the
// record it pays for (see verification/billing.ts).
import { AppError } from '../../../../src-shared/errors';
import type { Environment } from '../../../../src-shared/catalog';
import type { Db } from '../../db/open';
import type { Clock } from '../clock';
import { nowIso } from '../ids';
import { creditsRepo, type EntryRow } from './repo';

export function createCredits(db: Db, clock: Clock) {
  const repo = creditsRepo(db);
  return {
    balance: (orgId: number): number => repo.balance(orgId),

    /** The checkpointed balance beside the full sum of the ledger (they are equal; for checks). */
    reconcile(orgId: number): { balance: number; sum: number; checkpoint: { balance: number; last_entry_id: number } | null } {
      return db.transaction(() => ({ balance: repo.balance(orgId), sum: repo.sum(orgId), checkpoint: repo.checkpoint(orgId) }))();
    },

    grant(orgId: number, amount: number, note: string | null = null): { balance: number; entry_id: number } {
      if (!Number.isSafeInteger(amount) || amount <= 0) {
        throw new AppError('account_validation', { field: 'amount', message: 'Amount must be a positive integer' });
      }
      return db
        .transaction(() => {
          const id = repo.insert({
            org_id: orgId, amount, kind: 'grant', product: null, verification_id: null, env: null, note,
            created_at: nowIso(clock.now()),
          });
          return { balance: repo.balance(orgId), entry_id: id };
        })
        .immediate();
    },

    /**
     * Writes one charge of `cost` per verification id, after one balance check for all of them.
     * Must be called inside the transaction that also writes the records it pays for; re-reads
     * the balance there so concurrent requests cannot overspend. The balance after.
     */
    chargeInTransaction(orgId: number, cost: number, product: string, verificationIds: readonly string[], env: Environment): number {
      if (!db.inTransaction) throw new Error('chargeInTransaction outside a transaction');
      const balance = repo.balance(orgId);
      const total = cost * verificationIds.length;
      if (balance < total) throw insufficient(balance, total);
      const at = nowIso(clock.now());
      for (const id of verificationIds) {
        repo.insert({ org_id: orgId, amount: -cost, kind: 'charge', product, verification_id: id, env, note: null, created_at: at });
      }
      return balance - total;
    },

    ledger(orgId: number, page: number, perPage: number): { entries: EntryRow[]; total: number } {
      return { entries: repo.page(orgId, perPage, (page - 1) * perPage), total: repo.count(orgId) };
    },
  };
}
export type Credits = ReturnType<typeof createCredits>;

/** The spec has two 402 bodies: an empty balance is "exhausted", a short one "insufficient". */
export function insufficient(balance: number, cost: number): AppError {
  return balance <= 0
    ? new AppError('credits_exhausted')
    : new AppError('insufficient_credits', { credits_remaining: balance, credits_required: cost });
}
