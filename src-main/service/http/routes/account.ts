// The organisation's plan and credits, for the console's Plan & credits screen. The owner
// records the plan the organisation bought here (there is no payment system in a desktop install).
import { PLAN_INFO } from '../../../../src-shared/catalog';
import { ChangePlanRequest, PageQuery, type Account, type LedgerPage } from '../../../../src-shared/contracts/accounts';
import type { Services } from '../../compose';
import { toOrganization } from '../../core/accounts/accounts';
import type { OrgRow } from '../../core/accounts/repo';
import type { Router } from '../app';
import { parseJson, parseQuery } from '../validate';

function accountOf(services: Services, org: OrgRow): Account {
  const p = PLAN_INFO[org.plan];
  return {
    organization: toOrganization(org),
    plan: {
      id: p.id, label: p.label, compliance: p.compliance, team_size: p.team_size,
      verification_rps: p.verification.rps, verification_burst: p.verification.burst,
      read_rps: p.read.rps, read_burst: p.read.burst,
    },
    credits: { balance: services.credits.balance(org.id) },
  };
}

export function accountRoutes({ route, services }: Router): void {
  route('GET', '/api/account', { kind: 'session' }, (c) => c.json<Account>(accountOf(services, c.get('session').org)));

  route('PATCH', '/api/account/plan', { kind: 'session', roles: ['owner'] }, async (c) => {
    const s = c.get('session');
    const body = await parseJson(c, ChangePlanRequest, { error: 'account_validation' });
    const { org } = services.accounts.changePlan(s.org.id, body.plan);
    return c.json<Account>(accountOf(services, org));
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
