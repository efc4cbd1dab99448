import { ConfirmRemoveDialog } from '../../../components/ConfirmRemoveDialog';
import { formatNumber } from '../../../components/format';
import { listsApi, type UserList } from './lists-api';

interface RemoveListDialogProps {
  list: UserList;
  onClose: () => void;
  onRemoved: (list: UserList) => void;
}

export function RemoveListDialog({ list, onClose, onRemoved }: RemoveListDialogProps) {
  return (
    <ConfirmRemoveDialog
      title="Remove this list?"
      testId="user-list"
      keepLabel="Keep list"
      confirmLabel="Remove list"
      onClose={onClose}
      onConfirm={async () => {
        await listsApi.removeUserList(list.slug);
        onRemoved(list);
      }}
      body={
        <p>
          <strong data-testid="remove-user-list-name">{list.name}</strong> ({formatNumber(list.rows)} {list.rows === 1 ? 'record' : 'records'})
          is no longer screened from now on. Results already given are not changed. To use the list again, import its file again.
        </p>
      }
    />
  );
}
