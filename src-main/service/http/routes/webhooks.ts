// Webhook endpoints for the console: everyone in the organisation may look; owners and admins
// add, remove and test. The signing secret is shown once, at creation. Adding, removing and
// rotating are audited (core/app/webhooks.ts).
import { Message } from '../../../../src-shared/contracts/common';
import {
  CreatedWebhook, CreateWebhookRequest, RotatedWebhookSecret, UpdateWebhookPrivateHosts, WebhookDelivery, WebhookDeliveryList, WebhookList,
  WebhookPrivateHosts, WebhookTestQueued,
} from '../../../../src-shared/contracts/webhooks';
import { addWebhook, removeWebhook, rotateWebhookSecret } from '../../core/app/webhooks';
import { actorOf } from '../../core/audit/audit';
import type { Router } from '../router';

const MANAGERS = { kind: 'session', act: 'webhooks.manage' } as const;
const TAGS = ['webhooks'];

export function webhookRoutes({ route, services }: Router): void {
  const { webhooks } = services;

  route({
    method: 'GET', path: '/api/webhooks', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The organisation\'s webhook endpoints',
    responses: { 200: WebhookList },
    handler: async (c) => c.json<WebhookList>({ endpoints: await webhooks.list(c.get('session').org.id) }),
  });

  route({
    method: 'GET', path: '/api/webhooks/private-hosts', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The hosts on private networks the organisation\'s webhooks may reach (an on-premises receiver)',
    description: 'Webhooks are refused for loopback, link-local, private and reserved addresses and this computer\'s own, when an endpoint is added (an address in the URL) '
      + 'and at every delivery (the addresses its name resolves to), unless the owner named the URL\'s host here.',
    responses: { 200: WebhookPrivateHosts },
    handler: async (c) => c.json<WebhookPrivateHosts>({ hosts: await services.organization.webhookPrivateHosts(c.get('session').org.id) }),
  });

  route({
    method: 'PUT', path: '/api/webhooks/private-hosts', auth: { kind: 'session', act: 'webhooks.allow_private' }, tags: TAGS,
    summary: 'Name the hosts on private networks webhooks may reach (owner; the whole list, empty for none)',
    request: { body: UpdateWebhookPrivateHosts },
    responses: { 200: WebhookPrivateHosts },
    handler: async (c, input) => {
      const body = await input.body();
      const s = c.get('session');
      return c.json<WebhookPrivateHosts>({ hosts: await services.organization.setWebhookPrivateHosts(s.user, s.org.id, body.hosts) });
    },
  });

  route({
    method: 'POST', path: '/api/webhooks', auth: MANAGERS, tags: TAGS,
    summary: 'Add a webhook endpoint (the signing secret is shown once)',
    request: { body: CreateWebhookRequest },
    responses: { 201: CreatedWebhook },
    handler: async (c, input) => {
      const s = c.get('session');
      const body = await input.body();
      const created = await addWebhook(services, s.org.id, actorOf(s.user), s.user.id, body);
      return c.json<CreatedWebhook>(created, 201);
    },
  });

  route({
    method: 'DELETE', path: '/api/webhooks/:id', auth: MANAGERS, tags: TAGS,
    summary: 'Remove a webhook endpoint',
    responses: { 200: Message },
    handler: async (c) => {
      const s = c.get('session');
      await removeWebhook(services, s.org.id, actorOf(s.user), c.req.param('id') ?? '');
      return c.json<Message>({ message: 'Webhook endpoint removed' });
    },
  });

  route({
    method: 'POST', path: '/api/webhooks/:id/test', auth: MANAGERS, tags: TAGS,
    summary: 'Queue a test event for an endpoint',
    responses: { 202: WebhookTestQueued },
    handler: async (c) => {
      const eventId = await webhooks.sendTest(c.get('session').org.id, c.req.param('id') ?? '');
      return c.json<WebhookTestQueued>({ message: 'Test event queued', event_id: eventId }, 202);
    },
  });

  route({
    method: 'GET', path: '/api/webhooks/:id/deliveries', auth: { kind: 'session' }, tags: TAGS,
    summary: 'An endpoint\'s delivery log',
    responses: { 200: WebhookDeliveryList },
    handler: async (c) => c.json<WebhookDeliveryList>({ deliveries: await webhooks.deliveries(c.get('session').org.id, c.req.param('id') ?? '') }),
  });

  route({
    method: 'POST', path: '/api/webhooks/:id/deliveries/:delivery/retry', auth: MANAGERS, tags: TAGS,
    summary: 'Tries a failed delivery again now (one more attempt, signed afresh)',
    responses: { 200: WebhookDelivery },
    handler: async (c) =>
      c.json<WebhookDelivery>(await webhooks.retry(c.get('session').org.id, c.req.param('id') ?? '', c.req.param('delivery') ?? '')),
  });

  route({
    method: 'POST', path: '/api/webhooks/:id/rotate-secret', auth: MANAGERS, tags: TAGS,
    summary: 'A new signing secret, shown once; the old one keeps signing for 24 hours',
    description:
      'During the overlap X-Service-Signature is still made with the old secret and X-Service-Signature-Next with the new one; ' +
      'after it, X-Service-Signature alone with the new secret. Switch the receiver to the new secret within the overlap. 409 while an overlap runs.',
    responses: { 200: RotatedWebhookSecret },
    handler: async (c) => {
      const s = c.get('session');
      return c.json<RotatedWebhookSecret>(await rotateWebhookSecret(services, s.org.id, actorOf(s.user), c.req.param('id') ?? ''));
    },
  });
}
