// The console's one date input, in place of <input type="date"> (which shows Chromium's own
// mm/dd/yyyy whatever the analyst chose). It shows and reads dates as the date-format preference
// says (YYYY-MM-DD, or the locale's order of day, month and year; YYYY-MM-DD is always understood)
// through src-shared/dates.ts, and hands the screen YYYY-MM-DD. What is typed stays in this field.
import { useEffect, useState, type InputHTMLAttributes } from 'react';
import { formatIsoDate, formatTypedDate, isIsoDate, parseIsoDate, parseTypedDate } from '../../../src-shared/dates';
import { usePreferences } from '../stores/preferences';
import { dateFieldStyle, type DateFieldStyle } from './format';

type NativeProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type' | 'min' | 'max' | 'placeholder'>;

interface DateInputProps extends NativeProps {
  /** YYYY-MM-DD, '' for none; any other text is shown as it is (a screen that keeps what was typed). */
  value: string;
  /**
   * `iso`: the date typed as YYYY-MM-DD, or '' when the field is empty or holds no date; `text`:
   * what is in the field, for a screen that must tell "empty" from "not a date".
   */
  onChange: (iso: string, text: string) => void;
  /** YYYY-MM-DD bounds: a date outside them is marked invalid (and still handed over). */
  min?: string | undefined;
  max?: string | undefined;
  testId?: string | undefined;
}

function shown(value: string, style: DateFieldStyle): string {
  const d = isIsoDate(value) ? parseIsoDate(value) : null;
  return d ? formatTypedDate(d, style.order, style.separator) : value;
}

function isoOf(text: string, style: DateFieldStyle): string | null {
  if (text.trim() === '') return '';
  const d = parseTypedDate(text, style.order);
  return d ? formatIsoDate(d) : null;
}

export function DateInput({ value, onChange, min, max, testId, onFocus, onBlur, 'aria-invalid': ariaInvalid, title, ...input }: DateInputProps) {
  const format = usePreferences((s) => s.dateFormat);
  const style = dateFieldStyle(format);
  const [text, setText] = useState(() => shown(value, style));
  const [focused, setFocused] = useState(false);

  // Out of the analyst's hands (a preset, Clear filters, another preference) the field shows the
  // value in the preferred form; what they typed that is no date stays for them to correct.
  useEffect(() => {
    if (focused) return;
    const typed = isoOf(text, style);
    if (typed === null && !isIsoDate(value)) return;
    const next = shown(value, style);
    if (next !== text) setText(next);
    // `text` is read, not followed: typing must not be rewritten while it happens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value, style.order, style.separator, focused]);

  const iso = isoOf(text, style);
  const outOfRange = !!iso && ((min !== undefined && min !== '' && iso < min) || (max !== undefined && max !== '' && iso > max));
  const invalid = iso === null || outOfRange;

  return (
    <input
      {...input}
      type="text"
      inputMode="numeric"
      autoComplete="off"
      spellCheck={false}
      value={text}
      placeholder={style.placeholder}
      title={title ?? `A date as ${style.placeholder}`}
      aria-invalid={ariaInvalid ?? (invalid ? true : undefined)}
      data-value={iso ?? ''}
      data-format={style.placeholder}
      data-testid={testId}
      onFocus={(e) => {
        setFocused(true);
        onFocus?.(e);
      }}
      onBlur={(e) => {
        setFocused(false);
        onBlur?.(e);
      }}
      onChange={(e) => {
        const t = e.currentTarget.value;
        setText(t);
        onChange(isoOf(t, style) ?? '', t);
      }}
    />
  );
}
