// The hosted sessions API, checked against the shared contracts like the rest of api/client.ts.
import type { Environment } from '../../../../src-shared/catalog';
import {
  HostedGenerateResponse, HostedSessionList, HostedSessionView, PublishedFlowList, PublishedFlowView, type HostedConsoleCreateRequest,
  type PublishedFlowCreateRequest, type PublishedFlowRequest,
} from '../../../../src-shared/contracts/hosted';
import { OnsiteStatus, type OnsiteStartRequest } from '../../../../src-shared/contracts/onsite';
import { queryString, request } from '../../api/client';

export const hostedApi = {
  list: (env: Environment, signal?: AbortSignal) => request('GET', `/api/hosted/sessions?${queryString({ env })}`, HostedSessionList, { signal }),
  create: (body: HostedConsoleCreateRequest) => request('POST', '/api/hosted/sessions', HostedGenerateResponse, { body }),
  revoke: (id: string) => request('POST', `/api/hosted/sessions/${encodeURIComponent(id)}/revoke`, HostedSessionView),
};

/** Published flows: everyone signed in lists them; owners and admins publish, edit, switch off and on. */
export const flowsApi = {
  list: (env: Environment, signal?: AbortSignal) => request('GET', `/api/hosted/flows?${queryString({ env })}`, PublishedFlowList, { signal }),
  create: (body: PublishedFlowCreateRequest) => request('POST', '/api/hosted/flows', PublishedFlowView, { body }),
  update: (id: string, body: PublishedFlowRequest) => request('PUT', `/api/hosted/flows/${encodeURIComponent(id)}`, PublishedFlowView, { body }),
  setEnabled: (id: string, enabled: boolean) =>
    request('POST', `/api/hosted/flows/${encodeURIComponent(id)}/${enabled ? 'enable' : 'disable'}`, PublishedFlowView),
};

/** The on-site server: status for everyone signed in; start and stop for owners and admins. */
export const onsiteApi = {
  status: (signal?: AbortSignal) => request('GET', '/api/onsite', OnsiteStatus, { signal }),
  start: (body: OnsiteStartRequest) => request('POST', '/api/onsite/start', OnsiteStatus, { body }),
  stop: () => request('POST', '/api/onsite/stop', OnsiteStatus),
};
