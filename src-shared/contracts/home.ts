// The console's home screen (not in the spec, see docs/decisions.md): what needs attention today,
// and the next setup step of a new install. Counts and flags only: never a subject, never a key.
import { z } from 'zod';

/** A balance under this many credits is called low on the home screen (about a hundred live screenings). */
export const LOW_CREDITS = 100;

export const HomeQuery = z.object({
  /** The start of the analyst's day in their own time zone ("today" is theirs, not the service's). */
  since: z.iso.datetime({ offset: true }),
});
export type HomeQuery = z.infer<typeof HomeQuery>;

export const Home = z.object({
  /** Clearances of strong matches waiting for a second person; null when this user may not approve them. */
  clearances_awaiting: z.number().int().nullable(),
  /** Batch rescreens open now in the organisation; null when this user may not see others' batches. */
  open_batches: z.number().int().nullable(),
  /** Hosted sessions that ended failed since `since`, per environment. */
  hosted_failed: z.object({ test: z.number().int(), live: z.number().int() }),
  /** The balance is everyone's (it says whether live requests will run; docs/roles.md), as on GET /api/account. */
  credits: z.object({ balance: z.number().int(), low: z.boolean() }),
  /** What a new install has set up so far. */
  setup: z.object({
    test_keys: z.number().int(),
    live_keys: z.number().int(),
    webhooks: z.number().int(),
    members: z.number().int(),
    four_eyes: z.boolean(),
  }),
});
export type Home = z.infer<typeof Home>;
