// Webhook endpoints for the console: everyone in the organisation may look; owners and admins
// add, remove and test. The signing secret is shown once, at creation.
import { CreateWebhookRequest, type CreatedWebhook } from '../../../../src-shared/contracts/webhooks';
import type { Router } from '../app';
import { parseJson } from '../validate';

const MANAGERS = { kind: 'session', roles: ['owner', 'admin'] } as const;

export function webhookRoutes({ route, services }: Router): void {
  const { webhooks } = services;

  route('GET', '/api/webhooks', { kind: 'session' }, (c) => c.json({ endpoints: webhooks.list(c.get('session').org.id) }));

  route('POST', '/api/webhooks', MANAGERS, async (c) => {
    const s = c.get('session');
    const body = await parseJson(c, CreateWebhookRequest, { error: 'account_validation' });
    const created = webhooks.create({
      orgId: s.org.id, url: body.url, env: body.env, events: body.events, createdBy: s.user.id,
      ...(body.description ? { description: body.description } : {}),
    });
    return c.json<CreatedWebhook>(created, 201);
  });

  route('DELETE', '/api/webhooks/:id', MANAGERS, (c) => {
    webhooks.remove(c.get('session').org.id, c.req.param('id') ?? '');
    return c.json({ message: 'Webhook endpoint removed' });
  });

  route('POST', '/api/webhooks/:id/test', MANAGERS, (c) => {
    const eventId = webhooks.sendTest(c.get('session').org.id, c.req.param('id') ?? '');
    return c.json({ message: 'Test event queued', event_id: eventId }, 202);
  });

  route('GET', '/api/webhooks/:id/deliveries', { kind: 'session' }, (c) =>
    c.json({ deliveries: webhooks.deliveries(c.get('session').org.id, c.req.param('id') ?? '') }),
  );
}
