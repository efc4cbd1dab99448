// The console's home screen: what needs attention today for this user, and what a new install
// has set up. Counts and flags only (docs/decisions.md, "Home screen").
import { type Home, LOW_CREDITS } from '../../../../src-shared/contracts/home';
import { may } from '../../../../src-shared/policy';
import type { Accounts, SessionContext } from '../accounts/accounts';
import type { Credits } from '../credits/credits';
import type { HostedSessions } from '../hosted/sessions';
import type { Keys } from '../keys/keys';
import type { Review } from '../review/review';
import type { Batches } from '../screening/batch';
import type { Webhooks } from '../webhooks/webhooks';

/** What the home screen reads: counts from each of these, nothing else. */
export interface HomeDeps {
  keys: Keys;
  credits: Credits;
  review: Review;
  batches: Batches;
  hosted: HostedSessions;
  webhooks: Webhooks;
  accounts: Accounts;
}

/** `since`: the start of the user's day, as an ISO instant with its offset. */
export async function home(s: HomeDeps, session: SessionContext, since: string): Promise<Home> {
  const { org, user } = session;
  const keys = (await s.keys.list(org.id, org.plan)).filter((k) => k.revoked_at === null);
  const balance = await s.credits.balance(org.id);
  return {
    clearances_awaiting: may(user.role, 'review.approve') ? await s.review.pendingCount(org.id) : null,
    open_batches: may(user.role, 'batches.manage_all') ? (await s.batches.open(org.id)).length : null,
    hosted_failed: await s.hosted.failedSince(org.id, new Date(since).toISOString()),
    credits: { balance, low: balance < LOW_CREDITS },
    setup: {
      test_keys: keys.filter((k) => k.env === 'test').length,
      live_keys: keys.filter((k) => k.env === 'live').length,
      webhooks: (await s.webhooks.list(org.id)).length,
      members: (await s.accounts.membersOf(org.id)).length,
      four_eyes: s.review.settings(org).four_eyes,
    },
  };
}
