// The Test / Live choice of a form (API keys, webhook endpoints): two radio options, each with
// what it means for the thing being created.
import type { Environment } from '../../../src-shared/catalog';

interface Props {
  /** Radio group name, unique in the form. */
  name: string;
  value: Environment;
  onChange: (env: Environment) => void;
  /** Test ids are `${testIdPrefix}-test` and `${testIdPrefix}-live`. */
  testIdPrefix: string;
  hints: Record<Environment, string>;
}

export function EnvironmentChoice({ name, value, onChange, testIdPrefix, hints }: Props) {
  return (
    <fieldset className="fieldset">
      <legend>Environment</legend>
      <div className="segmented-options">
        {(['test', 'live'] as const).map((env) => (
          <label key={env} className="option">
            <input
              type="radio" name={name} value={env} checked={value === env} onChange={() => onChange(env)}
              data-testid={`${testIdPrefix}-${env}`}
            />
            <span>
              <strong>{env === 'test' ? 'Test' : 'Live'}</strong>
              <span className="option-hint">{hints[env]}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
