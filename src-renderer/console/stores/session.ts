// Who is signed in and what the console should show before the app: first run, login, or a
// start-up error. Holds the session's user and organization only, never keys or subject data.
import { create } from 'zustand';
import { PLANS, type Plan } from '../../../src-shared/catalog';
import type { AcceptedInvitation } from '../../../src-shared/contracts/team';
import type { DesktopMember, LoginRequest, Organization, Session, SetupRequest } from '../../../src-shared/contracts/accounts';
import { api, errorText, setUnauthorizedHandler } from '../api/client';
import { shell } from '../api/shell';

/**
 * `locked`: the session ended by itself (expired, signed out elsewhere, the service restarted with
 * its sessions gone) while the console was open. The console stays as it was, hidden behind a
 * password prompt for the same person; requests made meanwhile wait (api/client.ts).
 */
export type SessionStatus = 'booting' | 'first-run' | 'login' | 'choose-member' | 'ready' | 'locked' | 'unreachable';

/** The console's memory (batch results, review decisions) belongs to the session while it is ready or locked. */
export function holdsWork(status: SessionStatus): boolean {
  return status === 'ready' || status === 'locked';
}

interface SessionState {
  status: SessionStatus;
  session: Session | null;
  /** Why the console could not start (service unreachable); shown with a retry button. */
  bootError: string | null;
  version: string | null;
  /** The desktop's "Who is signing in?": the members the shell's token offered. */
  members: DesktopMember[];
  boot: () => Promise<void>;
  setup: (body: SetupRequest) => Promise<void>;
  login: (body: LoginRequest) => Promise<void>;
  /** The chosen member's password on the desktop's "Who is signing in?" screen. */
  desktopLogin: (userId: number, password: string) => Promise<void>;
  /** Leave the choice for the e-mail and password form. */
  switchToEmailLogin: () => void;
  logout: () => Promise<void>;
  /** The locked session's own person signs in again: everything kept, waiting requests sent again. */
  unlock: (password: string) => Promise<void>;
  /** Leave the locked console for the sign-in screen (someone else, or later): its memory is dropped. */
  abandon: () => void;
  /** The organisation changed (its plan): the top bar and plan-gated screens follow at once. */
  setOrganization: (organization: Organization) => void;
  /**
   * An invitation was accepted: the service signed the new account in (or moved the signed-in
   * one to the inviting team), so the session is read again and the console opens with the new
   * role. `joined` says so once, on the Team screen.
   */
  joinedTeam: (accepted: AcceptedInvitation) => Promise<void>;
  joined: AcceptedInvitation | null;
  dismissJoined: () => void;
}

/** Requests waiting for the locked session to be unlocked (true) or abandoned (false). */
let waiting: ((signedInAgain: boolean) => void)[] = [];
function release(signedInAgain: boolean): void {
  const w = waiting;
  waiting = [];
  for (const resolve of w) resolve(signedInAgain);
}

export const useSession = create<SessionState>()((set, get) => ({
  status: 'booting',
  session: null,
  bootError: null,
  version: null,
  joined: null,
  members: [],

  boot: async () => {
    set({ status: 'booting', bootError: null });
    try {
      const setup = await api.setupStatus();
      set({ version: setup.version });
      if (setup.needs_setup) {
        set({ status: 'first-run', session: null });
        return;
      }
      // The desktop shell hands over a one-time token so its user need not type a password.
      const token = await shell()?.takeLoginToken().catch(() => null);
      if (token) {
        try {
          const r = await api.loginWithToken(token);
          if ('choose_member' in r) set({ status: 'choose-member', session: null, members: r.members });
          else set({ status: 'ready', session: r });
          return;
        } catch {
          // A used or unknown token: fall through to the cookie, then to the login screen.
        }
      }
      try {
        set({ status: 'ready', session: await api.me() });
      } catch {
        // A window reloaded while choosing who signs in: its choice (a cookie) may still be open.
        const choice = await api.desktopMembers().catch(() => null);
        set(choice ? { status: 'choose-member', session: null, members: choice.members } : { status: 'login', session: null });
      }
    } catch (e) {
      set({ status: 'unreachable', bootError: errorText(e) });
    }
  },

  setup: async (body) => {
    const session = await api.setup(body);
    set({ status: 'ready', session });
  },

  login: async (body) => {
    const session = await api.login(body);
    set({ status: 'ready', session });
  },

  joinedTeam: async (accepted) => {
    const session = await api.me();
    set({ status: 'ready', session, joined: accepted });
  },

  dismissJoined: () => set({ joined: null }),
  desktopLogin: async (userId, password) => {
    const session = await api.desktopLogin({ user_id: userId, password });
    set({ status: 'ready', session, members: [] });
  },

  switchToEmailLogin: () => set({ status: 'login', members: [] }),

  setOrganization: (organization) =>
    set((s) => (s.session ? { session: { ...s.session, organization } } : {})),

  logout: async () => {
    try {
      await api.logout();
    } finally {
      release(false);
      set({ status: 'login', session: null, joined: null });
    }
  },

  unlock: async (password) => {
    const { session } = get();
    if (get().status !== 'locked' || !session) return;
    const again = await api.login({ email: session.user.email, password });
    // The same e-mail is the same person; a different id (the account was replaced) starts afresh.
    if (again.user.id !== session.user.id) {
      release(false);
      set({ status: 'ready', session: again, joined: null });
      return;
    }
    set({ status: 'ready', session: again });
    release(true);
  },

  abandon: () => {
    release(false);
    set({ status: 'login', session: null, joined: null });
  },
}));

setUnauthorizedHandler(() => {
  const { status } = useSession.getState();
  if (status === 'ready') useSession.setState({ status: 'locked' });
  else if (status !== 'locked') return Promise.resolve(false);
  return new Promise<boolean>((resolve) => waiting.push(resolve));
});

/** The organisation's plan; before the session is known, the least one (nothing is offered that it may lack). */
export function usePlan(): Plan {
  return useSession((s) => s.session?.organization.plan ?? PLANS[0]);
}
