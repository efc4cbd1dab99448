// Screens whose capability is not built yet: say so plainly. No sample data, ever: analysts
// must never mistake a mock-up for a real result.
import { href } from '../../app/router';
import { ScreenHeader } from '../../components/ScreenHeader';

interface PlaceholderScreenProps {
  title: string;
  summary: string;
  arrivesWith: string;
}

export function PlaceholderScreen({ title, summary, arrivesWith }: PlaceholderScreenProps) {
  return (
    <>
      <ScreenHeader title={title} summary={summary} />
      <section className="panel placeholder" data-testid="placeholder" aria-labelledby="placeholder-title">
        <h2 id="placeholder-title">Arrives with {arrivesWith}</h2>
        <p>
          This screen is not built yet. It will show real results from this service once {arrivesWith} is part of it; until then
          there is nothing here to review.
        </p>
        <p className="muted">
          Available now: <a href={href('keys')}>API keys</a> and <a href={href('plan')}>Plan &amp; credits</a>.
        </p>
      </section>
    </>
  );
}

export function NotFoundScreen({ path }: { path: string }) {
  return (
    <>
      <ScreenHeader title="Page not found" />
      <section className="panel placeholder" data-testid="not-found">
        <p>
          There is no screen at <code>#/{path}</code>. Choose a screen from the menu, or go to <a href={href('keys')}>API keys</a>.
        </p>
      </section>
    </>
  );
}
