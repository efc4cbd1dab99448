// Confirms dropping results whose dispositions were not saved yet: they exist nowhere else.
import { Dialog } from '../Dialog';
import { formatNumber } from '../format';

interface DiscardDialogProps {
  dispositions: number;
  /** What happens on confirm, e.g. "Import the new file". */
  action: string;
  onSave: () => void;
  onDiscard: () => void;
  onClose: () => void;
}

export function DiscardDialog({ dispositions, action, onSave, onDiscard, onClose }: DiscardDialogProps) {
  return (
    <Dialog
      title="Discard unsaved dispositions?"
      role="alertdialog"
      size="small"
      onClose={onClose}
      testId="batch-discard-dialog"
      description={
        <p>
          {formatNumber(dispositions)} {dispositions === 1 ? 'disposition has' : 'dispositions have'} not been saved. This console keeps no copy:
          once discarded they are gone. Save the results first to keep them in your file.
        </p>
      }
      footer={
        <>
          <button type="button" className="btn" onClick={onClose} data-autofocus="">
            Keep them
          </button>
          <button type="button" className="btn" onClick={onSave} data-testid="batch-discard-save">
            Save results…
          </button>
          <button type="button" className="btn btn-danger" onClick={onDiscard} data-testid="batch-discard-confirm">
            {action}
          </button>
        </>
      }
    >
      {null}
    </Dialog>
  );
}
