// Age gate: the storefront widget's settings for the console's environment (one store per
// organisation and environment), with a live preview drawn by the widget's own overlay code.
// Owners and admins save; the first save issues the store id and the script tag to paste.
// The form is checked with the contract's schema before sending; the service checks again
// (and the redirect), and its field errors show at the fields.
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import {
  AGE_GATE_DAILY_SELFIE_CAP, AGE_GATE_DURATIONS, AGE_GATE_MIN_AGE, AGE_GATE_SESSION_MODES, AGE_GATE_TRIGGERS, AGE_GATE_USE_CASES, AgeGateSettings,
  type AgeGateSettingsInput, type AgeGateStore,
} from '../../../../src-shared/contracts/age-gate';
import { CREDITS } from '../../../../src-shared/catalog';
import { DAY_MS } from '../../../../src-shared/dates';
import { ApiError, errorText } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { LinkReachNotice } from '../../components/LinkReachNotice';
import { Badge } from '../../components/Badge';
import { CopyField } from '../../components/CopyField';
import { LoadError } from '../../components/LoadError';
import { ScreenHeader } from '../../components/ScreenHeader';
import { useEnv } from '../../stores/env';
import { useSession } from '../../stores/session';
import type { OverlayConfig } from '../../../widget/overlay';
import { ageGateApi } from './age-gate-api';
import { AdvancedSummary } from './AdvancedSummary';
import {
  durationLabel, effectiveMinAge, FIELD_LABEL, fieldId, issueText, REDIRECT_ISSUE, SESSION_MODE_LABEL, TRIGGER_LABEL, USE_CASE_LABEL, type Field,
} from './labels';
import { LogoField } from './LogoField';
import { Preview } from './Preview';
import './age-gate.css';
import { may } from '../../../../src-shared/policy';

/** The settings as the form holds them: page handles as the comma-separated text the merchant types. */
export type FormState = Omit<AgeGateSettings, 'page_handles'> & { page_handles: string };
type Errors = Partial<Record<Field, string>>;

const toForm = (s: AgeGateSettings): FormState => ({ ...s, page_handles: s.page_handles.join(', ') });
const toSettings = (f: FormState): AgeGateSettingsInput => ({
  ...f,
  page_handles: f.page_handles.split(',').map((h) => h.trim()).filter(Boolean),
});

function errorsOf(result: ReturnType<typeof AgeGateSettings.safeParse>): Errors {
  const out: Errors = {};
  if (result.success) return out;
  for (const issue of result.error.issues) {
    const field = issue.path[0] as Field;
    if (out[field]) continue;
    out[field] = field === 'logo' && issue.code === 'too_big'
      ? `The picture is too large: at most ${Math.floor((Number(issue.maximum) * 3) / 4 / 1024)} KB.`
      : issueText(issue);
  }
  return out;
}

export function AgeGateScreen() {
  const env = useEnv((s) => s.env);
  const role = useSession((s) => s.session?.user.role);
  const canManage = may(role, 'age_gate.manage');
  const loaded = useResource((signal) => ageGateApi.get(env, signal), [env]);
  const [store, setStore] = useState<AgeGateStore | null>(null);
  const [form, setForm] = useState<FormState | null>(null);
  const [tried, setTried] = useState(false);
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  // A new environment (or the first load) replaces the form with what the service holds.
  useEffect(() => {
    if (!loaded.data) return;
    setStore(loaded.data);
    setForm(toForm(loaded.data.settings));
    setTried(false);
    setServerErrors({});
    setNotice(null);
  }, [loaded.data]);

  const checked = useMemo(() => (form ? AgeGateSettings.safeParse(toSettings(form)) : null), [form]);
  const errors: Errors = { ...(tried && checked ? errorsOf(checked) : {}), ...serverErrors };
  const dirty = !!form && !!store && JSON.stringify(toSettings(form)) !== JSON.stringify(toSettings(toForm(store.settings)));

  const preview = useMemo<OverlayConfig | null>(
    () => form && {
      min_age: effectiveMinAge(form),
      use_case: form.use_case,
      custom_message: form.custom_message,
      // The console loads nothing from the internet (its CSP): an https logo shows on the storefront only.
      logo: form.logo.startsWith('data:') ? form.logo : '',
      test_mode: env === 'test',
    },
    [form, env],
  );

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => {
    setForm((f) => (f ? { ...f, [key]: value } : f));
    if (serverErrors[key]) setServerErrors(({ [key]: _drop, ...rest }) => rest);
    setNotice(null);
  };

  // The first refused field takes focus (read out with its error) once the form is enabled again.
  const pendingFocus = useRef<Field | null>(null);
  const focusFirst = (errs: Errors) => {
    pendingFocus.current = (Object.keys(FIELD_LABEL) as Field[]).find((f) => errs[f]) ?? null;
  };
  useEffect(() => {
    const field = pendingFocus.current;
    if (!field || busy) return;
    pendingFocus.current = null;
    document.getElementById(fieldId(field))?.focus();
  });

  const onSave = async (e: FormEvent) => {
    e.preventDefault();
    if (!form || !checked) return;
    setTried(true);
    setServerErrors({});
    setNotice(null);
    if (!checked.success) {
      focusFirst(errorsOf(checked));
      return;
    }
    setBusy(true);
    try {
      const saved = await ageGateApi.save({ env, settings: checked.data });
      const first = !store?.store_id;
      setStore(saved);
      setForm(toForm(saved.settings));
      setTried(false);
      setNotice({
        tone: 'success',
        text: saved.settings.enabled
          ? `Saved. The ${env} age gate is on for every page with the script tag (at the top of this page).`
          : `Saved. The ${env} age gate is off: the script tag does nothing until you enable it.`,
      });
      // The first save issues the script tag: bring it into view, it is the next step.
      if (first) requestAnimationFrame(() => document.getElementById('ag-embed-heading')?.scrollIntoView({ block: 'start' }));
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) {
        const next: Errors = {};
        for (const issue of err.fields ?? []) {
          const field = issue.field.replace(/^settings\./, '').split('.')[0] as Field;
          if (!(field in FIELD_LABEL)) continue;
          next[field] ??= field === 'underage_redirect_url' ? (REDIRECT_ISSUE[issue.issue] ?? err.message) : `${FIELD_LABEL[field]}: ${issue.issue}.`;
        }
        if (Object.keys(next).length > 0) {
          setServerErrors(next);
          focusFirst(next);
          return;
        }
      }
      setNotice({ tone: 'error', text: `Could not save: ${errorText(err)}` });
    } finally {
      setBusy(false);
    }
  };

  const envLabel = env === 'test' ? 'Test' : 'Live';
  return (
    <>
      <ScreenHeader
        title="Age gate"
        summary="An age check for your online store: a script tag shows an overlay that asks visitors for their date of birth (and, if you require it, a selfie) before they see age-restricted pages. One store per environment; the console’s environment switch decides which."
      />
      <LoadError testId="age-gate-load-error" title="Could not load the age gate." error={loaded.error} onRetry={loaded.reload} />
      {canManage ? null : (
        <Alert tone="info" testId="age-gate-read-only">
          You can see the age gate’s settings. Owners and admins change them.
        </Alert>
      )}

      {store?.environment === env && capReached(store) ? <CapReached /> : null}
      {store?.environment === env && store.store_id && store.embed ? <EmbedPanel store={store} applyTo={store.settings.apply_to} /> : null}

      <div className="ag-layout">
        <form className="panel ag-form" onSubmit={(e) => void onSave(e)} noValidate aria-labelledby="ag-form-heading" aria-busy={loaded.loading || busy} data-testid="age-gate-form">
          <div className="panel-header">
            <h2 id="ag-form-heading">
              {envLabel} storefront settings
            </h2>
            <Badge tone={env}>{envLabel}</Badge>
          </div>
          {form && store?.environment === env ? (
            <fieldset className="fieldset ag-body" disabled={!canManage || busy}>
              <SettingsFields form={form} errors={errors} set={set} env={env} />
              <SelfieCapField form={form} error={errors.daily_selfie_cap} set={set} env={env} store={store} />
              <AdvancedSummary settings={toSettings(form)} />
              <div className="ag-save">
                {notice ? <Alert tone={notice.tone} testId="age-gate-notice">{notice.text}</Alert> : null}
                {tried && checked && !checked.success ? (
                  <Alert testId="age-gate-invalid">Check the highlighted fields.</Alert>
                ) : null}
                <div className="ag-save-row">
                  {canManage ? (
                    <button type="submit" className="btn btn-primary" data-testid="age-gate-save">
                      {busy ? 'Saving…' : store?.store_id ? 'Save' : 'Save and get the script tag'}
                    </button>
                  ) : null}
                  <span className="muted" data-testid="age-gate-dirty">{dirty ? 'Unsaved changes' : store?.updated_at ? 'All changes saved' : ''}</span>
                </div>
              </div>
            </fieldset>
          ) : (
            <p className="ag-body muted">{loaded.loading ? 'Loading…' : null}</p>
          )}
        </form>
        {preview && form && store?.environment === env ? <Preview config={preview} selfie={form.require_selfie} /> : null}
      </div>
    </>
  );
}

interface SettingsFieldsProps {
  form: FormState;
  errors: Errors;
  set: <K extends keyof FormState>(key: K, value: FormState[K]) => void;
  env: 'test' | 'live';
}

/** Every storefront setting, in the spec's order. */
function SettingsFields({ form, errors, set, env }: SettingsFieldsProps) {
  const minAge = effectiveMinAge(form);
  return (
    <>
      <label className="option option-single">
        <input id={fieldId('enabled')} type="checkbox" checked={form.enabled} onChange={(e) => set('enabled', e.currentTarget.checked)} data-testid="age-gate-enabled" />
        <span>
          <strong>{FIELD_LABEL.enabled}</strong>
          <span className="option-hint">
            {form.enabled ? 'On: the pages chosen below show the age gate.' : 'Off: the script tag stays on your pages but shows nothing.'}
          </span>
        </span>
      </label>

      <div className="ag-grid">
        <Select
          field="apply_to" value={form.apply_to} error={errors.apply_to} onChange={(v) => set('apply_to', v)}
          options={AGE_GATE_TRIGGERS.map((v) => ({ value: v, label: TRIGGER_LABEL[v] }))}
          hint="Which pages show the age gate."
        />
        {form.apply_to === 'product_tag' ? (
          <Text field="product_tag" value={form.product_tag} error={errors.product_tag} onChange={(v) => set('product_tag', v)}
            hint={<>Product pages pass their tags in the script tag’s <code>data-product-tags</code>.</>} />
        ) : null}
        {form.apply_to === 'collection_tag' ? (
          <Text field="collection_tag" value={form.collection_tag} error={errors.collection_tag} onChange={(v) => set('collection_tag', v)}
            hint={<>Collection pages pass their tags in <code>data-collection-tags</code>.</>} />
        ) : null}
        {form.apply_to === 'page_handles' ? (
          <Text field="page_handles" value={form.page_handles} error={errors.page_handles} onChange={(v) => set('page_handles', v)}
            placeholder="wine-club, spirits" hint="Comma-separated. A page’s handle is the last part of its address (or its data-page-handle)." />
        ) : null}
      </div>

      <div className="ag-grid">
        <div className={`field${errors.min_age ? ' field-invalid' : ''}`}>
          <label htmlFor={fieldId('min_age')}>
            {FIELD_LABEL.min_age}: <output htmlFor={fieldId('min_age')} data-testid="age-gate-min-age-value">{form.min_age}</output>
          </label>
          <input
            id={fieldId('min_age')} type="range" min={AGE_GATE_MIN_AGE.min} max={AGE_GATE_MIN_AGE.max} step={1} value={form.min_age}
            onChange={(e) => set('min_age', Number(e.currentTarget.value))} aria-valuetext={`${form.min_age} years`}
            aria-describedby={`${fieldId('min_age')}-hint`} data-testid="age-gate-min-age"
          />
          <div id={`${fieldId('min_age')}-hint`} className="field-hint" data-testid="age-gate-effective-age">
            {minAge > form.min_age
              ? `${USE_CASE_LABEL[form.use_case]} requires at least ${minAge}: visitors must be ${minAge} or older.`
              : `${AGE_GATE_MIN_AGE.min} to ${AGE_GATE_MIN_AGE.max}. Visitors must be ${minAge} or older.`}
          </div>
          {errors.min_age ? <div className="field-error">{errors.min_age}</div> : null}
        </div>
        <Select
          field="use_case" value={form.use_case} error={errors.use_case} onChange={(v) => set('use_case', v)}
          options={AGE_GATE_USE_CASES.map((v) => ({ value: v, label: USE_CASE_LABEL[v] }))}
        />
      </div>

      <label className="option option-single">
        <input id={fieldId('require_selfie')} type="checkbox" checked={form.require_selfie} onChange={(e) => set('require_selfie', e.currentTarget.checked)} data-testid="age-gate-require-selfie" />
        <span>
          <strong>{FIELD_LABEL.require_selfie}</strong>
          <span className="option-hint">
            {form.require_selfie
              ? `Adults also take a selfie, whose estimated age must meet the minimum. ${env === 'live' ? `Each selfie check uses ${CREDITS.age} credits.` : 'Free in test.'}`
              : 'Off: attestation only. Visitors confirm with their date of birth; no selfie, no credits.'}
          </span>
        </span>
      </label>

      <fieldset className="fieldset">
        <legend>{FIELD_LABEL.session_mode}</legend>
        <div className="segmented-options">
          {AGE_GATE_SESSION_MODES.map((m) => (
            <label key={m} className="option">
              <input
                type="radio" name="ag-session-mode" value={m} checked={form.session_mode === m} onChange={() => set('session_mode', m)}
                id={m === form.session_mode ? fieldId('session_mode') : undefined} data-testid={`age-gate-session-${m}`}
              />
              <span>
                <strong>{SESSION_MODE_LABEL[m].label}</strong>
                <span className="option-hint">{SESSION_MODE_LABEL[m].hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      <div className="ag-grid">
        <Text
          field="underage_redirect_url" type="url" value={form.underage_redirect_url} error={errors.underage_redirect_url}
          onChange={(v) => set('underage_redirect_url', v)} placeholder="https://example.com/" hint="Where a visitor under the minimum age is sent."
        />
        <Select
          field="session_duration_hours" value={String(form.session_duration_hours)} error={errors.session_duration_hours}
          onChange={(v) => set('session_duration_hours', Number(v))}
          options={AGE_GATE_DURATIONS.map((h) => ({ value: String(h), label: durationLabel(h) }))}
          hint="How long a success keeps the overlay away."
        />
      </div>

      <div className={`field${errors.custom_message ? ' field-invalid' : ''}`}>
        <label htmlFor={fieldId('custom_message')}>{FIELD_LABEL.custom_message} (optional)</label>
        <textarea
          id={fieldId('custom_message')} rows={3} value={form.custom_message} onChange={(e) => set('custom_message', e.currentTarget.value)}
          aria-invalid={errors.custom_message ? true : undefined} aria-describedby={`${fieldId('custom_message')}-hint`} data-testid="age-gate-custom-message"
        />
        <div id={`${fieldId('custom_message')}-hint`} className="field-hint">
          Shown above the date of birth. Empty: a message for the use case.
        </div>
        {errors.custom_message ? <div className="field-error" data-testid="age-gate-custom_message-error">{errors.custom_message}</div> : null}
      </div>

      <LogoField value={form.logo} error={errors.logo} onChange={(v) => set('logo', v)} />
    </>
  );
}

interface SelfieCapProps {
  form: FormState;
  error: string | undefined;
  set: <K extends keyof FormState>(key: K, value: FormState[K]) => void;
  env: 'test' | 'live';
  store: AgeGateStore;
}

/**
 * The live store's daily cap on the selfie checks it pays for, with today's count against the
 * saved cap (the service counts UTC days). A test store is free and not capped: nothing to set.
 */
function SelfieCapField({ form, error, set, env, store }: SelfieCapProps) {
  const id = fieldId('daily_selfie_cap');
  if (env === 'test') {
    return (
      <p className="field-hint" data-testid="age-gate-selfie-cap-test">
        Selfie checks on the test store are free and have no daily limit. The live store has its own limit.
      </p>
    );
  }
  const used = store.selfie_checks_today ?? 0;
  const cap = store.settings.daily_selfie_cap;
  const nextDay = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{FIELD_LABEL.daily_selfie_cap}</label>
      <input
        id={id} type="number" inputMode="numeric" min={AGE_GATE_DAILY_SELFIE_CAP.min} max={AGE_GATE_DAILY_SELFIE_CAP.max} step={1}
        value={Number.isNaN(form.daily_selfie_cap) ? '' : form.daily_selfie_cap}
        onChange={(e) => set('daily_selfie_cap', e.currentTarget.value === '' ? Number.NaN : Number(e.currentTarget.value))}
        aria-invalid={error ? true : undefined} aria-describedby={`${id}-hint ${id}-usage`} data-testid="age-gate-daily-selfie-cap"
      />
      <div id={`${id}-hint`} className="field-hint">
        The most selfie checks your live store pays for in one day ({CREDITS.age} credits each), from {AGE_GATE_DAILY_SELFIE_CAP.min} to{' '}
        {AGE_GATE_DAILY_SELFIE_CAP.max.toLocaleString()}. Days run from midnight to midnight UTC (midnight UTC is {nextDay} your time).
      </div>
      {error ? <div className="field-error" data-testid="age-gate-daily_selfie_cap-error">{error}</div> : null}
      <div id={`${id}-usage`} className="field-hint" data-testid="age-gate-selfie-usage">
        {used.toLocaleString()} of {cap.toLocaleString()} selfie checks today
      </div>
      {capReached(store) ? <span className="field-error"> Today’s limit is reached.</span> : null}
    </div>
  );
}

/** A live store whose paid selfie checks today reached its saved daily cap. */
const capReached = (store: AgeGateStore) =>
  store.environment === 'live' && store.store_id !== null && (store.selfie_checks_today ?? 0) >= store.settings.daily_selfie_cap;

/** Said at the top of the screen, where the merchant looks first. */
function CapReached() {
  const nextDay = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return (
    <Alert tone="warning" testId="age-gate-selfie-cap-reached" title="Today’s selfie checks are used up">
      Your live store reached its daily limit of selfie checks: visitors who need one are asked to try again later, until midnight UTC
      ({nextDay} your time). Raise the limit below and save to let more through today.
    </Alert>
  );
}

interface InputProps<V extends string> {
  field: Field;
  value: V;
  error: string | undefined;
  onChange: (value: V) => void;
  hint?: ReactNode;
}

function Select<V extends string>({ field, value, error, onChange, hint, options }: InputProps<V> & { options: { value: V; label: string }[] }) {
  const id = fieldId(field);
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{FIELD_LABEL[field]}</label>
      <select
        id={id} value={value} onChange={(e) => onChange(e.currentTarget.value as V)} aria-invalid={error ? true : undefined}
        aria-describedby={hint ? `${id}-hint` : undefined} data-testid={`age-gate-${field}`}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>{o.label}</option>
        ))}
      </select>
      {hint ? <div id={`${id}-hint`} className="field-hint">{hint}</div> : null}
      {error ? <div className="field-error" data-testid={`age-gate-${field}-error`}>{error}</div> : null}
    </div>
  );
}

function Text({ field, value, error, onChange, hint, type = 'text', placeholder }: InputProps<string> & { type?: 'text' | 'url'; placeholder?: string }) {
  const id = fieldId(field);
  const errorId = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{FIELD_LABEL[field]}</label>
      <input
        id={id} type={type} value={value} onChange={(e) => onChange(e.currentTarget.value)} placeholder={placeholder} spellCheck={false}
        autoComplete="off" aria-invalid={error ? true : undefined} aria-describedby={describedBy} data-testid={`age-gate-${field}`}
      />
      {hint ? <div id={`${id}-hint`} className="field-hint">{hint}</div> : null}
      {error ? <div id={errorId} className="field-error" data-testid={`age-gate-${field}-error`}>{error}</div> : null}
    </div>
  );
}

const TAG_HINT: Record<AgeGateSettings['apply_to'], ReactNode> = {
  all_pages: 'Put it on every page of your store, before the closing </body> tag (your theme’s layout).',
  product_tag: <>Put it on every page; on product pages add the product’s tags, e.g. <code>data-product-tags="wine, age-restricted"</code>.</>,
  collection_tag: <>Put it on every page; on collection pages add the collection’s tags, e.g. <code>data-collection-tags="spirits"</code>.</>,
  page_handles: <>Put it on every page; the page’s handle is the last part of its address, or set <code>data-page-handle</code>.</>,
};

function EmbedPanel({ store, applyTo }: { store: AgeGateStore; applyTo: AgeGateSettings['apply_to'] }) {
  return (
    <section className="panel ag-embed" aria-labelledby="ag-embed-heading" data-testid="age-gate-embed-panel">
      <div className="panel-header">
        <h2 id="ag-embed-heading">Add it to your storefront</h2>
        <span className="muted">
          Store id <code className="mono" data-testid="age-gate-store-id">{store.store_id}</code>
        </span>
      </div>
      <div className="ag-embed-body">
        <CopyField label="Script tag" value={store.embed ?? ''} testId="age-gate-embed" />
        <LinkReachNotice reach={store.link_reach} kind="script" testId="age-gate-embed-reach" />
        <p className="field-hint">
          {TAG_HINT[applyTo]} In profile mode, add the signed-in customer’s id as <code>data-customer-id</code>. The store id is
          not a secret and never changes.
        </p>
        {store.settings.enabled ? null : (
          <Alert tone="warning" testId="age-gate-off">The age gate is off: the script tag shows nothing until you enable it and save.</Alert>
        )}
      </div>
    </section>
  );
}
