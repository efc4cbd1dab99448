// The credits ledger. Balance is always the sum of entries, read from a checkpoint that the
// database keeps with every insert (a trigger) so a charge costs the same at a million entries as
// at ten; a charge is written only inside the caller's transaction together with the record it
// pays for (see verification/billing.ts), after the organisation's balance is locked there, so
// charges made at once (by one instance or several on one PostgreSQL) never overspend.
import { AppError } from '../../../../src-shared/errors';
import type { Environment } from '../../../../src-shared/catalog';
import type { Engine, Q } from '../../db/engine';
import type { Clock } from '../clock';
import { nowIso } from '../ids';
import { creditsRepo, type EntryRow } from './repo';

export function createCredits(engine: Engine, clock: Clock) {
  const repo = creditsRepo(engine.dialect);
  return {
    /** The balance; inside a transaction, read on its `tx`. */
    balance: (orgId: number, q: Q = engine.q): Promise<number> => repo.balance(q, orgId),

    /** The checkpointed balance beside the full sum of the ledger (they are equal; for checks). */
    reconcile(orgId: number): Promise<{ balance: number; sum: number; checkpoint: { balance: number; last_entry_id: number } | null }> {
      return engine.transaction(async (tx) => ({ balance: await repo.balance(tx, orgId), sum: await repo.sum(tx, orgId), checkpoint: await repo.checkpoint(tx, orgId) }));
    },

    async grant(orgId: number, amount: number, note: string | null = null): Promise<{ balance: number; entry_id: number }> {
      if (!Number.isSafeInteger(amount) || amount <= 0) {
        throw new AppError('account_validation', { field: 'amount', message: 'Amount must be a positive integer' });
      }
      return engine.transaction(async (tx) => {
        const id = await repo.insert(tx, {
          org_id: orgId, amount, kind: 'grant', product: null, verification_id: null, env: null, note, created_at: nowIso(clock.now()),
        });
        return { balance: await repo.balance(tx, orgId), entry_id: id };
      });
    },

    /**
     * Writes one charge of `cost` per verification id, after one balance check for all of them, in
     * the caller's transaction `tx` (which also writes the records they pay for). The balance is
     * locked first and read after the lock, so concurrent charges take turns. The balance after.
     */
    async chargeInTransaction(tx: Q, orgId: number, cost: number, product: string, verificationIds: readonly string[], env: Environment): Promise<number> {
      if (!tx.isTransaction) throw new Error('chargeInTransaction outside a transaction');
      const total = cost * verificationIds.length;
      const balance = await repo.charge(tx, orgId, cost, product, verificationIds, env, nowIso(clock.now()));
      if (balance < total) throw insufficient(balance, total);
      return balance - total;
    },

    async ledger(orgId: number, page: number, perPage: number): Promise<{ entries: EntryRow[]; total: number }> {
      return { entries: await repo.page(engine.q, orgId, perPage, (page - 1) * perPage), total: await repo.count(engine.q, orgId) };
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
