// How the console names hosted-session products, states and redirect problems.
import type { HOSTED_PRODUCTS, HOSTED_STATES, HostedSessionView } from '../../../../src-shared/contracts/hosted';
import type { BadgeTone } from '../../components/Badge';
import { PRODUCT_LABEL } from '../../components/product-labels';

export type HostedProduct = (typeof HOSTED_PRODUCTS)[number];
export type HostedState = (typeof HOSTED_STATES)[number];

/** What each product asks of the person on the hosted page. */
export const PRODUCT_INFO: Record<HostedProduct, { label: string; description: string }> = {
  human: { label: PRODUCT_LABEL.human, description: 'A selfie: is a real person in front of the camera.' },
  age: { label: PRODUCT_LABEL.age, description: 'Date of birth and a selfie; an ID document when the selfie is not conclusive.' },
  identity: { label: PRODUCT_LABEL.identity, description: 'A selfie and an ID document, matched to each other.' },
  compliance: { label: PRODUCT_LABEL.compliance, description: 'Identity, then the holder screened against sanctions and watchlists.' },
};

export const STATE_INFO: Record<HostedState, { label: string; tone: BadgeTone; description: string }> = {
  created: { label: 'Created', tone: 'info', description: 'The link has not been opened yet.' },
  opened: { label: 'Opened', tone: 'warning', description: 'The link was opened; the check is not finished.' },
  completed: { label: 'Completed', tone: 'positive', description: 'The check was done; the link no longer works.' },
  revoked: { label: 'Revoked', tone: 'neutral', description: 'Revoked from the console; the link no longer works.' },
  expired: { label: 'Expired', tone: 'neutral', description: 'The link expired before the check was done.' },
};

export const OUTCOME_INFO: Record<NonNullable<HostedSessionView['outcome']>, { label: string; tone: BadgeTone }> = {
  passed: { label: 'Passed', tone: 'positive' },
  failed: { label: 'Failed', tone: 'negative' },
};

/** A session whose link still works, so it can be revoked. */
export const isOpen = (s: HostedSessionView) => s.state === 'created' || s.state === 'opened';

/** The service's redirect issue codes, said for the field they belong to. */
const REDIRECT_ISSUE: Record<string, string> = {
  not_a_url: 'Enter a whole address, starting with https:// (or your app\'s scheme).',
  refused_scheme: 'This kind of address is not allowed. Use https://, or your app\'s own scheme registered in Settings → App schemes.',
  scheme_not_registered: 'This app scheme is not registered. Add it in Settings → App schemes, or use https://.',
  http_not_allowed: 'Use https://. Plain http:// is accepted only for this computer (localhost, 127.x.x.x), while you test.',
  credentials_in_url: 'Remove the user name or password from the address.',
  too_long: 'Keep the address under 2048 characters.',
};

export function redirectIssueText(issue: string, fallback: string): string {
  return REDIRECT_ISSUE[issue] ?? fallback;
}
