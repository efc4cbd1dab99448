// The console's screening calls, checked with zod like the rest of api/client.ts. The service's
// response types are TypeScript interfaces (src-shared/contracts/screening.ts); the schemas here
// cover what this screen shows, and the assignment check below fails the typecheck if the
// contract drifts away from them.
import { z } from 'zod';
import { CREDITS, type Environment } from '../../../../src-shared/catalog';
import { LIST_KINDS, ScreeningMatch, type ScreeningResponse, type ScreenRequest } from '../../../../src-shared/contracts/screening';
import { request } from '../../api/client';

/** What a live screening costs; test screenings are free. */
export const SCREEN_COST = CREDITS.screen;

const Kind = z.enum(LIST_KINDS);

const Match = ScreeningMatch;
export type Match = z.output<typeof Match>;

const Version = z.object({
  source: z.string(),
  kind: Kind,
  list_date: z.string().nullable(),
  retrieval_date: z.string().nullable(),
  sha256: z.string(),
});

const Result = z.object({
  id: z.string(),
  livemode: z.boolean(),
  screening: z.object({
    lists_checked: z.array(Kind),
    screened_at: z.string(),
    list_versions: z.array(Version),
  }).loose(),
  risk: z.object({
    score: z.number(),
    level: z.enum(['low', 'medium', 'high']),
    decision: z.enum(['clear', 'review', 'high_risk_review']),
    reasons: z.array(z.string()),
  }),
  matches: z.array(Match),
  flags: z.array(z.string()),
}).loose();
export type ScreeningResult = z.output<typeof Result>;

// Compile-time only: every response the contract describes must be a result this screen
// understands (`loose()` adds an index signature, so compare the named keys).
type Known<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
type ContractFits = ScreeningResponse extends Known<ScreeningResult> ? true : never;
const contractFits: ContractFits = true;
void contractFits;

export type { ListsState, LoadedList } from '../../stores/lists';

export const screeningApi = {
  screen: (env: Environment, body: ScreenRequest, signal?: AbortSignal) =>
    request('POST', `/api/console/screen?env=${encodeURIComponent(env)}`, Result, { body, signal }),
};
