import type { ReactNode } from 'react';

interface TextAreaProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  maxLength: number;
  rows?: number;
  error?: string | undefined;
  hint?: ReactNode;
  testId: string;
}

/** A labelled textarea whose hint and error are tied to it, like Field. */
export function TextArea({ id, label, value, onChange, maxLength, rows = 2, error, hint, testId }: TextAreaProps) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id} rows={rows} maxLength={maxLength} value={value} onChange={(e) => onChange(e.currentTarget.value)}
        aria-invalid={error ? true : undefined} aria-describedby={describedBy} data-testid={testId}
      />
      {hint ? <div id={`${id}-hint`} className="field-hint">{hint}</div> : null}
      {error ? <div id={`${id}-error`} className="field-error" data-testid={`${testId}-error`}>{error}</div> : null}
    </div>
  );
}
