// Publish or edit a flow: a name for the console and a hosted session's settings (no expiry: each
// visit's session lasts an hour). A new flow is published in the console's environment; an edit
// keeps the flow's URL, so a printed QR code or a link on a website keeps working.
import { useId, useState, type FormEvent } from 'react';
import { PLAN_INFO, type Environment, type Plan } from '../../../../src-shared/catalog';
import {
  HOSTED_PRODUCTS, PublishedFlowCreateRequest, type PublishedFlowView,
} from '../../../../src-shared/contracts/hosted';
import { ApiError, errorText } from '../../api/client';
import { href } from '../../app/router';
import { Alert } from '../../components/Alert';
import { Badge } from '../../components/Badge';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { FormFooter } from '../../components/FormFooter';
import { TextArea } from './CreateSessionDialog';
import { flowsApi } from './hosted-api';
import { PRODUCT_INFO, redirectIssueText, type HostedProduct } from './labels';

interface FlowDialogProps {
  env: Environment;
  plan: Plan;
  /** The flow being edited; absent to publish a new one. */
  flow?: PublishedFlowView | undefined;
  onClose: () => void;
  onSaved: (flow: PublishedFlowView, created: boolean) => void;
}

type FieldName = 'name' | 'product' | 'min_age' | 'page_title' | 'success_message' | 'failure_message' | 'redirect_url' | 'failure_redirect_url';
type Errors = Partial<Record<FieldName, string>>;

/** What to say when the shared schema refuses a field before anything is sent. */
const RULE: Record<FieldName, string> = {
  name: 'Enter a name of up to 80 characters.',
  product: 'Choose what the person is asked to do.',
  min_age: 'Enter a whole number of years from 13 to 99.',
  page_title: 'Keep the title under 120 characters.',
  success_message: 'Keep the message under 500 characters.',
  failure_message: 'Keep the message under 500 characters.',
  redirect_url: 'Keep the address under 2048 characters.',
  failure_redirect_url: 'Keep the address under 2048 characters.',
};
const FIELDS = Object.keys(RULE) as FieldName[];
const isField = (k: unknown): k is FieldName => typeof k === 'string' && (FIELDS as string[]).includes(k);

export function FlowDialog({ env, plan, flow, onClose, onSaved }: FlowDialogProps) {
  const formId = useId();
  const editing = flow !== undefined;
  const flowEnv = flow?.environment ?? env;
  const [name, setName] = useState(flow?.name ?? '');
  const [product, setProduct] = useState<HostedProduct>(flow?.product ?? 'human');
  const [minAge, setMinAge] = useState(String(flow?.settings.min_age ?? 18));
  const [title, setTitle] = useState(flow?.settings.page_title ?? '');
  const [success, setSuccess] = useState(flow?.settings.success_message ?? '');
  const [failure, setFailure] = useState(flow?.settings.failure_message ?? '');
  const [redirect, setRedirect] = useState(flow?.settings.redirect_url ?? '');
  const [failureRedirect, setFailureRedirect] = useState(flow?.settings.failure_redirect_url ?? '');
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const complianceAllowed = PLAN_INFO[plan].compliance;

  const edit = (field: FieldName, set: (v: string) => void) => (value: string) => {
    set(value);
    setErrors((e) => ({ ...e, [field]: undefined }));
  };
  const id = (field: FieldName) => `${formId}-${field}`;

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setFormError(null);
    const optional = (v: string) => (v.trim() ? v.trim() : undefined);
    const body: PublishedFlowCreateRequest = {
      name,
      product,
      env: flowEnv,
      redirect_url: optional(redirect),
      failure_redirect_url: optional(failureRedirect),
      page_title: optional(title),
      success_message: optional(success),
      failure_message: optional(failure),
      min_age: product === 'age' ? (minAge.trim() === '' ? Number.NaN : Number(minAge)) : undefined,
    };
    // The service's own schema answers at once; the service checks again (and the redirects).
    const checked = PublishedFlowCreateRequest.safeParse(body);
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
      if (flow) {
        const { env: _env, ...settings } = body;
        onSaved(await flowsApi.update(flow.id, settings), false);
      } else {
        onSaved(await flowsApi.create(body), true);
      }
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
          const first = FIELDS.find((f) => next[f]);
          requestAnimationFrame(() => document.getElementById(id(first!))?.focus());
          return;
        }
      }
      setFormError(errorText(err));
    }
  };

  return (
    <Dialog
      title={editing ? 'Edit published flow' : 'Publish a flow'}
      onClose={onClose}
      busy={busy}
      testId="flow-dialog"
      footer={
        <FormFooter
          formId={formId} busy={busy} onCancel={onClose} submitLabel={editing ? 'Save changes' : 'Publish flow'}
          busyLabel={editing ? 'Saving…' : 'Publishing…'} submitTestId="flow-submit"
        />
      }
    >
      <form id={formId} className="form hs-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {formError ? <Alert testId="flow-error">{formError}</Alert> : null}

        <p className="hs-env-line" data-testid="flow-env">
          <Badge tone={flowEnv}>{flowEnv === 'test' ? 'Test' : 'Live'}</Badge>
          <span className="muted">
            {editing
              ? 'The link stays the same: people who open it from now on get the new settings. Sessions already started keep theirs.'
              : flowEnv === 'test'
                ? 'A test flow: its pages show a test banner and use no credits.'
                : 'A live flow: every completed check uses credits from your balance.'}
          </span>
        </p>

        <Field
          id={id('name')} label="Name" value={name} maxLength={80} onChange={(e) => edit('name', setName)(e.currentTarget.value)}
          error={errors.name} testId="flow-name" placeholder="e.g. Front desk age check" hint="For you and your team; the person does not see it."
          data-autofocus=""
        />

        <fieldset className="fieldset">
          <legend>What the person does</legend>
          <div className="checkbox-list">
            {HOSTED_PRODUCTS.map((p) => {
              const locked = p === 'compliance' && !complianceAllowed;
              return (
                <label key={p} className={`option${locked ? ' option-disabled' : ''}`}>
                  <input
                    type="radio" name={`${formId}-product`} value={p} checked={product === p} disabled={locked}
                    onChange={() => setProduct(p)} data-testid={`flow-product-${p}`}
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

        {product === 'age' ? (
          <Field
            id={id('min_age')} label="Minimum age" type="number" inputMode="numeric" min={13} max={99} step={1} value={minAge}
            onChange={(e) => edit('min_age', setMinAge)(e.currentTarget.value)} error={errors.min_age} testId="flow-min-age"
            hint="Younger people are refused. 13 to 99." className="hs-narrow"
          />
        ) : null}

        <Field
          id={id('page_title')} label="Page title (optional)" value={title} maxLength={120}
          onChange={(e) => edit('page_title', setTitle)(e.currentTarget.value)} error={errors.page_title} testId="flow-title"
          placeholder="e.g. Northwind age check" hint="The heading the person sees on the page."
        />

        <div className="hs-grid-2">
          <TextArea
            id={id('success_message')} label="Message after a pass (optional)" value={success} onChange={edit('success_message', setSuccess)}
            error={errors.success_message} testId="flow-success-message"
          />
          <TextArea
            id={id('failure_message')} label="Message after a failure (optional)" value={failure} onChange={edit('failure_message', setFailure)}
            error={errors.failure_message} testId="flow-failure-message"
          />
        </div>

        <div className="hs-grid-2">
          <Field
            id={id('redirect_url')} label="Go to after a pass (optional)" type="url" inputMode="url" value={redirect} maxLength={2048}
            onChange={(e) => edit('redirect_url', setRedirect)(e.currentTarget.value)} error={errors.redirect_url} testId="flow-redirect"
            placeholder="https://example.com/verified" spellCheck={false} autoComplete="off"
          />
          <Field
            id={id('failure_redirect_url')} label="Go to after a failure (optional)" type="url" inputMode="url" value={failureRedirect} maxLength={2048}
            onChange={(e) => edit('failure_redirect_url', setFailureRedirect)(e.currentTarget.value)} error={errors.failure_redirect_url}
            testId="flow-failure-redirect" placeholder="https://example.com/not-verified" spellCheck={false} autoComplete="off"
          />
        </div>
        <p className="field-hint hs-tight">
          https:// addresses or your app’s own scheme (a deep link); http:// only for localhost. The address receives the session and
          its status only; your backend learns the result from the <code>verification.completed</code> webhook.
        </p>
      </form>
    </Dialog>
  );
}
