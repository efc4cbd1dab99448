// The subject form. Controlled by the screen, which owns every value: nothing typed here is kept
// anywhere else, and autocomplete is off so the browser does not remember names either.
import { useId, type FormEvent, type ReactNode } from 'react';
import type { Environment } from '../../../../src-shared/catalog';
import { LIST_KINDS, type ListKind } from '../../../../src-shared/contracts/screening';
import { DateInput } from '../../components/DateInput';
import { Field } from '../../components/Field';
import { dateFieldStyle, formatNumber } from '../../components/format';
import { usePreferences } from '../../stores/preferences';
import { KIND_LABEL, KIND_SHORT } from '../../components/screening-labels';
import { COMMON_COUNTRIES } from './countries';
import { countryName } from './labels';
import { SCREEN_COST, type ListsState } from './screening-api';
import { MIN_DOB, type Draft, type DraftField, type FieldErrors } from './subject';
import { localToday } from '../../../../src-shared/dates';

interface SubjectFormProps {
  draft: Draft;
  errors: FieldErrors;
  env: Environment;
  lists: ListsState | undefined;
  busy: boolean;
  /** False when the plan has no screening: the form shows but cannot be sent. */
  allowed: boolean;
  hasResult: boolean;
  /** Why the last attempt failed, shown just above the Screen button. */
  notice: ReactNode;
  onChange: (field: DraftField, value: string) => void;
  onToggleKind: (kind: ListKind, checked: boolean) => void;
  onSubmit: () => void;
  onClear: () => void;
}

/** Subject fields: no browser autocomplete, no spell-check underlines on names. */
const PRIVATE_INPUT = { autoComplete: 'off', spellCheck: false } as const;

export function SubjectForm({
  draft, errors, env, lists, busy, allowed, hasResult, notice, onChange, onToggleKind, onSubmit, onClear,
}: SubjectFormProps) {
  const id = useId();
  const dobForm = dateFieldStyle(usePreferences((s) => s.dateFormat)).placeholder;
  const ready = lists?.state === 'ready';
  const loaded = lists?.loaded_kinds ?? [];
  const country = countryName(draft.country);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    onSubmit();
  };
  const { excluded, ...values } = draft;
  const dirty = hasResult || excluded.length > 0 || Object.values(values).some((v) => v !== '');

  return (
    <form
      className="scr-form"
      onSubmit={submit}
      noValidate
      autoComplete="off"
      aria-label="Subject to screen"
      data-testid="screening-form"
    >
      <div className="scr-row">
        <Field
          label="First name" value={draft.first_name} onChange={(e) => onChange('first_name', e.currentTarget.value)}
          error={errors.first_name} testId="screen-first-name" maxLength={200} required {...PRIVATE_INPUT}
        />
        <Field
          label="Middle name" value={draft.middle_name} onChange={(e) => onChange('middle_name', e.currentTarget.value)}
          error={errors.middle_name} testId="screen-middle-name" maxLength={200} placeholder="Optional" {...PRIVATE_INPUT}
        />
        <Field
          label="Last name" value={draft.last_name} onChange={(e) => onChange('last_name', e.currentTarget.value)}
          error={errors.last_name} testId="screen-last-name" maxLength={200} required {...PRIVATE_INPUT}
        />
      </div>

      <div className="scr-row">
        <div className={`field${errors.date_of_birth ? ' field-invalid' : ''}`}>
          <label htmlFor={`${id}-dob`}>Date of birth</label>
          {/* What is typed goes to the draft whole when it is no date, so the form says so instead of screening without it. */}
          <DateInput
            id={`${id}-dob`} value={draft.date_of_birth} min={MIN_DOB} max={localToday()}
            onChange={(iso, text) => onChange('date_of_birth', iso || text.trim())}
            aria-invalid={errors.date_of_birth ? true : undefined}
            aria-describedby={`${id}-dob-hint${errors.date_of_birth ? ` ${id}-dob-error` : ''}`} testId="screen-dob"
          />
          <div id={`${id}-dob-hint`} className="field-hint">Optional. {dobForm}</div>
          {errors.date_of_birth ? (
            <div id={`${id}-dob-error`} className="field-error" data-testid="screen-dob-error">{errors.date_of_birth}</div>
          ) : null}
        </div>
        <Field
          label="Country" value={draft.country} list={`${id}-countries`} maxLength={2} placeholder="e.g. GB"
          onChange={(e) => onChange('country', e.currentTarget.value.toUpperCase())} error={errors.country} testId="screen-country"
          className="scr-country"
          hint={country ? <span data-testid="screen-country-name">{country}</span> : 'Optional. Two-letter code.'}
          {...PRIVATE_INPUT}
        />
        <datalist id={`${id}-countries`}>
          {COMMON_COUNTRIES.map((code) => (
            <option key={code} value={code}>
              {countryName(code) ?? code}
            </option>
          ))}
        </datalist>
        <div className="field">
          <label htmlFor={`${id}-gender`}>Gender</label>
          <select
            id={`${id}-gender`} className="scr-select" value={draft.gender}
            onChange={(e) => onChange('gender', e.currentTarget.value)} data-testid="screen-gender" autoComplete="off"
          >
            <option value="">Not given</option>
            <option value="female">Female</option>
            <option value="male">Male</option>
          </select>
          <div className="field-hint">Optional.</div>
        </div>
      </div>

      <fieldset className="fieldset scr-kinds" aria-describedby={errors.lists ? `${id}-lists-error` : `${id}-lists-hint`}>
        <legend>Lists</legend>
        <div className="scr-kind-options">
          {LIST_KINDS.map((kind) => {
            const available = ready && loaded.includes(kind);
            const status = !lists || lists.state === 'loading' ? 'loading…' : available ? null : 'not loaded';
            return (
              <label key={kind} className={`scr-kind${available ? '' : ' scr-kind-off'}`} title={KIND_LABEL[kind]}>
                <input
                  type="checkbox" checked={available && !draft.excluded.includes(kind)} disabled={!available}
                  onChange={(e) => onToggleKind(kind, e.currentTarget.checked)} data-testid={`screen-list-${kind}`}
                />
                <span className="scr-kind-name">
                  {kind === 'pep' || kind === 'rca' ? <abbr title={KIND_LABEL[kind]}>{KIND_SHORT[kind]}</abbr> : KIND_SHORT[kind]}
                </span>
                {status ? (
                  <span className="scr-kind-status" data-testid={`screen-list-${kind}-status`}>{status}</span>
                ) : null}
              </label>
            );
          })}
        </div>
        {errors.lists ? (
          <div id={`${id}-lists-error`} className="field-error" data-testid="screen-lists-error">
            {errors.lists}
          </div>
        ) : (
          <div id={`${id}-lists-hint`} className="field-hint">Only lists loaded on this computer can be checked.</div>
        )}
      </fieldset>

      <div className="scr-row">
        <Field
          label="Client reference" value={draft.client_reference_id} onChange={(e) => onChange('client_reference_id', e.currentTarget.value)}
          error={errors.client_reference_id} testId="screen-reference" maxLength={200}
          placeholder="Optional" hint="Your own id for this customer. Returned with the result; not kept." className="scr-reference"
          {...PRIVATE_INPUT}
        />
      </div>

      {notice}

      <div className="scr-actions">
        <button type="submit" className="btn btn-primary" disabled={busy || !allowed || !ready} data-testid="screen-submit">
          {busy ? 'Screening…' : 'Screen'}
        </button>
        <button type="button" className="btn" onClick={onClear} disabled={!dirty && !busy} data-testid="screen-clear">
          Clear
        </button>
        <span className={`scr-cost${env === 'live' ? ' scr-cost-live' : ''}`} data-testid="screen-cost">
          {env === 'live' ? `Live: costs ${formatNumber(SCREEN_COST)} credits` : 'Test: free, no credits used'}
        </span>
        {!ready && allowed ? (
          <span className="muted scr-waiting" data-testid="screen-waiting">
            {lists?.state === 'failed' ? 'The lists could not be loaded.' : 'Waiting for the lists to load…'}
          </span>
        ) : null}
      </div>
    </form>
  );
}
