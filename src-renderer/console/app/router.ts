// Hash routing (`#/keys`, `#/plan`): the console is one file served at `/`, and links from the
// service (an error's upgrade_url is `/#/plan`) must open the right screen in any shell.
import { useSyncExternalStore } from 'react';

export interface Location {
  /** First path segment, e.g. `keys` for `#/keys/abc`; empty for the home route. */
  screen: string;
  /** Remaining segments, for screens with detail views later. */
  rest: string[];
  query: URLSearchParams;
}

export function parseHash(hash: string): Location {
  const raw = hash.replace(/^#\/?/, '');
  const [pathPart = '', queryPart = ''] = raw.split('?', 2);
  const segments = pathPart.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
  return { screen: segments[0] ?? '', rest: segments.slice(1), query: new URLSearchParams(queryPart) };
}

export function href(screen: string): string {
  return `#/${screen}`;
}

export function navigate(screen: string, opts: { replace?: boolean } = {}): void {
  const target = href(screen);
  if (opts.replace) {
    const url = new URL(window.location.href);
    url.hash = target;
    window.history.replaceState(window.history.state, '', url);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    window.location.hash = target;
  }
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

function snapshot(): string {
  return window.location.hash;
}

export function useLocation(): Location {
  const hash = useSyncExternalStore(subscribe, snapshot);
  return parseHash(hash);
}
