// The hosted sessions API, checked against the shared contracts like the rest of api/client.ts.
import type { Environment } from '../../../../src-shared/catalog';
import {
  HostedGenerateResponse, HostedSessionList, HostedSessionView, type HostedConsoleCreateRequest,
} from '../../../../src-shared/contracts/hosted';
import { queryString, request } from '../../api/client';

export const hostedApi = {
  list: (env: Environment, signal?: AbortSignal) => request('GET', `/api/hosted/sessions?${queryString({ env })}`, HostedSessionList, { signal }),
  create: (body: HostedConsoleCreateRequest) => request('POST', '/api/hosted/sessions', HostedGenerateResponse, { body }),
  revoke: (id: string) => request('POST', `/api/hosted/sessions/${encodeURIComponent(id)}/revoke`, HostedSessionView),
};
