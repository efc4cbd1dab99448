// The webhook endpoints API, checked against the shared contracts like the rest of api/client.ts.
import { z } from 'zod';
import {
  CreatedWebhook, WebhookDelivery, WebhookEndpoint, type CreateWebhookRequest,
} from '../../../../src-shared/contracts/webhooks';
import { request } from '../../api/client';

const EndpointList = z.object({ endpoints: z.array(WebhookEndpoint) });
const DeliveryList = z.object({ deliveries: z.array(WebhookDelivery) });
const Removed = z.object({ message: z.string() }).loose();
const TestQueued = z.object({ message: z.string(), event_id: z.string().nullable() }).loose();

const path = (id: string, rest = '') => `/api/webhooks/${encodeURIComponent(id)}${rest}`;

export const webhooksApi = {
  list: (signal?: AbortSignal) => request('GET', '/api/webhooks', EndpointList, { signal }),
  create: (body: CreateWebhookRequest) => request('POST', '/api/webhooks', CreatedWebhook, { body }),
  remove: (id: string) => request('DELETE', path(id), Removed),
  sendTest: (id: string) => request('POST', path(id, '/test'), TestQueued),
  deliveries: (id: string, signal?: AbortSignal) => request('GET', path(id, '/deliveries'), DeliveryList, { signal }),
};
