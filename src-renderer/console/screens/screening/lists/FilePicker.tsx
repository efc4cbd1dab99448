// A labelled file field: the native input stays in the page (keyboard, screen readers, tests)
// but is drawn as a button with the chosen file's name beside it.
import { useId, useRef, type ReactNode } from 'react';

interface FilePickerProps {
  label: string;
  file: File | null;
  accept?: string;
  hint?: ReactNode;
  error?: string | undefined;
  disabled?: boolean;
  testId: string;
  onFile: (file: File | null) => void;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function FilePicker({ label, file, accept, hint, error, disabled = false, testId, onFile }: FilePickerProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <div className={`lst-file${error ? ' lst-file-invalid' : ''}`}>
        <input
          ref={input}
          id={id}
          type="file"
          accept={accept}
          className="visually-hidden"
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(e) => onFile(e.currentTarget.files?.[0] ?? null)}
          data-testid={testId}
        />
        <button type="button" className="btn btn-small" onClick={() => input.current?.click()} disabled={disabled} tabIndex={-1} aria-hidden="true">
          {file ? 'Change…' : 'Choose file…'}
        </button>
        <span className={`lst-file-name${file ? '' : ' muted'}`} data-testid={`${testId}-name`}>
          {file ? (
            <>
              {file.name} <span className="muted">· {formatBytes(file.size)}</span>
            </>
          ) : (
            'No file chosen'
          )}
        </span>
      </div>
      {hint ? <div id={`${id}-hint`} className="field-hint">{hint}</div> : null}
      {error ? (
        <div id={`${id}-error`} className="field-error" data-testid={`${testId}-error`}>
          {error}
        </div>
      ) : null}
    </div>
  );
}
