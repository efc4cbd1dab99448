// Home: what needs attention today, each with the screen that deals with it, and for a new install
// the next step of its set-up. Counts and flags only; nothing about a subject.
import type { ReactNode } from 'react';
import type { Home } from '../../../../src-shared/contracts/home';
import { may, type Act } from '../../../../src-shared/policy';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { formatNumber } from '../../components/format';
import { LoadError } from '../../components/LoadError';
import { ScreenHeader } from '../../components/ScreenHeader';
import { staleLists } from '../../components/stale-lists';
import { href } from '../../app/router';
import { useLists } from '../../stores/lists';
import { useSession } from '../../stores/session';
import { homeApi } from './home-api';
import './home.css';

interface Attention {
  id: string;
  tone: 'warning' | 'info';
  text: ReactNode;
  link: { to: string; label: string };
}

const plural = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`;

function attentionOf(home: Home | undefined, staleCount: number, canManageLists: boolean): Attention[] {
  const out: Attention[] = [];
  if (staleCount > 0) {
    out.push({
      id: 'stale-lists', tone: 'warning',
      text: `${plural(staleCount, 'list screened against is', 'lists screened against are')} out of date.${canManageLists ? '' : ' An owner or admin can import a newer file.'}`,
      link: { to: 'screening', label: 'See the lists' },
    });
  }
  if (!home) return out;
  if (home.clearances_awaiting) {
    out.push({
      id: 'clearances', tone: 'warning',
      text: `${plural(home.clearances_awaiting, 'cleared match waits', 'cleared matches wait')} for a second person's approval.`,
      link: { to: 'approvals', label: 'Approvals' },
    });
  }
  if (home.open_batches) {
    out.push({
      id: 'open-batches', tone: 'info',
      text: `${plural(home.open_batches, 'batch rescreen is', 'batch rescreens are')} open in your organisation.`,
      link: { to: 'rescreen', label: 'Open batches' },
    });
  }
  const failed = home.hosted_failed.test + home.hosted_failed.live;
  if (failed > 0) {
    const split = [home.hosted_failed.live ? `${formatNumber(home.hosted_failed.live)} live` : '', home.hosted_failed.test ? `${formatNumber(home.hosted_failed.test)} test` : '']
      .filter(Boolean).join(', ');
    out.push({
      id: 'hosted-failed', tone: 'info',
      text: `${plural(failed, 'hosted session', 'hosted sessions')} failed today (${split}).`,
      link: { to: 'hosted', label: 'Hosted sessions' },
    });
  }
  if (home.credits.low) {
    out.push({
      id: 'credits-low', tone: 'warning',
      text: `Credits are low: ${plural(home.credits.balance, 'credit', 'credits')} left. Live checks stop when they run out.`,
      link: { to: 'plan', label: 'Plan & credits' },
    });
  }
  return out;
}

interface Step {
  id: string;
  done: boolean;
  text: string;
  to: string;
  /** Only people whose role may do it see the step. */
  act?: Act;
}

function stepsOf(home: Home): Step[] {
  const s = home.setup;
  return [
    { id: 'test-key', done: s.test_keys > 0, text: 'Create a test API key and try a check', to: 'keys' },
    { id: 'webhook', done: s.webhooks > 0, text: 'Add a webhook endpoint to receive results', to: 'webhooks', act: 'webhooks.manage' },
    { id: 'team', done: s.members > 1, text: 'Invite your team', to: 'team', act: 'team.invite_member' },
    { id: 'four-eyes', done: s.four_eyes, text: 'Turn on four-eyes approval of cleared sanctions matches', to: 'settings', act: 'settings.manage' },
    { id: 'live-key', done: s.live_keys > 0, text: 'Create a live API key when you are ready', to: 'keys' },
  ];
}

export function HomeScreen() {
  const session = useSession((s) => s.session);
  const role = session?.user.role;
  const lists = useLists();
  const home = useResource((signal) => homeApi.get(signal), []);
  const attention = attentionOf(home.data, staleLists(lists.data).length, may(role, 'lists.manage'));
  const steps = home.data ? stepsOf(home.data).filter((st) => !st.act || may(role, st.act)) : [];
  const next = steps.find((st) => !st.done);

  return (
    <>
      <ScreenHeader title="Home" summary={`Good to see you, ${session?.user.name ?? ''}. What needs attention today, and where to go next.`} />
      <LoadError title="Could not load what needs attention." error={home.error} onRetry={home.reload} testId="home-error" />

      <section className="panel home-panel" data-testid="home-attention" aria-labelledby="home-attention-title">
        <h2 id="home-attention-title">Needs attention</h2>
        {attention.length === 0 ? (
          home.loading && !home.data ? <p className="muted">Loading…</p> : <p data-testid="home-nothing">Nothing needs attention right now.</p>
        ) : (
          <ul className="home-list">
            {attention.map((a) => (
              <li key={a.id} className={`home-item home-item-${a.tone}`} data-testid={`home-${a.id}`}>
                <span>{a.text}</span>
                <a className="btn btn-small" href={href(a.link.to)}>{a.link.label}</a>
              </li>
            ))}
          </ul>
        )}
      </section>

      {next ? (
        <section className="panel home-panel" data-testid="home-setup" aria-labelledby="home-setup-title">
          <h2 id="home-setup-title">Get set up</h2>
          <p>
            Next step: <a href={href(next.to)} data-testid="home-next-step">{next.text}</a>
          </p>
          <ol className="home-steps">
            {steps.map((st) => (
              <li key={st.id} data-testid={`home-step-${st.id}`} data-done={st.done} className={st.done ? 'done' : undefined}>
                <span aria-hidden="true">{st.done ? '✓' : '○'}</span> <a href={href(st.to)}>{st.text}</a>
                <span className="visually-hidden">{st.done ? ' (done)' : ' (to do)'}</span>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {home.data && !next && attention.length === 0 ? <Alert tone="success">Everything is set up.</Alert> : null}
    </>
  );
}
