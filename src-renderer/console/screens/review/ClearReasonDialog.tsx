// Clearing a strong sanctions match asks why (a reason code from a fixed list) and takes an
// optional note; with four-eyes on it says that a second person must approve before it counts.
import { useId, useState, type FormEvent } from 'react';
import { ANALYST_NOTE_MAX, CONTRADICTION_TEXT, REASON_CODES, type ReasonCode } from '../../../../src-shared/contracts/review';
import { Alert } from '../../components/Alert';
import { Dialog } from '../../components/Dialog';
import { FormFooter } from '../../components/FormFooter';
import { KIND_SHORT } from '../../components/screening-labels';
import type { BatchEntry } from '../../stores/batch';
import { fullName, openMatches, REASON_INFO } from '../../components/batch/labels';
import { contradictionFor, type Choice } from './use-decisions';

interface ClearReasonDialogProps {
  entry: BatchEntry;
  fourEyes: boolean;
  /** Why the service did not record the last attempt (shown in the dialog, which covers the screen). */
  error: string | null;
  onClose: () => void;
  /** Resolves once the service has answered; the dialog stays open (busy) until then. */
  onConfirm: (choice: Choice) => Promise<boolean>;
}

export function ClearReasonDialog({ entry, fourEyes, error, onClose, onConfirm }: ClearReasonDialogProps) {
  const formId = useId();
  const [reason, setReason] = useState<ReasonCode | null>(null);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ reason?: string; note?: string }>({});
  const [busy, setBusy] = useState(false);
  // The service refuses a reason the evidence contradicts unless there is an override note: shown before submit.
  const contradiction = contradictionFor(entry, reason);
  const strongest = [...openMatches(entry.result)].sort((a, b) => b.score - a.score).find((m) => m.list === 'sanctions');

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const next: typeof errors = {};
    if (!reason) next.reason = 'Choose why this match is not the customer.';
    if (reason === 'other' && note.trim() === '') next.note = 'With “Other”, say why in the note.';
    if (contradiction && note.trim() === '') next.note = 'This reason contradicts the match: write an override note, or choose another reason.';
    setErrors(next);
    if (next.reason || next.note || !reason) return;
    setBusy(true);
    if (!(await onConfirm({ disposition: 'cleared_false_positive', reason, note, override: contradiction !== null }))) setBusy(false);
  };

  return (
    <Dialog
      title="Clear a strong sanctions match"
      onClose={onClose}
      busy={busy}
      testId="review-reason-dialog"
      description={
        <p>
          Row {entry.input.row}, <strong>{fullName(entry.input)}</strong>
          {strongest ? (
            <>
              {' '}matched <strong>{strongest.name}</strong> ({KIND_SHORT[strongest.list]} · {strongest.source_list || strongest.source}, score {strongest.score}).
            </>
          ) : '.'}{' '}
          Clearing it as a false positive says this is a different person. Say why.
        </p>
      }
      footer={
        <FormFooter
          formId={formId} busy={busy} onCancel={onClose} busyLabel="Recording…" submitTestId="review-reason-confirm"
          submitLabel={fourEyes || contradiction ? 'Clear and ask for approval' : 'Clear match'}
        />
      }
    >
      <form id={formId} className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {error && !busy ? <Alert testId="review-reason-failed">{error}</Alert> : null}
        {fourEyes ? (
          <Alert tone="info" testId="review-reason-four-eyes" title="Four-eyes is on.">
            The clearance counts once an owner or admin other than you approves it in their Approvals queue. They may send it back to
            you with a note instead; this screen shows what they decided.
          </Alert>
        ) : null}
        <fieldset className="fieldset" aria-describedby={errors.reason ? `${formId}-reason-error` : undefined}>
          <legend>Reason</legend>
          <div className="plan-options">
            {REASON_CODES.map((code) => (
              <label key={code} className="option">
                <input
                  type="radio" name={`${formId}-reason`} value={code} checked={reason === code} data-testid={`review-reason-${code}`}
                  onChange={() => {
                    setReason(code);
                    setErrors((er) => ({ ...er, reason: undefined }));
                  }}
                  {...(code === REASON_CODES[0] ? { 'data-autofocus': '' } : {})}
                />
                <span>
                  <strong>{REASON_INFO[code].label}</strong>
                  <span className="option-hint">{REASON_INFO[code].hint}</span>
                </span>
              </label>
            ))}
          </div>
          {errors.reason ? <div id={`${formId}-reason-error`} className="field-error" data-testid="review-reason-error">{errors.reason}</div> : null}
        </fieldset>
        {contradiction ? (
          <Alert tone="warning" testId="review-reason-contradiction" title="This reason contradicts the match.">
            {CONTRADICTION_TEXT[contradiction]}. To clear it anyway, write an override note saying why; an owner or admin other
            than you must then approve it before it counts, whatever the four-eyes setting.
          </Alert>
        ) : null}
        <div className={`field${errors.note ? ' field-invalid' : ''}`}>
          <label htmlFor={`${formId}-note`}>{contradiction ? 'Override note' : 'Note'} {reason === 'other' || contradiction ? '' : '(optional)'}</label>
          <textarea
            id={`${formId}-note`} rows={3} maxLength={ANALYST_NOTE_MAX} value={note} data-testid="review-reason-note"
            aria-invalid={errors.note ? true : undefined} aria-describedby={`${formId}-note-hint${errors.note ? ` ${formId}-note-error` : ''}`}
            onChange={(e) => {
              setNote(e.currentTarget.value);
              setErrors((er) => ({ ...er, note: undefined }));
            }}
          />
          <div id={`${formId}-note-hint`} className="field-hint">
            The note stays in this window and in the results file you save; the service records only that there is one.{' '}
            {fourEyes || contradiction
              ? 'The approver sees it, with the customer and the listed person, while this batch is open here: the service holds them in memory only, never on disk.'
              : null}
          </div>
          {errors.note ? <div id={`${formId}-note-error`} className="field-error" data-testid="review-reason-note-error">{errors.note}</div> : null}
        </div>
      </form>
    </Dialog>
  );
}
