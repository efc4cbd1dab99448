import { useEnv } from '../stores/env';

/** Test mode must be unmistakable: a loud band on every screen while the console is in test. */
export function TestModeBanner() {
  const env = useEnv((s) => s.env);
  if (env !== 'test') return null;
  return (
    <div className="test-banner" role="status" data-testid="test-mode-banner">
      <strong>Test mode</strong>
      <span>You are working with test keys and test data. Nothing here touches live customers or consumes credits.</span>
    </div>
  );
}
