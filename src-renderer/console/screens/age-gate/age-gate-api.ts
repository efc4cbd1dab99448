// The storefront age gate's console API, checked against the shared contract like the rest of api/client.ts.
import type { Environment } from '../../../../src-shared/catalog';
import { AgeGateStore, type AgeGateSaveRequest } from '../../../../src-shared/contracts/age-gate';
import { queryString, request } from '../../api/client';

export const ageGateApi = {
  get: (env: Environment, signal?: AbortSignal) => request('GET', `/api/age-gate?${queryString({ env })}`, AgeGateStore, { signal }),
  save: (body: AgeGateSaveRequest) => request('PUT', '/api/age-gate', AgeGateStore, { body }),
};
