// What the acceptance screen makes of each answer of POST /api/team/invite/accept. The answers are
// the service's own bodies (errorResponse, the one error table) sent through the console's client
// over a stubbed fetch, so the client's parsing is part of what is checked.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, type ErrorCode, type ErrorDetails } from '../../../../src-shared/errors';
import { api, ApiError, setUnauthorizedHandler } from '../../api/client';
import { refusalOf } from './accept-outcome';

const TOKEN = 'A'.repeat(43);
let sent: { url: string; body: unknown }[] = [];

function answer(status: number, body: unknown) {
  vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit) => {
    sent.push({ url, body: JSON.parse(String(init.body)) });
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  }));
}

function refuse(code: ErrorCode, details?: ErrorDetails) {
  const r = errorResponse(code, details);
  answer(r.status, r.body);
}

async function refusal() {
  try {
    await api.acceptInvite({ token: TOKEN });
  } catch (e) {
    return refusalOf(e);
  }
  throw new Error('accepted');
}

beforeEach(() => {
  sent = [];
  vi.stubGlobal('window', { location: { origin: 'http://127.0.0.1:4310' } });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthorizedHandler(null);
});

describe('refusalOf (answers of the accept route)', () => {
  it('a used, cancelled, expired or unknown token is `Invalid invitation token`, as is a malformed one', async () => {
    refuse('invalid_invitation');
    expect(await refusal()).toEqual({ kind: 'invalid' });
    refuse('account_validation', { field: 'token' });
    expect(await refusal()).toEqual({ kind: 'invalid' });
  });

  it('not signed in with an account for the invited e-mail: sign in; the 401 does not end the console\'s session', async () => {
    const ended = vi.fn();
    setUnauthorizedHandler(ended);
    refuse('invitation_login_required');
    expect(await refusal()).toEqual({ kind: 'sign-in' });
    expect(ended).not.toHaveBeenCalled();
  });

  it('no account yet: the service asks for the name (then the password), so the screen shows the create form', async () => {
    refuse('account_validation', { field: 'name', message: 'Your name and a password (at least 10 characters) create your account' });
    expect(await refusal()).toEqual({ kind: 'create', field: 'name' });
    refuse('account_validation', { field: 'password' });
    expect(await refusal()).toEqual({ kind: 'create', field: 'password' });
  });

  it('signed in as another account: the spec\'s explanation, as the service words it', async () => {
    refuse('invitation_other_account');
    expect(await refusal()).toEqual({
      kind: 'other-account', message: 'This invitation is for another e-mail address. Log out and log in with the invited e-mail.',
    });
  });

  it('everything else is said as the service says it', async () => {
    refuse('invitation_other_owner');
    expect(await refusal()).toEqual({ kind: 'refused', message: 'The owner of another organization cannot join a team; ownership must be transferred first' });
    refuse('already_on_team');
    expect(await refusal()).toEqual({ kind: 'refused', message: 'Email already on team' });
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('fetch failed'))));
    expect(await refusal()).toEqual({ kind: 'refused', message: 'Cannot reach the Compliance Console service. Is it running?' });
  });

  it('sends the token in the body, never in the address', async () => {
    refuse('invalid_invitation');
    await refusal();
    expect(sent).toEqual([{ url: 'http://127.0.0.1:4310/api/team/invite/accept', body: { token: TOKEN } }]);
  });
});

describe('the client reads the team limit\'s counts', () => {
  it('`current` and `limit` of a team-full answer reach the screen', async () => {
    refuse('team_full', { current: 3, team_limit: 3 });
    const e = await api.invite({ email: 'x@example.test', role: 'member' }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).message).toBe('Team limit reached. Upgrade your plan for more members.');
    expect((e as ApiError).status).toBe(403);
    expect((e as ApiError).counts).toEqual({ current: 3, limit: 3 });
  });

  it('other account errors carry no counts', async () => {
    refuse('already_on_team');
    const e = await api.invite({ email: 'x@example.test', role: 'member' }).catch((err: unknown) => err);
    expect((e as ApiError).counts).toBeUndefined();
    expect((e as ApiError).status).toBe(409);
  });
});
