import { ENVIRONMENTS } from '../../../src-shared/catalog';
import { useEnv } from '../stores/env';

const LABEL = { test: 'Test', live: 'Live' } as const;

/** Test / Live toggle for the whole console. */
export function EnvSwitch() {
  const env = useEnv((s) => s.env);
  const setEnv = useEnv((s) => s.setEnv);
  return (
    <div className={`env-switch env-switch-${env}`} role="group" aria-label="Environment" data-testid="env-switch">
      {ENVIRONMENTS.map((value) => (
        <button
          key={value}
          type="button"
          aria-pressed={env === value}
          onClick={() => setEnv(value)}
          data-testid={`env-${value}`}
        >
          {LABEL[value]}
        </button>
      ))}
    </div>
  );
}
