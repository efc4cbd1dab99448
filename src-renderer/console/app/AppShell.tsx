// The signed-in layout: test-mode banner, left navigation, top bar, and the current screen.
import { useEffect, useRef } from 'react';
import { PLAN_INFO } from '../../../src-shared/catalog';
import { Badge } from '../components/Badge';
import { TestModeBanner } from '../components/TestModeBanner';
import { NotFoundScreen, PlaceholderScreen } from '../screens/placeholder/PlaceholderScreen';
import { useEnv } from '../stores/env';
import { useSession } from '../stores/session';
import { EnvSwitch } from './EnvSwitch';
import { ShortcutsHelp } from './ShortcutsHelp';
import { href, navigate, useLocation } from './router';
import { findRoute, HOME, NAV_GROUPS, ROUTES } from './routes';
import { useUnsavedWarning } from './use-unsaved-warning';
import { useDiscardGuard } from '../components/batch/use-discard-guard';
import { useSaveResults } from '../components/batch/use-save-results';
import { may } from '../../../src-shared/policy';

function Nav({ current }: { current: string }) {
  const role = useSession((s) => s.session?.user.role);
  const visible = ROUTES.filter((r) => !r.act || may(role, r.act));
  return (
    <nav className="nav" aria-label="Main" data-testid="nav">
      {NAV_GROUPS.map((group) => (
        <div key={group} className="nav-group">
          <h2 className="nav-group-title" id={`nav-${group}`}>
            {group}
          </h2>
          <ul aria-labelledby={`nav-${group}`}>
            {visible.filter((r) => r.group === group).map((r) => (
              <li key={r.path}>
                <a
                  href={href(r.path)}
                  aria-current={r.path === current ? 'page' : undefined}
                  className={r.screen ? undefined : 'nav-soon'}
                  data-testid={`nav-${r.path}`}
                >
                  <span>{r.label}</span>
                  {r.screen ? null : <span className="nav-tag">Soon</span>}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}

function UserMenu() {
  const session = useSession((s) => s.session);
  const logout = useSession((s) => s.logout);
  const { save, notice } = useSaveResults();
  // Signing out drops the batch results: unsaved decisions are named first.
  const { guard, dialog } = useDiscardGuard(save);
  if (!session) return null;
  const { user } = session;
  return (
    <div className="user">
      <div className="user-text">
        <span className="user-name" data-testid="user-name">{user.name}</span>
        <span className="user-email">{user.email}</span>
      </div>
      <button type="button" className="btn btn-small" onClick={() => guard('Sign out', () => void logout())} data-testid="logout">
        Sign out
      </button>
      {notice?.tone === 'error' ? <span className="user-save-error" role="alert" data-testid="logout-save-error">{notice.text}</span> : null}
      {dialog}
    </div>
  );
}

/** `locked`: the session ended by itself; everything stays mounted, hidden and inert, under SessionLock. */
export function AppShell({ locked = false }: { locked?: boolean }) {
  const location = useLocation();
  const session = useSession((s) => s.session);
  const env = useEnv((s) => s.env);
  const mainRef = useRef<HTMLElement>(null);
  const firstRender = useRef(true);
  useUnsavedWarning();

  // No screen in the address: open the home screen without adding a history entry.
  useEffect(() => {
    if (!location.screen) navigate(HOME, { replace: true });
  }, [location.screen]);

  const route = findRoute(location.screen || HOME);

  useEffect(() => {
    document.title = `${route?.label ?? 'Not found'} · Compliance Console`;
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    // Move focus to the new screen's heading so keyboard and screen-reader users follow along.
    mainRef.current?.querySelector<HTMLElement>('[data-screen-title]')?.focus();
    mainRef.current?.scrollTo?.({ top: 0 });
  }, [route?.path, route?.label]);

  const org = session?.organization;
  let content;
  if (!route) content = <NotFoundScreen path={location.screen} />;
  else if (route.screen) content = <route.screen />;
  else content = <PlaceholderScreen title={route.label} summary={route.summary} arrivesWith={route.arrivesWith ?? route.label} />;

  return (
    <div className={`app app-env-${env}${locked ? ' app-locked' : ''}`} inert={locked} aria-hidden={locked || undefined}>
      <TestModeBanner />
      <div className="app-body">
        <aside className="sidebar">
          <div className="brand">
            <span className="brand-mark" aria-hidden="true">CC</span>
            <span className="brand-name">Compliance Console</span>
          </div>
          <button type="button" className="skip-link" onClick={() => mainRef.current?.focus()}>
            Skip to content
          </button>
          <Nav current={route?.path ?? ''} />
        </aside>
        <div className="content">
          <header className="topbar">
            <div className="org">
              <span className="org-name" data-testid="org-name">{org?.name}</span>
              {org ? (
                <a href={href('plan')} className="org-plan" title="Plan & credits" data-testid="org-plan">
                  <Badge>{PLAN_INFO[org.plan].label}</Badge>
                </a>
              ) : null}
            </div>
            <div className="topbar-right">
              <EnvSwitch />
              <UserMenu />
            </div>
          </header>
          <main id="main" ref={mainRef} tabIndex={-1} className="main" data-screen={route?.path ?? 'not-found'}>
            <div className="main-inner">{content}</div>
          </main>
          <ShortcutsHelp />
        </div>
      </div>
    </div>
  );
}
