// What the file's numeric dates of birth say of their order (src-shared/dates.ts `fileDateOrder`),
// and, where a day-first reading fits every row, the analyst's choice to read them so. Rows are
// named by number, never by their dates: the panel is no copy of the file.
import { useId } from 'react';
import { Alert } from '../../components/Alert';
import { formatNumber } from '../../components/format';
import type { DateEvidence } from '../../stores/batch';

interface DateOrderNoticeProps {
  dates: DateEvidence;
  dayFirst: boolean;
  disabled: boolean;
  onDayFirst: (on: boolean) => void;
}

const row = (n: number | null) => `Row ${formatNumber(n ?? 0)}`;

export function DateOrderNotice({ dates, dayFirst, disabled, onDayFirst }: DateOrderNoticeProps) {
  const hintId = useId();
  const { order } = dates;
  if (order === 'none') return null;

  const attrs = { 'data-testid': 'batch-dates', 'data-order': order, 'data-day-first': dayFirst };
  if (order === 'mixed' || order === 'month_first') {
    return (
      <div {...attrs}>
        <Alert tone="warning" title={order === 'mixed' ? 'Dates of birth are written both ways' : 'Dates of birth are written month first'}>
          {order === 'mixed' ? (
            <>
              {row(dates.dayFirstRow)}’s date can only be day/month/year (its first number is over 12) and {row(dates.monthFirstRow).toLowerCase()}’s
              only month/day/year, so no one reading fits the whole file and none is guessed.
            </>
          ) : (
            <>{row(dates.monthFirstRow)}’s date can only be month/day/year (its second number is over 12).</>
          )}{' '}
          Rows with dates written as numbers are left out: write their dates of birth as YYYY-MM-DD.
        </Alert>
      </div>
    );
  }

  const toggle = (
    <label className="bat-day-first">
      <input
        type="checkbox"
        checked={dayFirst}
        disabled={disabled}
        aria-describedby={hintId}
        onChange={(e) => onDayFirst(e.currentTarget.checked)}
        data-testid="batch-day-first"
      />
      <span>Read dates as day/month/year</span>
    </label>
  );
  const hint = (
    <span id={hintId} className="bat-day-first-hint">
      {dayFirst
        ? 'DD/MM/YYYY, DD.MM.YYYY and DD-MM-YYYY are read as day, month, year and screened as YYYY-MM-DD: check the first rows below.'
        : 'Until then, rows with dates written as numbers are left out.'}
    </span>
  );
  return (
    <div {...attrs}>
      <Alert
        tone={dayFirst ? 'info' : 'warning'}
        title={order === 'day_first' ? 'Dates of birth are written day first' : 'Day or month first? The file does not say'}
      >
        <p className="bat-notice-text">
          {order === 'day_first' ? (
            <>
              {row(dates.dayFirstRow)}’s date can only be day/month/year (its first number is over 12), and no date in the file can only be
              month/day/year.
            </>
          ) : (
            <>
              Every date of birth written as numbers reads both ways (03/04/1980 is 3 April or 4 March). Read them day first only if the
              file was written so, as spreadsheets outside the US write dates.
            </>
          )}
        </p>
        <div className="bat-day-first-row">
          {toggle}
          {hint}
        </div>
      </Alert>
    </div>
  );
}
