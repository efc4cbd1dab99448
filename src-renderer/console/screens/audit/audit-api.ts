// The audit log's calls, checked against the shared contracts.
import { AuditPage, AuditVerification, type AuditQuery } from '../../../../src-shared/contracts/audit';
import { queryString, request } from '../../api/client';

export const auditApi = {
  page: (q: AuditQuery, signal?: AbortSignal) => request('GET', `/api/audit?${queryString(q)}`, AuditPage, { signal }),
  verify: (signal?: AbortSignal) => request('GET', '/api/audit/verify', AuditVerification, { signal }),
};
