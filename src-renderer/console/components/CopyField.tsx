// A read-only value with a copy button, for secrets shown once.
import { useEffect, useId, useRef, useState } from 'react';

interface CopyFieldProps {
  label: string;
  value: string;
  testId?: string;
  autoFocus?: boolean;
}

async function copyText(text: string, input: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API refused (no permission, old shell): fall back to selecting the text.
    if (!input) return false;
    input.select();
    return document.execCommand('copy');
  }
}

export function CopyField({ label, value, testId, autoFocus }: CopyFieldProps) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(t);
  }, [state]);

  return (
    <div className="copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-field-row">
        <input
          id={id}
          ref={inputRef}
          className="mono"
          readOnly
          value={value}
          spellCheck={false}
          autoComplete="off"
          onFocus={(e) => e.currentTarget.select()}
          data-testid={testId}
        />
        <button
          type="button"
          className="btn"
          data-autofocus={autoFocus ? '' : undefined}
          onClick={() => {
            void copyText(value, inputRef.current).then((ok) => setState(ok ? 'copied' : 'failed'));
          }}
          data-testid={testId ? `${testId}-copy` : undefined}
        >
          {state === 'copied' ? 'Copied' : 'Copy'}
        </button>
      </div>
      <span className="visually-hidden" aria-live="polite">
        {state === 'copied' ? `${label} copied to the clipboard` : state === 'failed' ? `Could not copy the ${label.toLowerCase()}` : ''}
      </span>
    </div>
  );
}
