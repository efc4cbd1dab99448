// The hosted sessions API, checked against the shared contracts like the rest of api/client.ts.
import type { Environment } from '../../../../src-shared/catalog';
import {
  HostedGenerateResponse, HostedSessionList, HostedSessionView, type HostedConsoleCreateRequest,
} from '../../../../src-shared/contracts/hosted';
import { OnsiteStatus, type OnsiteStartRequest } from '../../../../src-shared/contracts/onsite';
import { queryString, request } from '../../api/client';

export const hostedApi = {
  list: (env: Environment, signal?: AbortSignal) => request('GET', `/api/hosted/sessions?${queryString({ env })}`, HostedSessionList, { signal }),
  create: (body: HostedConsoleCreateRequest) => request('POST', '/api/hosted/sessions', HostedGenerateResponse, { body }),
  revoke: (id: string) => request('POST', `/api/hosted/sessions/${encodeURIComponent(id)}/revoke`, HostedSessionView),
};

/** The on-site server: status for everyone signed in; start and stop for owners and admins. */
export const onsiteApi = {
  status: (signal?: AbortSignal) => request('GET', '/api/onsite', OnsiteStatus, { signal }),
  start: (body: OnsiteStartRequest) => request('POST', '/api/onsite/start', OnsiteStatus, { body }),
  stop: () => request('POST', '/api/onsite/stop', OnsiteStatus),
};
