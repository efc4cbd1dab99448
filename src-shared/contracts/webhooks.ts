// Webhook endpoints and their delivery log (session-authenticated; shapes in docs/decisions.md).
import { z } from 'zod';
import { ENVIRONMENTS } from '../catalog';

export const WEBHOOK_EVENTS = [
  'verification.completed',
  'compliance.screening.completed',
  'compliance.screening.failed',
  'compliance.rescreen.completed',
  'compliance.rescreen.risk_changed',
  'compliance.completed',
  'compliance.hit_detected',
  'compliance.report_ready',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number] | 'webhook.test';

/** https anywhere; plain http only to this machine (a receiver under development). */
export const WebhookUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((u) => {
    try {
      const url = new URL(u);
      if (url.username || url.password) return false;
      if (url.protocol === 'https:') return true;
      return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    } catch {
      return false;
    }
  });

export const CreateWebhookRequest = z.object({
  url: WebhookUrl,
  env: z.enum(ENVIRONMENTS),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length),
  description: z.string().trim().max(200).optional(),
});
export type CreateWebhookRequest = z.input<typeof CreateWebhookRequest>;

export const WebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  env: z.enum(ENVIRONMENTS),
  events: z.array(z.string()),
  description: z.string().nullable(),
  secret_prefix: z.string(),
  created_at: z.string(),
  disabled_at: z.string().nullable(),
  /** Added: after a secret rotation, until when deliveries are still signed with the previous secret (null when none). */
  previous_secret_until: z.string().nullable(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const CreatedWebhook = z.object({ endpoint: WebhookEndpoint, secret: z.string() });
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

/** A rotated signing secret: the new one, shown once; the old one keeps signing until `endpoint.previous_secret_until`. */
export const RotatedWebhookSecret = CreatedWebhook;
export type RotatedWebhookSecret = CreatedWebhook;

export const WebhookDelivery = z.object({
  id: z.string(),
  event_id: z.string(),
  event: z.string(),
  state: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number().int(),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  last_latency_ms: z.number().int().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookList = z.object({ endpoints: z.array(WebhookEndpoint) });
export type WebhookList = z.infer<typeof WebhookList>;

/** 202: the test event is in the outbox. */
export const WebhookTestQueued = z.object({ message: z.string(), event_id: z.string().nullable() });
export type WebhookTestQueued = z.infer<typeof WebhookTestQueued>;

export const WebhookDeliveryList = z.object({ deliveries: z.array(WebhookDelivery) });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;

/**
 * The hosts on private networks an organisation's webhooks may reach (issue 39): an on-premises
 * receiver, named by the owner. A host name or an IP address as a URL names it (lower case, an
 * IPv6 address without brackets); at most 20. Every other private, loopback, link-local address
 * and this computer's own is refused (core/webhooks/destination.ts).
 */
export const WEBHOOK_PRIVATE_HOSTS_MAX = 20;
export const WebhookPrivateHost = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(253)
  .regex(/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$|^[0-9a-f:.]+$/, 'a host name or an IP address, without scheme, port or path');
export const WebhookPrivateHosts = z.object({ hosts: z.array(WebhookPrivateHost).max(WEBHOOK_PRIVATE_HOSTS_MAX) });
export type WebhookPrivateHosts = z.infer<typeof WebhookPrivateHosts>;
export const UpdateWebhookPrivateHosts = WebhookPrivateHosts.strict();
export type UpdateWebhookPrivateHosts = z.input<typeof UpdateWebhookPrivateHosts>;
