import { type WEBHOOK_EVENTS } from '../../../../src-shared/contracts/webhooks';

export type SubscribableEvent = (typeof WEBHOOK_EVENTS)[number];

/** How the console describes each event; the API's own event name is shown next to it. */
export const EVENT_INFO: Record<SubscribableEvent, { label: string; description: string }> = {
  'verification.completed': { label: 'Verification completed', description: 'A hosted verification finished. Carries the authoritative result.' },
  'compliance.screening.completed': { label: 'Screening completed', description: 'A sanctions and watchlist screening succeeded.' },
  'compliance.screening.failed': { label: 'Screening failed', description: 'A screening could not finish, for example a source was unavailable.' },
  'compliance.rescreen.completed': { label: 'Rescreen completed', description: 'A rescreen against the current lists succeeded.' },
  'compliance.rescreen.risk_changed': { label: 'Risk changed on rescreen', description: 'A rescreen raised or lowered the risk level.' },
  'compliance.completed': { label: 'KYC plus completed', description: 'Legacy KYC plus pipeline: a check finished.' },
  'compliance.hit_detected': { label: 'Hit detected', description: 'Legacy KYC plus pipeline: a potential match was found.' },
  'compliance.report_ready': { label: 'Report ready', description: 'Legacy KYC plus pipeline: a report is ready.' },
};

export function eventLabel(event: string): string {
  if (event === 'webhook.test') return 'Test event';
  return (EVENT_INFO as Record<string, { label: string } | undefined>)[event]?.label ?? event;
}
