// The console's screening calls, answers parsed with the contract's own schema
// (src-shared/contracts/screening.ts), as the service declares it.
import { CREDITS, type Environment } from '../../../../src-shared/catalog';
import { ScreeningResponse, type ScreeningMatch, type ScreenRequest } from '../../../../src-shared/contracts/screening';
import { request } from '../../api/client';

/** What a live screening costs; test screenings are free. */
export const SCREEN_COST = CREDITS.screen;

export type Match = ScreeningMatch;
export type ScreeningResult = ScreeningResponse;

export type { ListsState, LoadedList } from '../../stores/lists';

export const screeningApi = {
  screen: (env: Environment, body: ScreenRequest, signal?: AbortSignal) =>
    request('POST', `/api/console/screen?env=${encodeURIComponent(env)}`, ScreeningResponse, { body, signal }),
};
