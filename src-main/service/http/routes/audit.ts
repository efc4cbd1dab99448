// The audit log for owners and admins: pages with filters, and the chain's verification.
import { AuditQuery, type AuditPage, type AuditVerification } from '../../../../src-shared/contracts/audit';
import type { Router } from '../app';
import { parseQuery } from '../validate';

export function auditRoutes({ route, services }: Router): void {
  const ADMINS = { kind: 'session', roles: ['owner', 'admin'] } as const;

  route('GET', '/api/audit', ADMINS, (c) => {
    const q = parseQuery(c, AuditQuery, { error: 'account_validation' });
    return c.json<AuditPage>(services.audit.page(c.get('session').org.id, q));
  });

  route('GET', '/api/audit/verify', ADMINS, (c) => c.json<AuditVerification>(services.audit.verify()));
}
