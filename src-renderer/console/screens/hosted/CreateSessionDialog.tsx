// The new-session form. The session is made in the console's current environment; the URL comes
// back once and the caller shows it (with its QR code) and drops it.
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { PLAN_INFO, type Environment, type Plan } from '../../../../src-shared/catalog';
import {
  HOSTED_PRODUCTS, HostedConsoleCreateRequest, type HostedGenerateResponse,
} from '../../../../src-shared/contracts/hosted';
import { ApiError, errorText } from '../../api/client';
import { href } from '../../app/router';
import { Alert } from '../../components/Alert';
import { Badge } from '../../components/Badge';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { FormFooter } from '../../components/FormFooter';
import { hostedApi } from './hosted-api';
import { PRODUCT_INFO, redirectIssueText, type HostedProduct } from './labels';

interface CreateSessionDialogProps {
  env: Environment;
  plan: Plan;
  onClose: () => void;
  onCreated: (created: HostedGenerateResponse, product: HostedProduct) => void;
}

type FieldName = 'product' | 'min_age' | 'page_title' | 'success_message' | 'failure_message' | 'redirect_url' | 'failure_redirect_url' | 'expires_in_hours';
type Errors = Partial<Record<FieldName, string>>;

/** What to say when the shared schema refuses a field before anything is sent. */
const RULE: Record<FieldName, string> = {
  product: 'Choose what the person is asked to do.',
  expires_in_hours: 'Enter a whole number of hours from 1 to 168 (one week).',
  min_age: 'Enter a whole number of years from 13 to 99.',
  page_title: 'Keep the title under 120 characters.',
  success_message: 'Keep the message under 500 characters.',
  failure_message: 'Keep the message under 500 characters.',
  redirect_url: 'Keep the address under 2048 characters.',
  failure_redirect_url: 'Keep the address under 2048 characters.',
};
const FIELDS = Object.keys(RULE) as FieldName[];
const isField = (k: unknown): k is FieldName => typeof k === 'string' && (FIELDS as string[]).includes(k);

interface TextAreaProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: ReactNode;
  testId: string;
}

/** A labelled textarea whose hint and error are tied to it, like Field. */
export function TextArea({ id, label, value, onChange, error, hint, testId }: TextAreaProps) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id} rows={2} maxLength={500} value={value} onChange={(e) => onChange(e.currentTarget.value)}
        aria-invalid={error ? true : undefined} aria-describedby={describedBy} data-testid={testId}
      />
      {hint ? <div id={`${id}-hint`} className="field-hint">{hint}</div> : null}
      {error ? <div id={`${id}-error`} className="field-error" data-testid={`${testId}-error`}>{error}</div> : null}
    </div>
  );
}

export function CreateSessionDialog({ env, plan, onClose, onCreated }: CreateSessionDialogProps) {
  const formId = useId();
  const [product, setProduct] = useState<HostedProduct>('human');
  const [minAge, setMinAge] = useState('18');
  const [title, setTitle] = useState('');
  const [success, setSuccess] = useState('');
  const [failure, setFailure] = useState('');
  const [redirect, setRedirect] = useState('');
  const [failureRedirect, setFailureRedirect] = useState('');
  const [hours, setHours] = useState('24');
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const complianceAllowed = PLAN_INFO[plan].compliance;

  /** Sets a field and clears its error. */
  const edit = (field: FieldName, set: (v: string) => void) => (value: string) => {
    set(value);
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setFormError(null);
    const optional = (v: string) => (v.trim() ? v.trim() : undefined);
    const body: HostedConsoleCreateRequest = {
      product,
      env,
      expires_in_hours: hours.trim() === '' ? Number.NaN : Number(hours),
      redirect_url: optional(redirect),
      failure_redirect_url: optional(failureRedirect),
      page_title: optional(title),
      success_message: optional(success),
      failure_message: optional(failure),
      min_age: product === 'age' ? (minAge.trim() === '' ? Number.NaN : Number(minAge)) : undefined,
    };
    // The service's own schema answers at once; the service checks again (and the redirects).
    const checked = HostedConsoleCreateRequest.safeParse(body);
    if (!checked.success) {
      const next: Errors = {};
      for (const issue of checked.error.issues) {
        const field = issue.path[0];
        if (isField(field)) next[field] ??= RULE[field];
      }
      setErrors(next);
      if (Object.keys(next).length === 0) setFormError('Check the form and try again.');
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      onCreated(await hostedApi.create(body), product);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 400) {
        const next: Errors = {};
        for (const issue of err.fields ?? []) {
          if (!isField(issue.field)) continue;
          next[issue.field] = issue.field === 'redirect_url' || issue.field === 'failure_redirect_url'
            ? redirectIssueText(issue.issue, err.message)
            : RULE[issue.field];
        }
        if (err.field && isField(err.field)) next[err.field] = err.message;
        setErrors(next);
        if (Object.keys(next).length > 0) {
          // Focus the first field the service refused, so it is read out with its error.
          const first = FIELDS.find((f) => next[f]);
          requestAnimationFrame(() => document.getElementById(`${formId}-${first}`)?.focus());
          return;
        }
      }
      setFormError(errorText(err));
    }
  };

  const id = (field: FieldName) => `${formId}-${field}`;

  return (
    <Dialog
      title="New hosted session"
      onClose={onClose}
      busy={busy}
      testId="create-hosted-dialog"
      footer={
        <FormFooter formId={formId} busy={busy} onCancel={onClose} submitLabel="Create session" busyLabel="Creating…" submitTestId="create-hosted-submit" />
      }
    >
      <form id={formId} className="form hs-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {formError ? <Alert testId="create-hosted-error">{formError}</Alert> : null}

        <p className="hs-env-line" data-testid="hosted-env">
          <Badge tone={env}>{env === 'test' ? 'Test' : 'Live'}</Badge>
          <span className="muted">
            {env === 'test'
              ? 'A test session: the page shows a test banner and uses no credits.'
              : 'A live session: a completed check uses credits from your balance.'}{' '}
            The console’s environment switch decides which.
          </span>
        </p>

        <fieldset className="fieldset">
          <legend>What the person does</legend>
          <div className="checkbox-list">
            {HOSTED_PRODUCTS.map((p, i) => {
              const locked = p === 'compliance' && !complianceAllowed;
              return (
                <label key={p} className={`option${locked ? ' option-disabled' : ''}`}>
                  <input
                    type="radio" name={`${formId}-product`} value={p} checked={product === p} disabled={locked}
                    onChange={() => setProduct(p)} data-testid={`hosted-product-${p}`} {...(i === 0 ? { 'data-autofocus': '' } : {})}
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

        <div className="hs-grid-2">
          <Field
            id={id('expires_in_hours')} label="Link expires after (hours)" type="number" inputMode="numeric" min={1} max={168} step={1}
            value={hours} onChange={(e) => edit('expires_in_hours', setHours)(e.currentTarget.value)} error={errors.expires_in_hours}
            testId="hosted-expiry" hint="1 to 168 hours (one week). The link works once." className="hs-narrow"
          />
          {product === 'age' ? (
            <Field
              id={id('min_age')} label="Minimum age" type="number" inputMode="numeric" min={13} max={99} step={1} value={minAge}
              onChange={(e) => edit('min_age', setMinAge)(e.currentTarget.value)} error={errors.min_age} testId="hosted-min-age"
              hint="Younger people are refused. 13 to 99." className="hs-narrow"
            />
          ) : null}
        </div>

        <Field
          id={id('page_title')} label="Page title (optional)" value={title} maxLength={120}
          onChange={(e) => edit('page_title', setTitle)(e.currentTarget.value)} error={errors.page_title} testId="hosted-title"
          placeholder="e.g. Northwind age check" hint="The heading the person sees on the page."
        />

        <div className="hs-grid-2">
          <TextArea
            id={id('success_message')} label="Message after a pass (optional)" value={success} onChange={edit('success_message', setSuccess)}
            error={errors.success_message} testId="hosted-success-message"
          />
          <TextArea
            id={id('failure_message')} label="Message after a failure (optional)" value={failure} onChange={edit('failure_message', setFailure)}
            error={errors.failure_message} testId="hosted-failure-message"
          />
        </div>

        <div className="hs-grid-2">
          <Field
            id={id('redirect_url')} label="Go to after a pass (optional)" type="url" inputMode="url" value={redirect} maxLength={2048}
            onChange={(e) => edit('redirect_url', setRedirect)(e.currentTarget.value)} error={errors.redirect_url} testId="hosted-redirect"
            placeholder="https://example.com/verified" spellCheck={false} autoComplete="off"
          />
          <Field
            id={id('failure_redirect_url')} label="Go to after a failure (optional)" type="url" inputMode="url" value={failureRedirect} maxLength={2048}
            onChange={(e) => edit('failure_redirect_url', setFailureRedirect)(e.currentTarget.value)} error={errors.failure_redirect_url}
            testId="hosted-failure-redirect" placeholder="https://example.com/not-verified" spellCheck={false} autoComplete="off"
          />
        </div>
        <p className="field-hint hs-tight">
          https:// addresses or your app’s own scheme (a deep link); http:// only for localhost. The address receives the session and
          its status only, never the result: your backend learns that from the <code>verification.completed</code> webhook. Without an
          address the person stays on the result page.
        </p>

      </form>
    </Dialog>
  );
}
