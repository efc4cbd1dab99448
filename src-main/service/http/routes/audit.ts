// The audit log for owners and admins: pages with filters, and the chain's verification.
import { AuditPage, AuditQuery, AuditVerification } from '../../../../src-shared/contracts/audit';
import type { Router } from '../router';

export function auditRoutes({ route, services }: Router): void {
  const ADMINS = { kind: 'session', act: 'audit.read' } as const;

  route({
    method: 'GET', path: '/api/audit', auth: ADMINS, tags: ['audit'],
    summary: 'A page of the audit log, filtered',
    request: { query: AuditQuery },
    responses: { 200: AuditPage },
    handler: async (c, input) => {
      const q = input.query();
      return c.json<AuditPage>(await services.audit.page(c.get('session').org.id, q));
    },
  });

  route({
    method: 'GET', path: '/api/audit/verify', auth: ADMINS, tags: ['audit'],
    summary: 'Verify the audit log\'s hash chain',
    responses: { 200: AuditVerification },
    handler: async (c) => c.json<AuditVerification>(await services.audit.verify()),
  });
}
