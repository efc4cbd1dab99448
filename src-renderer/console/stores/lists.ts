// The lists the service screens against (GET /api/screening/lists), shared by every screen that
// shows them (screening form and lists panel, batch run): one request at a time, one poll while
// the service is still loading them or while a change (an import, a removal) has not shown yet,
// and only while some screen is looking (`useLists`).
import { useEffect } from 'react';
import { create } from 'zustand';
import { ListsStatus } from '../../../src-shared/contracts/lists';
import { errorText, request } from '../api/client';

export type { LoadedList, UserList } from '../../../src-shared/contracts/lists';
export type ListsState = ListsStatus;

const POLL_MS = 1000;
/** How long to keep asking after a change before showing whatever the service has. */
const SETTLE_MS = 20_000;

/** What the lists must show once the service has rebuilt them after a change. */
type Expected = (lists: ListsState) => boolean;

interface ListsStore {
  data: ListsState | undefined;
  error: string | null;
  loading: boolean;
  /** A change is stored and the lists do not show it yet. */
  settling: boolean;
  /** Ask the service now (a request already on its way is answer enough). */
  refresh: () => void;
  /** Something changed the lists: ask again until they show it (or SETTLE_MS pass). */
  changed: (expected: Expected) => void;
}

let viewers = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
let inFlight: AbortController | null = null;
let awaited: { expected: Expected; until: number } | null = null;

function schedule(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  if (viewers === 0) return;
  const { data } = useListsStore.getState();
  if (awaited && data && (awaited.expected(data) || Date.now() > awaited.until)) {
    awaited = null;
    useListsStore.setState({ settling: false });
  }
  if (data?.state === 'loading' || awaited) timer = setTimeout(() => useListsStore.getState().refresh(), POLL_MS);
}

export const useListsStore = create<ListsStore>()((set) => ({
  data: undefined,
  error: null,
  loading: false,
  settling: false,
  refresh: () => {
    if (inFlight) return;
    const controller = new AbortController();
    inFlight = controller;
    set({ loading: true });
    request('GET', '/api/screening/lists', ListsStatus, { signal: controller.signal })
      .then((data) => set({ data, error: null }))
      .catch((e: unknown) => {
        if (!controller.signal.aborted) set({ error: errorText(e) });
      })
      .finally(() => {
        if (inFlight === controller) inFlight = null;
        set({ loading: false });
        schedule();
      });
  },
  changed: (expected) => {
    awaited = { expected, until: Date.now() + SETTLE_MS };
    set({ settling: true });
    inFlight?.abort();
    inFlight = null;
    useListsStore.getState().refresh();
  },
}));

/** The shared lists; the first screen to look starts the requests, the last to leave stops them. */
export function useLists(): ListsStore {
  const store = useListsStore();
  useEffect(() => {
    viewers += 1;
    if (viewers === 1) useListsStore.getState().refresh();
    return () => {
      viewers -= 1;
      if (viewers > 0) return;
      awaited = null;
      useListsStore.setState({ settling: false });
      if (timer) clearTimeout(timer);
      timer = null;
      inFlight?.abort();
      inFlight = null;
    };
  }, []);
  return store;
}
