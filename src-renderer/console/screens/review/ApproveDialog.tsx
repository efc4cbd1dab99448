// Four-eyes: a second person, an owner or admin other than the analyst, approves a cleared strong
// sanctions match at the analyst's desk, where the row and its explanation are on screen. They
// sign in with their own e-mail and password; the service checks them and keeps no session.
import { useId, useState, type FormEvent } from 'react';
import { ApiError, errorText } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { formatDateTime } from '../../components/format';
import { FormFooter } from '../../components/FormFooter';
import type { BatchEntry, DecisionRecord } from '../../stores/batch';
import { fullName, REASON_INFO } from '../../components/batch/labels';
import { reviewApi } from './review-api';

interface ApproveDialogProps {
  entry: BatchEntry;
  decision: DecisionRecord;
  onClose: () => void;
  onApproved: (by: string, at: string) => void;
}

export function ApproveDialog({ entry, decision, onClose, onApproved }: ApproveDialogProps) {
  const formId = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const clearanceId = decision.approval?.clearanceId ?? '';

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const next: typeof errors = {};
    if (!email.trim()) next.email = 'Enter the approver’s e-mail.';
    if (!password) next.password = 'Enter the approver’s password.';
    setErrors(next);
    setFormError(null);
    if (next.email || next.password) return;
    setBusy(true);
    try {
      const { clearance } = await reviewApi.approve(clearanceId, { email: email.trim(), password });
      onApproved(clearance.approved_by ?? email.trim(), clearance.approved_at ?? new Date().toISOString());
    } catch (err) {
      setBusy(false);
      setPassword('');
      if (err instanceof ApiError && err.field === 'email') setErrors({ email: err.message });
      else setFormError(errorText(err));
    }
  };

  return (
    <Dialog
      title="Approve this clearance"
      onClose={onClose}
      busy={busy}
      testId="review-approve-dialog"
      description={
        <p>
          Row {entry.input.row}, <strong>{fullName(entry.input)}</strong>: a strong sanctions match cleared by <strong>{decision.decidedBy}</strong> on{' '}
          {formatDateTime(decision.decidedAt)} because: <strong>{decision.reason ? REASON_INFO[decision.reason].label : '—'}</strong>
          {decision.note ? <> (“{decision.note}”)</> : null}. An owner or admin other than {decision.decidedBy} signs in here to approve it.
        </p>
      }
      footer={<FormFooter formId={formId} busy={busy} onCancel={onClose} submitLabel="Approve" busyLabel="Checking…" submitTestId="review-approve-submit" />}
    >
      <form id={formId} className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {formError ? <Alert testId="review-approve-error">{formError}</Alert> : null}
        <Field
          label="Approver’s e-mail" type="email" autoComplete="off" value={email} error={errors.email} testId="review-approve-email" data-autofocus=""
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <Field
          label="Approver’s password" type="password" autoComplete="off" value={password} error={errors.password} testId="review-approve-password"
          hint="Checked by the service for this approval only; it starts no session."
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
      </form>
    </Dialog>
  );
}
