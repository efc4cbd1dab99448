// First run: the data directory is empty, so the console creates the organization and its
// owner, on the plan the organization bought. The form validates with the same zod schema the
// service uses.
import { useState, type FormEvent } from 'react';
import type { Plan } from '../../../../src-shared/catalog';
import { SetupRequest } from '../../../../src-shared/contracts/accounts';
import { ApiError, errorText } from '../../api/client';
import { Alert } from '../../components/Alert';
import { AuthFrame } from '../../components/AuthFrame';
import { Field } from '../../components/Field';
import { PlanChoice } from '../../components/PlanChoice';
import { useSession } from '../../stores/session';

type FieldName = 'organization' | 'name' | 'email' | 'password' | 'confirm';
type Errors = Partial<Record<FieldName, string>>;

const MESSAGES: Record<Exclude<FieldName, 'confirm'>, string> = {
  organization: 'Enter the name of your organization.',
  name: 'Enter your name.',
  email: 'Enter a valid e-mail address.',
  password: 'Use at least 10 characters.',
};

export function FirstRunScreen() {
  const setup = useSession((s) => s.setup);
  const boot = useSession((s) => s.boot);
  const [values, setValues] = useState({ organization: '', name: '', email: '', password: '', confirm: '' });
  // Free until the owner says otherwise: nothing here may assume a purchase.
  const [plan, setPlan] = useState<Plan>('free');
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [alreadySetUp, setAlreadySetUp] = useState(false);
  const [busy, setBusy] = useState(false);

  const update = (name: FieldName) => (e: { currentTarget: HTMLInputElement }) => {
    const value = e.currentTarget.value;
    setValues((v) => ({ ...v, [name]: value }));
    if (errors[name]) setErrors((er) => ({ ...er, [name]: undefined }));
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setFormError(null);
    const { confirm, ...body } = values;
    const parsed = SetupRequest.safeParse({ ...body, plan });
    const next: Errors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (typeof field === 'string' && field in MESSAGES) next[field as keyof typeof MESSAGES] = MESSAGES[field as keyof typeof MESSAGES];
      }
    }
    if (!next.password && confirm !== values.password) next.confirm = 'The passwords do not match.';
    setErrors(next);
    if (!parsed.success || next.confirm) {
      const first = (['organization', 'name', 'email', 'password', 'confirm'] as const).find((f) => next[f]);
      if (first) document.getElementById(`first-run-${first}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      await setup(parsed.data);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) setAlreadySetUp(true);
      const fieldErrors: Errors = {};
      if (err instanceof ApiError) {
        for (const f of ['organization', 'name', 'email', 'password'] as const) {
          const m = err.forField(f);
          if (m) fieldErrors[f] = m;
        }
      }
      setErrors(fieldErrors);
      setFormError(errorText(err));
      setBusy(false);
    }
  };

  return (
    <AuthFrame
      testId="first-run"
      title="Set up your organization"
      intro={
        <p>
          This is a new installation. Create your organization and its owner account; you will sign in with this e-mail and
          password. Everything stays on this computer.
        </p>
      }
    >
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate aria-busy={busy}>
        {formError ? (
          <Alert testId="first-run-error">
            {formError}
            {alreadySetUp ? (
              <>
                {' '}
                <button type="button" className="link-button" onClick={() => void boot()}>
                  Go to sign in
                </button>
              </>
            ) : null}
          </Alert>
        ) : null}
        <Field
          id="first-run-organization" label="Organization name" testId="first-run-org" autoComplete="organization"
          value={values.organization} onChange={update('organization')} error={errors.organization} required autoFocus
        />
        <Field
          id="first-run-name" label="Your name" testId="first-run-name" autoComplete="name"
          value={values.name} onChange={update('name')} error={errors.name} required
        />
        <Field
          id="first-run-email" label="Work e-mail" type="email" testId="first-run-email" autoComplete="username"
          value={values.email} onChange={update('email')} error={errors.email} required
        />
        <Field
          id="first-run-password" label="Password" type="password" testId="first-run-password" autoComplete="new-password"
          hint="At least 10 characters." value={values.password} onChange={update('password')} error={errors.password} required
        />
        <Field
          id="first-run-confirm" label="Confirm password" type="password" testId="first-run-confirm" autoComplete="new-password"
          value={values.confirm} onChange={update('confirm')} error={errors.confirm} required
        />
        <PlanChoice
          name="first-run-plan" value={plan} onChange={setPlan} testIdPrefix="first-run-plan"
          legend="Your organization's plan"
          hint="Choose the plan your organization bought. Screening needs Pro or Enterprise. The owner can change it later under Plan & credits."
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy} data-testid="first-run-submit">
          {busy ? 'Creating…' : 'Create organization'}
        </button>
      </form>
    </AuthFrame>
  );
}
