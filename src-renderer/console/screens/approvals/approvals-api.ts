// The approval queue's calls (owners and admins): the organisation's clearances waiting for a
// second person, approve one, send one back with a note (held by the service for the analyst only).
import { ApprovalQueue, ApproveResponse, SendBackResponse } from '../../../../src-shared/contracts/review';
import { request } from '../../api/client';

const path = (id: string, act: string) => `/api/review/approvals/${encodeURIComponent(id)}/${act}`;

export const approvalsApi = {
  list: (signal?: AbortSignal) => request('GET', '/api/review/approvals', ApprovalQueue, signal ? { signal } : {}),
  approve: (id: string) => request('POST', path(id, 'approve'), ApproveResponse),
  sendBack: (id: string, note: string) => request('POST', path(id, 'send-back'), SendBackResponse, { body: { note } }),
};
