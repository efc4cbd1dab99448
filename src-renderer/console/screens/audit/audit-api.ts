// The audit log's calls, checked against the shared contracts.
import { AuditPage, AuditVerification, type AuditQuery } from '../../../../src-shared/contracts/audit';
import { request } from '../../api/client';

function queryString(q: AuditQuery): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') p.set(k, String(v));
  return p.toString();
}

export const auditApi = {
  page: (q: AuditQuery, signal?: AbortSignal) => request('GET', `/api/audit?${queryString(q)}`, AuditPage, { signal }),
  verify: (signal?: AbortSignal) => request('GET', '/api/audit/verify', AuditVerification, { signal }),
};
