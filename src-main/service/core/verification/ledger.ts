// Reading the verification ledger. Writes happen only through billing.ts.
import type { Environment } from '../../../../src-shared/catalog';
import type { Db } from '../../db/open';
import { verificationRepo, type VerificationRow } from './repo';

export function createLedger(db: Db) {
  const repo = verificationRepo(db);
  return {
    /** A verification visible to a key: same organisation and same environment. */
    findForKey(id: string, orgId: number, env: Environment): VerificationRow | undefined {
      const row = repo.byId(id);
      return row && row.org_id === orgId && row.env === env ? row : undefined;
    },
    get: (id: string) => repo.byId(id),
  };
}
export type Ledger = ReturnType<typeof createLedger>;
