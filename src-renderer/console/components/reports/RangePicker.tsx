// The report range: presets (last 7, 30 or 90 days) and two dates. Presets beyond the plan's
// `max_date_range_days` are disabled and say why; a custom range the plan does not cover is
// named before anything is asked of the service.
import { useId } from 'react';
import type { Plan } from '../../../../src-shared/catalog';
import { DateInput } from '../DateInput';
import { PRESET_DAYS, planLimitText, presetOf, presetRange, presetRefusal, rangeProblem, type DayRange } from './range';
import './reports.css';

interface RangePickerProps {
  value: DayRange;
  onChange: (range: DayRange) => void;
  plan: Plan;
  maxDays: number;
  today: string;
  testId: string;
}

export function RangePicker({ value, onChange, plan, maxDays, today, testId }: RangePickerProps) {
  const id = useId();
  const current = presetOf(value, today);
  const limitNote = PRESET_DAYS.some((d) => d > maxDays) ? planLimitText(plan, maxDays) : null;
  const problem = rangeProblem(value, plan, maxDays);
  return (
    <div className="rp" data-testid={testId}>
      <div className="rp-presets" role="group" aria-label="Date range presets" aria-describedby={limitNote ? `${id}-limit` : undefined}>
        {PRESET_DAYS.map((days) => {
          const refusal = presetRefusal(days, plan, maxDays);
          return (
            <button
              key={days}
              type="button"
              className="btn btn-small"
              aria-pressed={current === days}
              disabled={refusal !== null}
              title={refusal ?? undefined}
              onClick={() => onChange(presetRange(days, today))}
              data-testid={`${testId}-preset-${days}`}
            >
              Last {days} days
            </button>
          );
        })}
      </div>
      <div className="rp-dates">
        <label htmlFor={`${id}-from`}>From</label>
        <DateInput
          id={`${id}-from`}
          value={value.from}
          max={value.to || today}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(iso) => onChange({ ...value, from: iso })}
          testId={`${testId}-from`}
        />
        <label htmlFor={`${id}-to`}>To</label>
        <DateInput
          id={`${id}-to`}
          value={value.to}
          min={value.from || undefined}
          max={today}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(iso) => onChange({ ...value, to: iso })}
          testId={`${testId}-to`}
        />
      </div>
      {limitNote ? (
        <p id={`${id}-limit`} className="rp-note muted" data-testid={`${testId}-limit`}>
          {limitNote} Longer ranges need the Growth plan or higher.
        </p>
      ) : null}
      {problem ? (
        <p id={`${id}-problem`} className="field-error rp-problem" role="alert" data-testid={`${testId}-problem`}>
          {problem}
        </p>
      ) : null}
    </div>
  );
}
