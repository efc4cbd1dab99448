// The organisation's plan and credits, for the console's Plan & credits screen, and its settings.
// The owner records the plan the organisation bought here (there is no payment system in a
// desktop install); owners and admins switch four-eyes clearing on or off.
import { PLAN_INFO } from '../../../../src-shared/catalog';
import { ChangePlanRequest, PageQuery, type Account, type LedgerPage } from '../../../../src-shared/contracts/accounts';
import type { Services } from '../../compose';
import { toOrganization } from '../../core/accounts/accounts';
import type { OrgRow } from '../../core/accounts/repo';
import { actorOf } from '../../core/audit/audit';
import { UpdateSettingsRequest, type OrgSettings } from '../../../../src-shared/contracts/review';
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
    const org = services.audit.atomically(() => {
      const r = services.accounts.changePlan(s.org.id, body.plan);
      if (r.changed) services.audit.record({ orgId: s.org.id, actor: actorOf(s.user), action: 'plan.changed', from: r.from, to: r.org.plan });
      return r.org;
    });
    return c.json<Account>(accountOf(services, org));
  });

  route('GET', '/api/settings', { kind: 'session' }, (c) => c.json<OrgSettings>(services.review.settings(c.get('session').org)));

  route('PATCH', '/api/settings', { kind: 'session', roles: ['owner', 'admin'] }, async (c) => {
    const body = await parseJson(c, UpdateSettingsRequest, { error: 'account_validation' });
    return c.json<OrgSettings>(services.review.setFourEyes(c.get('session'), body.four_eyes));
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
