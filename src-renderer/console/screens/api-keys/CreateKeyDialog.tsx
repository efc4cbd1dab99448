// The create-key form. The key and secret come back once; the caller shows them and drops them.
import { useId, useState, type FormEvent } from 'react';
import { PRODUCTS, type Environment, type Plan, type Product } from '../../../../src-shared/catalog';
import type { CreatedKey } from '../../../../src-shared/contracts/accounts';
import { api, ApiError, errorText } from '../../api/client';
import { href } from '../../app/router';
import { Alert } from '../../components/Alert';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { SCOPE_INFO } from './scopes';
import { EnvironmentChoice } from '../../components/EnvironmentChoice';
import { FormFooter } from '../../components/FormFooter';
import { planIncludes } from '../../../../src-shared/policy';

interface CreateKeyDialogProps {
  env: Environment;
  plan: Plan;
  onClose: () => void;
  onCreated: (created: CreatedKey) => void;
}

export function CreateKeyDialog({ env: initialEnv, plan, onClose, onCreated }: CreateKeyDialogProps) {
  const formId = useId();
  const [name, setName] = useState('');
  const [env, setEnv] = useState<Environment>(initialEnv);
  const [scopes, setScopes] = useState<Product[]>([]);
  const [demo, setDemo] = useState(false);
  const [errors, setErrors] = useState<{ name?: string; scopes?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const complianceAllowed = planIncludes(plan, 'compliance');

  const toggleScope = (scope: Product, on: boolean) => {
    setScopes((current) => (on ? PRODUCTS.filter((p) => p === scope || current.includes(p)) : current.filter((p) => p !== scope)));
    setErrors((e) => ({ ...e, scopes: undefined }));
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const next: typeof errors = {};
    if (!name.trim()) next.name = 'Give the key a name you will recognise, e.g. the system that uses it.';
    if (scopes.length === 0) next.scopes = 'Choose at least one scope.';
    setErrors(next);
    setFormError(null);
    if (next.name || next.scopes) return;
    setBusy(true);
    try {
      onCreated(await api.createKey({ name: name.trim(), env, scopes, demo }));
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError) {
        const fieldName = err.forField('name');
        const fieldScopes = err.forField('scopes');
        if (fieldName || fieldScopes) setErrors({ name: fieldName, scopes: fieldScopes });
      }
      setFormError(errorText(err));
    }
  };

  return (
    <Dialog
      title="Create API key"
      onClose={onClose}
      busy={busy}
      testId="create-key-dialog"
      footer={
        <FormFooter formId={formId} busy={busy} onCancel={onClose} submitLabel="Create key" busyLabel="Creating…" submitTestId="create-key-submit" />
      }
    >
      <form id={formId} className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {formError ? <Alert testId="create-key-error">{formError}</Alert> : null}
        <Field
          label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={80}
          placeholder="e.g. Checkout backend" error={errors.name} testId="key-name-input" data-autofocus="" required
        />

        <EnvironmentChoice
          name="env" value={env} onChange={setEnv} testIdPrefix="key-env"
          hints={{ test: 'Test data; never consumes credits.', live: 'Real customers; consumes credits.' }}
        />

        <fieldset className="fieldset" aria-describedby={errors.scopes ? `${formId}-scopes-error` : undefined}>
          <legend>Scopes</legend>
          <div className="checkbox-list">
            {PRODUCTS.map((scope) => {
              const locked = scope === 'compliance' && !complianceAllowed;
              return (
                <label key={scope} className={`option${locked ? ' option-disabled' : ''}`}>
                  <input
                    type="checkbox" checked={scopes.includes(scope)} disabled={locked}
                    onChange={(e) => toggleScope(scope, e.currentTarget.checked)} data-testid={`key-scope-${scope}`}
                  />
                  <span>
                    <span>
                      <strong>{SCOPE_INFO[scope].label}</strong> <code className="mono muted">{scope}</code>
                    </span>
                    <span className="option-hint">
                      {locked ? (
                        <>
                          Needs the Pro or Enterprise plan. <a href={href('plan')} onClick={onClose}>See your plan</a>
                        </>
                      ) : (
                        SCOPE_INFO[scope].description
                      )}
                    </span>
                  </span>
                </label>
              );
            })}
          </div>
          {errors.scopes ? (
            <div id={`${formId}-scopes-error`} className="field-error" data-testid="key-scopes-error">
              {errors.scopes}
            </div>
          ) : null}
        </fieldset>

        <label className="option option-single">
          <input type="checkbox" checked={demo} onChange={(e) => setDemo(e.currentTarget.checked)} data-testid="key-demo" />
          <span>
            <strong>Demo key</strong>
            <span className="option-hint">Returns simulated results and never consumes credits. For integration work and demos.</span>
          </span>
        </label>
      </form>
    </Dialog>
  );
}
