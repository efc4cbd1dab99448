// Live runs spend credits: say exactly how many before the first row is sent.
import { Dialog } from '../../components/Dialog';
import { formatNumber } from '../../components/format';

interface ConfirmLiveDialogProps {
  rows: number;
  perRow: number;
  total: number;
  balance: number;
  onClose: () => void;
  onConfirm: () => void;
}

export function ConfirmLiveDialog({ rows, perRow, total, balance, onClose, onConfirm }: ConfirmLiveDialogProps) {
  return (
    <Dialog
      title="Run a live rescreen?"
      role="alertdialog"
      size="small"
      onClose={onClose}
      testId="batch-confirm-live"
      description={
        <p data-testid="batch-confirm-cost">
          {formatNumber(rows)} {rows === 1 ? 'row' : 'rows'} × {perRow} credits = <strong>{formatNumber(total)} credits</strong>; balance{' '}
          {formatNumber(balance)}.
        </p>
      }
      footer={
        <>
          <button type="button" className="btn" onClick={onClose} data-autofocus="">
            Cancel
          </button>
          <button type="button" className="btn btn-primary" onClick={onConfirm} data-testid="batch-confirm-live-run">
            Run and spend {formatNumber(total)} credits
          </button>
        </>
      }
    >
      <p className="muted">
        Live runs are for real customers. Credits are charged as rows are screened; if you cancel, the rows not yet
        screened are not charged. Balance afterwards: {formatNumber(balance - total)} credits.
      </p>
    </Dialog>
  );
}
