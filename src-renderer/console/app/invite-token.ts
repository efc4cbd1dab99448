// The token of an invitation's acceptance link (`<origin>/#/accept-invite?token=…`). It is taken
// out of the address as soon as the console sees it (history.replaceState: neither the address
// bar, the tab's history nor a copied URL keeps it) and held in this module's memory only, never
// in storage or a log, until the invitation is accepted or turns out invalid.
import { useSyncExternalStore } from 'react';
import { parseHash } from './router';

export const ACCEPT_INVITE = 'accept-invite';

/**
 * The token in an acceptance link's hash and the hash to show instead (the same screen, no
 * query); null when `hash` is not an acceptance link carrying a token.
 */
export function splitInviteHash(hash: string): { token: string; hash: string } | null {
  const location = parseHash(hash);
  if (location.screen !== ACCEPT_INVITE) return null;
  const token = location.query.get('token');
  if (token === null) return null;
  return { token: token.trim(), hash: `#/${ACCEPT_INVITE}` };
}

let held: string | null = null;
const listeners = new Set<() => void>();

function setHeld(token: string | null): void {
  if (held === token) return;
  held = token;
  for (const l of listeners) l();
}

function capture(): void {
  const split = splitInviteHash(window.location.hash);
  if (!split) return;
  const url = new URL(window.location.href);
  url.hash = split.hash;
  window.history.replaceState(window.history.state, '', url);
  setHeld(split.token);
}

/**
 * Called once before the console renders: takes a token from the address now and from every
 * later acceptance link opened in this window. Registered before the router's own listener, so
 * the router only ever sees `#/accept-invite`.
 */
export function installInviteTokenCapture(): void {
  capture();
  window.addEventListener('hashchange', capture);
}

/** The token being accepted, if any. */
export function heldInviteToken(): string | null {
  return held;
}

/** The token being accepted, if any, for a screen (it re-renders when another link is opened). */
export function useInviteToken(): string | null {
  return useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    () => held,
  );
}

/** After acceptance (or an invalid token): the token is of no further use and is dropped. */
export function forgetInviteToken(): void {
  setHeld(null);
}
