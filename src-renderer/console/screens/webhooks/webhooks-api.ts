// The webhook endpoints API, checked against the shared contracts like the rest of api/client.ts.
import { Message } from '../../../../src-shared/contracts/common';
import {
  CreatedWebhook, RotatedWebhookSecret, WebhookDelivery, WebhookDeliveryList, WebhookList, WebhookTestQueued, type CreateWebhookRequest,
} from '../../../../src-shared/contracts/webhooks';
import { request } from '../../api/client';

const path = (id: string, rest = '') => `/api/webhooks/${encodeURIComponent(id)}${rest}`;

export const webhooksApi = {
  list: (signal?: AbortSignal) => request('GET', '/api/webhooks', WebhookList, { signal }),
  create: (body: CreateWebhookRequest) => request('POST', '/api/webhooks', CreatedWebhook, { body }),
  remove: (id: string) => request('DELETE', path(id), Message),
  rotate: (id: string) => request('POST', path(id, '/rotate-secret'), RotatedWebhookSecret),
  sendTest: (id: string) => request('POST', path(id, '/test'), WebhookTestQueued),
  deliveries: (id: string, signal?: AbortSignal) => request('GET', path(id, '/deliveries'), WebhookDeliveryList, { signal }),
  retry: (id: string, deliveryId: string) => request('POST', path(id, `/deliveries/${encodeURIComponent(deliveryId)}/retry`), WebhookDelivery),
};
