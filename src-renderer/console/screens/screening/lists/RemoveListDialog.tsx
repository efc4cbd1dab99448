import { useState } from 'react';
import { errorText } from '../../../api/client';
import { Alert } from '../../../components/Alert';
import { Dialog } from '../../../components/Dialog';
import { formatNumber } from '../../../components/format';
import { listsApi, type UserList } from './lists-api';

interface RemoveListDialogProps {
  list: UserList;
  onClose: () => void;
  onRemoved: (list: UserList) => void;
}

export function RemoveListDialog({ list, onClose, onRemoved }: RemoveListDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await listsApi.removeUserList(list.slug);
      onRemoved(list);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };

  return (
    <Dialog
      title="Remove this list?"
      role="alertdialog"
      size="small"
      onClose={onClose}
      busy={busy}
      testId="remove-user-list-dialog"
      description={
        <p>
          <strong data-testid="remove-user-list-name">{list.name}</strong> ({formatNumber(list.rows)} {list.rows === 1 ? 'record' : 'records'})
          is no longer screened from now on. Results already given are not changed. To use the list again, import its file again.
        </p>
      }
      footer={
        <>
          <button type="button" className="btn" onClick={onClose} disabled={busy} data-autofocus="">
            Keep list
          </button>
          <button type="button" className="btn btn-danger" onClick={() => void remove()} disabled={busy} data-testid="confirm-remove-user-list">
            {busy ? 'Removing…' : 'Remove list'}
          </button>
        </>
      }
    >
      {error ? <Alert testId="remove-user-list-error">{error}</Alert> : null}
    </Dialog>
  );
}
