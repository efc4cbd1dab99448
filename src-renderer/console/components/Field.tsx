import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  testId?: string;
}

/** A labelled text input whose hint and error are tied to it for screen readers. */
export function Field({ label, error, hint, testId, id, className, ...input }: FieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={inputId}>{label}</label>
      <input id={inputId} aria-invalid={error ? true : undefined} aria-describedby={describedBy} data-testid={testId} {...input} />
      {hint ? <div id={hintId} className="field-hint">{hint}</div> : null}
      {error ? (
        <div id={errorId} className="field-error" data-testid={testId ? `${testId}-error` : undefined}>
          {error}
        </div>
      ) : null}
    </div>
  );
}
