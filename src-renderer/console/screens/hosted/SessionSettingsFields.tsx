// The settings a hosted session and a published flow share (product, minimum age, page texts,
// redirects): their state, the messages for refused fields, and the fields themselves. Each dialog
// adds its own fields (a session's expiry, a flow's name) and sends its own request.
import { useState, type ReactNode } from 'react';
import { type Plan } from '../../../../src-shared/catalog';
import { HOSTED_PRODUCTS, type HostedGenerateRequest, type PublishedFlowSettings } from '../../../../src-shared/contracts/hosted';
import { ApiError, errorText } from '../../api/client';
import { href } from '../../app/router';
import { Field } from '../../components/Field';
import { TextArea } from '../../components/TextArea';
import { PRODUCT_INFO, redirectIssueText, type HostedProduct } from './labels';
import { planIncludes } from '../../../../src-shared/policy';

export type SettingsField = 'product' | 'min_age' | 'page_title' | 'success_message' | 'failure_message' | 'redirect_url' | 'failure_redirect_url';
/** The settings typed in as text (the product is chosen). */
type TextField = Exclude<SettingsField, 'product'>;
type Errors<F extends string> = Partial<Record<F, string>>;

/** What to say when the shared schema refuses a field before anything is sent; in the form's order. */
export const SETTINGS_RULE: Record<SettingsField, string> = {
  product: 'Choose what the person is asked to do.',
  min_age: 'Enter a whole number of years from 13 to 99.',
  page_title: 'Keep the title under 120 characters.',
  success_message: 'Keep the message under 500 characters.',
  failure_message: 'Keep the message under 500 characters.',
  redirect_url: 'Keep the address under 2048 characters.',
  failure_redirect_url: 'Keep the address under 2048 characters.',
};

/** The settings part of a session's or a flow's request. */
export type SettingsRequest = Pick<HostedGenerateRequest, SettingsField>;

/** A number typed into a field; empty is NaN so the schema refuses it rather than taking a default. */
export const numberOf = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));

const optional = (v: string) => (v.trim() ? v.trim() : undefined);

interface Issue { readonly path: readonly PropertyKey[] }

/**
 * The message for each field a dialog knows, from the schema's issues before sending or from the
 * service's 400 (which also checks the redirects). `rules` holds the dialog's fields in form order.
 */
export function fieldErrors<F extends string>(rules: Record<F, string>, refusal: ApiError | readonly Issue[]): Errors<F> {
  const isField = (k: unknown): k is F => typeof k === 'string' && Object.hasOwn(rules, k);
  const next: Errors<F> = {};
  if (!(refusal instanceof ApiError)) {
    for (const issue of refusal) {
      const field = issue.path[0];
      if (isField(field)) next[field] ??= rules[field];
    }
    return next;
  }
  for (const issue of refusal.fields ?? []) {
    if (!isField(issue.field)) continue;
    next[issue.field] = issue.field === 'redirect_url' || issue.field === 'failure_redirect_url'
      ? redirectIssueText(issue.issue, refusal.message)
      : rules[issue.field];
  }
  if (refusal.field && isField(refusal.field)) next[refusal.field] = refusal.message;
  return next;
}

export interface SessionSettings<F extends string = never> {
  formId: string;
  product: HostedProduct;
  setProduct: (product: HostedProduct) => void;
  text: Record<TextField, string>;
  /** Sets a shared text field and clears its error. */
  change: (field: TextField) => (value: string) => void;
  errors: Errors<F | SettingsField>;
  formError: string | null;
  /** The element id of a field, for focusing it after a refusal. */
  id: (field: F | SettingsField) => string;
  /** Sets one of the dialog's own fields and clears its error. */
  edit: (field: F, set: (v: string) => void) => (value: string) => void;
  request: () => SettingsRequest;
  /** Shows the schema's refusals by field; true when the request may be sent. */
  accept: (checked: { success: boolean; error?: { issues: readonly Issue[] } | undefined }) => boolean;
  /** Shows why the service refused: by field (focusing the first) for a 400, else for the form. */
  refused: (err: unknown) => void;
}

/**
 * The shared settings' state and errors. `rules` lists all the dialog's fields in form order with
 * their messages; `initial` is a flow being edited.
 */
export function useSessionSettings<F extends string = never>(
  formId: string,
  rules: Record<F | SettingsField, string>,
  initial?: { product: HostedProduct; settings: PublishedFlowSettings },
): SessionSettings<F> {
  const [product, setProduct] = useState<HostedProduct>(initial?.product ?? 'human');
  const [text, setText] = useState<Record<TextField, string>>(() => ({
    min_age: String(initial?.settings.min_age ?? 18),
    page_title: initial?.settings.page_title ?? '',
    success_message: initial?.settings.success_message ?? '',
    failure_message: initial?.settings.failure_message ?? '',
    redirect_url: initial?.settings.redirect_url ?? '',
    failure_redirect_url: initial?.settings.failure_redirect_url ?? '',
  }));
  const [errors, setErrors] = useState<Errors<F | SettingsField>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const id = (field: F | SettingsField) => `${formId}-${field}`;
  const clearError = (field: F | SettingsField) => setErrors((e) => ({ ...e, [field]: undefined }));

  return {
    formId, product, setProduct, text, errors, formError, id,
    change: (field) => (value) => {
      setText((t) => ({ ...t, [field]: value }));
      clearError(field);
    },
    edit: (field, set) => (value) => {
      set(value);
      clearError(field);
    },
    request: () => ({
      product,
      redirect_url: optional(text.redirect_url),
      failure_redirect_url: optional(text.failure_redirect_url),
      page_title: optional(text.page_title),
      success_message: optional(text.success_message),
      failure_message: optional(text.failure_message),
      min_age: product === 'age' ? numberOf(text.min_age) : undefined,
    }),
    accept: (checked) => {
      setFormError(null);
      const next = checked.success ? {} : fieldErrors(rules, checked.error?.issues ?? []);
      setErrors(next);
      if (!checked.success && Object.keys(next).length === 0) setFormError('Check the form and try again.');
      return checked.success;
    },
    refused: (err) => {
      if (err instanceof ApiError && err.status === 400) {
        const next = fieldErrors(rules, err);
        setErrors(next);
        // Focus the first field the service refused, so it is read out with its error.
        const first = (Object.keys(rules) as (F | SettingsField)[]).find((f) => next[f]);
        if (first) {
          requestAnimationFrame(() => document.getElementById(id(first))?.focus());
          return;
        }
      }
      setFormError(errorText(err));
    },
  };
}

interface SessionSettingsFieldsProps {
  settings: SessionSettings;
  plan: Plan;
  /** Prefix of the fields' test ids: `hosted` gives `hosted-title`, `hosted-title-error`, … */
  testIdPrefix: string;
  /** Whether the first product takes the dialog's first focus. */
  autoFocusProduct?: boolean;
  /** A field beside the minimum age in a two-column row (a session's expiry). */
  besideAge?: ReactNode;
  /** Under the redirects: what the addresses may be and what they receive. */
  redirectHint: ReactNode;
  /** The plan link leaves the dialog. */
  onClose: () => void;
}

/** The product choice (with the plan's lock), minimum age, page texts and redirects. */
export function SessionSettingsFields({
  settings: s, plan, testIdPrefix, autoFocusProduct = false, besideAge, redirectHint, onClose,
}: SessionSettingsFieldsProps) {
  const complianceAllowed = planIncludes(plan, 'compliance');
  const testId = (name: string) => `${testIdPrefix}-${name}`;
  const age = s.product === 'age' ? (
    <Field
      id={s.id('min_age')} label="Minimum age" type="number" inputMode="numeric" min={13} max={99} step={1} value={s.text.min_age}
      onChange={(e) => s.change('min_age')(e.currentTarget.value)} error={s.errors.min_age} testId={testId('min-age')}
      hint="Younger people are refused. 13 to 99." className="hs-narrow"
    />
  ) : null;

  return (
    <>
      <fieldset className="fieldset">
        <legend>What the person does</legend>
        <div className="checkbox-list">
          {HOSTED_PRODUCTS.map((p, i) => {
            const locked = p === 'compliance' && !complianceAllowed;
            return (
              <label key={p} className={`option${locked ? ' option-disabled' : ''}`}>
                <input
                  type="radio" name={`${s.formId}-product`} value={p} checked={s.product === p} disabled={locked}
                  onChange={() => s.setProduct(p)} data-testid={testId(`product-${p}`)}
                  {...(autoFocusProduct && i === 0 ? { 'data-autofocus': '' } : {})}
                />
                <span>
                  <strong>{PRODUCT_INFO[p].label}</strong>
                  <span className="option-hint">
                    {locked ? (
                      <>
                        Needs the Pro or Enterprise plan. <a href={href('plan')} onClick={onClose}>See your plan</a>
                      </>
                    ) : (
                      PRODUCT_INFO[p].description
                    )}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>

      {besideAge ? <div className="hs-grid-2">{besideAge}{age}</div> : age}

      <Field
        id={s.id('page_title')} label="Page title (optional)" value={s.text.page_title} maxLength={120}
        onChange={(e) => s.change('page_title')(e.currentTarget.value)} error={s.errors.page_title} testId={testId('title')}
        placeholder="e.g. Northwind age check" hint="The heading the person sees on the page."
      />

      <div className="hs-grid-2">
        <TextArea
          id={s.id('success_message')} label="Message after a pass (optional)" value={s.text.success_message} maxLength={500}
          onChange={s.change('success_message')} error={s.errors.success_message} testId={testId('success-message')}
        />
        <TextArea
          id={s.id('failure_message')} label="Message after a failure (optional)" value={s.text.failure_message} maxLength={500}
          onChange={s.change('failure_message')} error={s.errors.failure_message} testId={testId('failure-message')}
        />
      </div>

      <div className="hs-grid-2">
        <Field
          id={s.id('redirect_url')} label="Go to after a pass (optional)" type="url" inputMode="url" value={s.text.redirect_url} maxLength={2048}
          onChange={(e) => s.change('redirect_url')(e.currentTarget.value)} error={s.errors.redirect_url}
          testId={testId('redirect')} placeholder="https://example.com/verified" spellCheck={false} autoComplete="off"
        />
        <Field
          id={s.id('failure_redirect_url')} label="Go to after a failure (optional)" type="url" inputMode="url" value={s.text.failure_redirect_url}
          maxLength={2048} onChange={(e) => s.change('failure_redirect_url')(e.currentTarget.value)}
          error={s.errors.failure_redirect_url} testId={testId('failure-redirect')} placeholder="https://example.com/not-verified"
          spellCheck={false} autoComplete="off"
        />
      </div>
      <p className="field-hint hs-tight">{redirectHint}</p>
    </>
  );
}
