// Webhook endpoints added, removed and re-keyed, by an owner or admin in the console or by the
// admin CLI: each act and its audit row commit together. The row names the endpoint by its id
// and environment; its URL is the customer's configuration and is never written to the log.
import type { Environment } from '../../../../src-shared/catalog';
import type { Engine } from '../../db/engine';
import type { Audit, AuditActorRef } from '../audit/audit';
import type { Webhooks } from '../webhooks/webhooks';

/** What these use cases use: the engine (their transaction), the endpoints and the audit log, nothing else. */
interface WebhookDeps { engine: Engine; webhooks: Webhooks; audit: Audit }

export interface NewEndpoint { url: string; env: Environment; events: string[]; description?: string | undefined }

export function addWebhook(s: WebhookDeps, orgId: number, actor: AuditActorRef, createdBy: number | null, input: NewEndpoint) {
  return s.engine.transaction(async (tx) => {
    const created = await s.webhooks.create({
      orgId, url: input.url, env: input.env, events: input.events, createdBy, ...(input.description ? { description: input.description } : {}),
    }, tx);
    await s.audit.record({ orgId, actor, action: 'webhook.added', objectId: created.endpoint.id, env: created.endpoint.env }, tx);
    return created;
  });
}

export function removeWebhook(s: WebhookDeps, orgId: number, actor: AuditActorRef, id: string): Promise<void> {
  return s.engine.transaction(async (tx) => {
    const { env } = await s.webhooks.get(orgId, id, tx);
    await s.webhooks.remove(orgId, id, tx);
    await s.audit.record({ orgId, actor, action: 'webhook.removed', objectId: id, env }, tx);
  });
}

export function rotateWebhookSecret(s: WebhookDeps, orgId: number, actor: AuditActorRef, id: string) {
  return s.engine.transaction(async (tx) => {
    const rotated = await s.webhooks.rotateSecret(orgId, id, tx);
    await s.audit.record({ orgId, actor, action: 'webhook.secret_rotated', objectId: id, env: rotated.endpoint.env }, tx);
    return rotated;
  });
}
