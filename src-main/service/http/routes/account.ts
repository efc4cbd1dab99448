// The organisation's plan and credits, for the console's Plan & credits screen.
import { PLAN_INFO } from '../../../../src-shared/catalog';
import { PageQuery, type Account, type LedgerPage } from '../../../../src-shared/contracts/accounts';
import { toOrganization } from '../../core/accounts/accounts';
import type { Router } from '../app';
import { parseQuery } from '../validate';

export function accountRoutes({ route, services }: Router): void {
  route('GET', '/api/account', { kind: 'session' }, (c) => {
    const org = c.get('session').org;
    const p = PLAN_INFO[org.plan];
    return c.json<Account>({
      organization: toOrganization(org),
      plan: {
        id: p.id, label: p.label, compliance: p.compliance, team_size: p.team_size,
        verification_rps: p.verification.rps, verification_burst: p.verification.burst,
        read_rps: p.read.rps, read_burst: p.read.burst,
      },
      credits: { balance: services.credits.balance(org.id) },
    });
  });

  route('GET', '/api/credits/ledger', { kind: 'session' }, (c) => {
    const org = c.get('session').org;
    const q = parseQuery(c, PageQuery, { error: 'account_validation' });
    const { entries, total } = services.credits.ledger(org.id, q.page, q.per_page);
    return c.json<LedgerPage>({
      entries: entries.map((e) => ({
        id: e.id, amount: e.amount, kind: e.kind, product: e.product, verification_id: e.verification_id,
        env: e.env, note: e.note, created_at: e.created_at,
      })),
      balance: services.credits.balance(org.id),
      total,
      page: q.page,
      pages: Math.max(1, Math.ceil(total / q.per_page)),
    });
  });
}
