// The invitation form. Owners invite members or admins, admins members only (docs/roles.md). The
// acceptance link comes back once; the caller shows it and drops it.
import { useId, useState, type FormEvent } from 'react';
import type { Role } from '../../../../src-shared/catalog';
import type { CreatedInvitation, TeamRole } from '../../../../src-shared/contracts/team';
import { api, ApiError, errorText } from '../../api/client';
import { href } from '../../app/router';
import { Alert } from '../../components/Alert';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { FormFooter } from '../../components/FormFooter';
import { invitableRoles, ROLE_HINT, ROLE_LABEL, teamFullText } from './team-rules';
import { may } from '../../../../src-shared/policy';

interface InviteDialogProps {
  viewer: Role;
  onClose: () => void;
  onCreated: (created: CreatedInvitation) => void;
}

interface FormError {
  text: string;
  /** The team is full: the owner can change the plan. */
  full: boolean;
}

export function InviteDialog({ viewer, onClose, onCreated }: InviteDialogProps) {
  const formId = useId();
  const roles = invitableRoles(viewer);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<TeamRole>('member');
  const [emailError, setEmailError] = useState<string | undefined>(undefined);
  const [formError, setFormError] = useState<FormError | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setFormError(null);
    const trimmed = email.trim();
    if (!trimmed) {
      setEmailError('Enter the e-mail address to invite.');
      document.getElementById(`${formId}-email`)?.focus();
      return;
    }
    setEmailError(undefined);
    setBusy(true);
    try {
      onCreated(await api.invite({ email: trimmed, role }));
    } catch (err) {
      setBusy(false);
      // The service's own texts: `Invalid email format` (400), `Email already on team` and a
      // pending invitation for the address (409) are about the e-mail; the rest about the form.
      if (err instanceof ApiError && (err.forField('email') || err.status === 409)) {
        setEmailError(err.message);
        document.getElementById(`${formId}-email`)?.focus();
        return;
      }
      const full = err instanceof ApiError && err.counts !== undefined;
      setFormError({ text: err instanceof ApiError ? teamFullText(errorText(err), err.counts) : errorText(err), full });
    }
  };

  return (
    <Dialog
      title="Invite a team member"
      onClose={onClose}
      busy={busy}
      testId="invite-dialog"
      footer={
        <FormFooter formId={formId} busy={busy} onCancel={onClose} submitLabel="Create invitation" busyLabel="Creating…" submitTestId="invite-submit" />
      }
    >
      <form id={formId} className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {formError ? (
          <Alert testId="invite-error">
            {formError.text}
            {formError.full && may(viewer, 'plan.change') ? (
              <>
                {' '}
                <a href={href('plan')} onClick={onClose}>
                  Change the plan
                </a>
              </>
            ) : null}
          </Alert>
        ) : null}
        <Field
          id={`${formId}-email`} label="E-mail" type="email" inputMode="email" autoComplete="off" spellCheck={false} maxLength={320}
          value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={emailError} testId="invite-email" data-autofocus="" required
          placeholder="name@example.com"
        />
        {roles.length > 1 ? (
          <fieldset className="fieldset">
            <legend>Role</legend>
            <div className="segmented-options">
              {roles.map((r) => (
                <label key={r} className="option">
                  <input type="radio" name={`${formId}-role`} value={r} checked={role === r} onChange={() => setRole(r)} data-testid={`invite-role-${r}`} />
                  <span>
                    <strong>{ROLE_LABEL[r]}</strong>
                    <span className="option-hint">{ROLE_HINT[r]}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        ) : (
          <p className="muted" data-testid="invite-role-fixed">
            They join as a <strong className="text-body">member</strong>. Admins invite members; the owner invites admins.
          </p>
        )}
        <p className="field-hint">
          No e-mail is sent from this desktop install: you get an acceptance link to pass on yourself. It works once, for 7 days, and
          the invitation takes a seat until it is accepted, cancelled or expires.
        </p>
      </form>
    </Dialog>
  );
}
