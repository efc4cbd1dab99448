// Who is signed in and what the console should show before the app: first run, login, or a
// start-up error. Holds the session's user and organization only, never keys or subject data.
import { create } from 'zustand';
import { PLANS, type Plan } from '../../../src-shared/catalog';
import type { AcceptedInvitation } from '../../../src-shared/contracts/team';
import type { DesktopMember, LoginRequest, Organization, Session, SetupRequest } from '../../../src-shared/contracts/accounts';
import { api, errorText, setUnauthorizedHandler } from '../api/client';
import { shell } from '../api/shell';

export type SessionStatus = 'booting' | 'first-run' | 'login' | 'choose-member' | 'ready' | 'unreachable';

interface SessionState {
  status: SessionStatus;
  session: Session | null;
  /** Why the console could not start (service unreachable); shown with a retry button. */
  bootError: string | null;
  /** Set when the session ended by itself (expired, logged out elsewhere). */
  notice: string | null;
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

export const useSession = create<SessionState>()((set) => ({
  status: 'booting',
  session: null,
  bootError: null,
  notice: null,
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
    set({ status: 'ready', session, notice: null });
  },

  login: async (body) => {
    const session = await api.login(body);
    set({ status: 'ready', session, notice: null });
  },

  joinedTeam: async (accepted) => {
    const session = await api.me();
    set({ status: 'ready', session, notice: null, joined: accepted });
  },

  dismissJoined: () => set({ joined: null }),
  desktopLogin: async (userId, password) => {
    const session = await api.desktopLogin({ user_id: userId, password });
    set({ status: 'ready', session, notice: null, members: [] });
  },

  switchToEmailLogin: () => set({ status: 'login', members: [] }),

  setOrganization: (organization) =>
    set((s) => (s.session ? { session: { ...s.session, organization } } : {})),

  logout: async () => {
    try {
      await api.logout();
    } finally {
      set({ status: 'login', session: null, notice: null, joined: null });
    }
  },
}));

setUnauthorizedHandler(() => {
  if (useSession.getState().status !== 'ready') return;
  useSession.setState({ status: 'login', session: null, notice: 'Your session has ended. Please sign in again.' });
});

/** The organisation's plan; before the session is known, the least one (nothing is offered that it may lack). */
export function usePlan(): Plan {
  return useSession((s) => s.session?.organization.plan ?? PLANS[0]);
}
