// The plan radio list shared by first run and "Change plan": each plan with what it includes,
// from the one catalogue the service enforces.
import { PLAN_INFO, PLANS, type Plan } from '../../../src-shared/catalog';
import { planIncludes } from '../../../src-shared/policy';
import { Badge } from './Badge';
import { formatNumber } from './format';

export function teamText(size: number | null): string {
  return size === null ? 'unlimited team' : `${size} ${size === 1 ? 'person' : 'people'}`;
}

/** One line per plan: screening, team size and verification rate. */
export function planSummary(plan: Plan): string {
  const p = PLAN_INFO[plan];
  return [
    planIncludes(plan, 'compliance') ? 'Screening' : 'No screening',
    teamText(p.team_size),
    `${formatNumber(p.verification.rps)} verification${p.verification.rps === 1 ? '' : 's'}/s`,
  ].join(' · ');
}

interface PlanChoiceProps {
  name: string;
  value: Plan;
  onChange: (plan: Plan) => void;
  /** The organisation's plan now, marked in the list (Change plan). */
  current?: Plan;
  legend?: string;
  hint?: string;
  testIdPrefix: string;
}

export function PlanChoice({ name, value, onChange, current, legend = 'Plan', hint, testIdPrefix }: PlanChoiceProps) {
  const hintId = `${name}-hint`;
  return (
    <fieldset className="fieldset" aria-describedby={hint ? hintId : undefined}>
      <legend>{legend}</legend>
      {hint ? <p id={hintId} className="field-hint plan-choice-hint">{hint}</p> : null}
      <div className="plan-options" data-testid={`${testIdPrefix}-options`}>
        {PLANS.map((plan) => (
          <label key={plan} className="option">
            <input
              type="radio" name={name} value={plan} checked={value === plan} onChange={() => onChange(plan)}
              data-testid={`${testIdPrefix}-${plan}`}
            />
            <span>
              <span className="plan-option-title">
                <strong>{PLAN_INFO[plan].label}</strong>
                {current === plan ? <Badge tone="info">Current</Badge> : null}
              </span>
              <span className="option-hint">{planSummary(plan)}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
