// The logo: a small picture uploaded into the settings (a data: URL, within the contract's size),
// or an https address the storefront loads. The contract's schema decides what is accepted.
import { useState } from 'react';
import { AGE_GATE_LOGO_MAX_CHARS } from '../../../../src-shared/contracts/age-gate';
import { FIELD_LABEL, fieldId } from './labels';

const TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
const MAX_KB = Math.floor((AGE_GATE_LOGO_MAX_CHARS * 3) / 4 / 1024);

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => (typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('unreadable')));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}

interface LogoFieldProps {
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}

export function LogoField({ value, error, onChange }: LogoFieldProps) {
  const [fileError, setFileError] = useState<string | null>(null);
  const id = fieldId('logo');
  const uploaded = value.startsWith('data:');
  const shown = fileError ?? error;

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setFileError(null);
    if (!TYPES.includes(file.type)) {
      setFileError('Choose a PNG, JPEG, WebP or GIF picture.');
      return;
    }
    try {
      const url = await readAsDataUrl(file);
      if (url.length > AGE_GATE_LOGO_MAX_CHARS) {
        setFileError(`The picture is too large: at most ${MAX_KB} KB.`);
        return;
      }
      onChange(url);
    } catch {
      setFileError('That file could not be read.');
    }
  };

  return (
    <div className={`field${shown ? ' field-invalid' : ''}`}>
      <label htmlFor={uploaded ? `${id}-file` : id}>{FIELD_LABEL.logo} (optional)</label>
      <div className="ag-logo-row">
        {uploaded ? (
          <>
            <img src={value} alt="Uploaded logo" className="ag-logo-thumb" data-testid="age-gate-logo-thumb" />
            <span className="muted">Uploaded picture, {Math.ceil((value.length * 3) / 4 / 1024)} KB</span>
            <button type="button" className="btn btn-small" onClick={() => onChange('')} data-testid="age-gate-logo-remove">
              Remove
            </button>
          </>
        ) : (
          <input
            id={id} type="url" value={value} placeholder="https://example.com/logo.png" spellCheck={false} autoComplete="off"
            onChange={(e) => onChange(e.currentTarget.value)} aria-invalid={shown ? true : undefined}
            aria-describedby={`${id}-hint${shown ? ` ${id}-error` : ''}`} data-testid="age-gate-logo"
          />
        )}
        <label className="btn btn-small ag-upload">
          {uploaded ? 'Replace' : 'Upload a picture'}
          <input
            id={`${id}-file`} type="file" accept={TYPES.join(',')} className="visually-hidden"
            onChange={(e) => {
              void onFile(e.currentTarget.files?.[0]);
              e.currentTarget.value = '';
            }}
            data-testid="age-gate-logo-file"
          />
        </label>
      </div>
      <div id={`${id}-hint`} className="field-hint">
        An https address, or a PNG, JPEG, WebP or GIF of at most {MAX_KB} KB kept with the settings. The preview shows uploaded pictures only.
      </div>
      {shown ? <div id={`${id}-error`} className="field-error" data-testid="age-gate-logo-error">{shown}</div> : null}
    </div>
  );
}
