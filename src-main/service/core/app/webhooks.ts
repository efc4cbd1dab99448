// Webhook endpoints added, removed and re-keyed, by an owner or admin in the console or by the
// admin CLI: each act and its audit row commit together. The row names the endpoint by its id
// and environment; its URL is the customer's configuration and is never written to the log.
import type { Environment } from '../../../../src-shared/catalog';
import type { Audit, AuditActorRef } from '../audit/audit';
import type { Webhooks } from '../webhooks/webhooks';

/** What these use cases use: the endpoints and the audit log, nothing else. */
interface WebhookDeps { webhooks: Webhooks; audit: Audit }

export interface NewEndpoint { url: string; env: Environment; events: string[]; description?: string | undefined }

export function addWebhook(s: WebhookDeps, orgId: number, actor: AuditActorRef, createdBy: number | null, input: NewEndpoint) {
  return s.audit.atomically(() => {
    const created = s.webhooks.create({
      orgId, url: input.url, env: input.env, events: input.events, createdBy, ...(input.description ? { description: input.description } : {}),
    });
    s.audit.record({ orgId, actor, action: 'webhook.added', objectId: created.endpoint.id, env: created.endpoint.env });
    return created;
  });
}

export function removeWebhook(s: WebhookDeps, orgId: number, actor: AuditActorRef, id: string): void {
  s.audit.atomically(() => {
    const { env } = s.webhooks.get(orgId, id);
    s.webhooks.remove(orgId, id);
    s.audit.record({ orgId, actor, action: 'webhook.removed', objectId: id, env });
  });
}

export function rotateWebhookSecret(s: WebhookDeps, orgId: number, actor: AuditActorRef, id: string) {
  return s.audit.atomically(() => {
    const rotated = s.webhooks.rotateSecret(orgId, id);
    s.audit.record({ orgId, actor, action: 'webhook.secret_rotated', objectId: id, env: rotated.endpoint.env });
    return rotated;
  });
}
