// The acceptance link's token leaves the address as soon as the console sees it and is held in
// memory only until it is of no further use.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetInviteToken, heldInviteToken, installInviteTokenCapture, splitInviteHash } from './invite-token';

const TOKEN = 'q5mTT0m1C0dQ7bJtIpn0s0s3n9zWmWb0-uy2h2m9JmY';

describe('splitInviteHash', () => {
  it('takes the token of an acceptance link and leaves the screen without it', () => {
    expect(splitInviteHash(`#/accept-invite?token=${TOKEN}`)).toEqual({ token: TOKEN, hash: '#/accept-invite' });
    expect(splitInviteHash(`#accept-invite?token=${TOKEN}&x=1`)).toEqual({ token: TOKEN, hash: '#/accept-invite' });
  });

  it('ignores other screens and an acceptance address without a token', () => {
    expect(splitInviteHash(`#/keys?token=${TOKEN}`)).toBeNull();
    expect(splitInviteHash('#/accept-invite')).toBeNull();
    expect(splitInviteHash('')).toBeNull();
  });
});

describe('installInviteTokenCapture', () => {
  let hash = '';
  let onHashChange: (() => void) | null = null;
  const replaced: string[] = [];

  beforeEach(() => {
    replaced.length = 0;
    const location = {
      get hash() {
        return hash;
      },
      get href() {
        return `http://127.0.0.1:4310/${hash}`;
      },
    };
    vi.stubGlobal('window', {
      location,
      history: {
        state: null,
        replaceState: (_s: unknown, _t: string, url: URL) => {
          replaced.push(String(url));
          hash = url.hash;
        },
      },
      addEventListener: (type: string, fn: () => void) => {
        if (type === 'hashchange') onHashChange = fn;
      },
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    forgetInviteToken();
  });

  it('replaces the address at once (no history entry keeps the token), at start-up and on a later link', () => {
    hash = `#/accept-invite?token=${TOKEN}`;
    installInviteTokenCapture();
    expect(hash).toBe('#/accept-invite');
    expect(replaced).toEqual(['http://127.0.0.1:4310/#/accept-invite']);
    expect(heldInviteToken()).toBe(TOKEN);

    hash = '#/accept-invite?token=second-token-value-1234';
    onHashChange?.();
    expect(hash).toBe('#/accept-invite');
    expect(heldInviteToken()).toBe('second-token-value-1234');
    expect(replaced).toHaveLength(2);
    expect(replaced.join()).not.toContain('token');

    // Accepted (or invalid): nothing is held any more.
    forgetInviteToken();
    expect(heldInviteToken()).toBeNull();
  });

  it('leaves every other address alone', () => {
    hash = '#/keys';
    installInviteTokenCapture();
    onHashChange?.();
    expect(replaced).toEqual([]);
    expect(hash).toBe('#/keys');
    expect(heldInviteToken()).toBeNull();
  });
});
