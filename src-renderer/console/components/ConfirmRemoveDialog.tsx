// "Remove this …?": an alertdialog that asks before removing something. Focus starts on the keep
// button; while the removal runs the dialog cannot be closed, and a failure shows in the dialog.
import { useState, type ReactNode } from 'react';
import { errorText } from '../api/client';
import { Alert } from './Alert';
import { Dialog } from './Dialog';

interface ConfirmRemoveDialogProps {
  title: string;
  /** What goes and what follows from it. */
  body: ReactNode;
  /** "Keep list", and "Remove list" (reads "Removing…" while it runs). */
  keepLabel: string;
  confirmLabel: string;
  /** The confirm button while it runs; "Removing…" unless the act has another name ("Cancelling…"). */
  busyLabel?: string;
  /** Does the removal; a rejection is shown in the dialog and the user may try again. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
  /** Names the test ids: "webhook" → remove-webhook-dialog, confirm-remove-webhook, remove-webhook-error. */
  testId: string;
}

export function ConfirmRemoveDialog({
  title, body, keepLabel, confirmLabel, busyLabel = 'Removing…', onConfirm, onClose, testId,
}: ConfirmRemoveDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={title}
      role="alertdialog"
      size="small"
      onClose={onClose}
      busy={busy}
      testId={`remove-${testId}-dialog`}
      description={body}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose} disabled={busy} data-autofocus="">
            {keepLabel}
          </button>
          <button type="button" className="btn btn-danger" onClick={() => void confirm()} disabled={busy} data-testid={`confirm-remove-${testId}`}>
            {busy ? busyLabel : confirmLabel}
          </button>
        </>
      }
    >
      {error ? <Alert testId={`remove-${testId}-error`}>{error}</Alert> : null}
    </Dialog>
  );
}
