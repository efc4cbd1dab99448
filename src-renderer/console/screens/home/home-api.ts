// The home screen's one request: what needs attention today (contract: src-shared/contracts/home.ts).
import { Home } from '../../../../src-shared/contracts/home';
import { localDayStart, localToday } from '../../../../src-shared/dates';
import { queryString, request } from '../../api/client';

export const homeApi = {
  /** "Today" is the analyst's own day: it starts at their local midnight. */
  get: (signal?: AbortSignal) => request('GET', `/api/home?${queryString({ since: localDayStart(localToday()) })}`, Home, { signal }),
};
