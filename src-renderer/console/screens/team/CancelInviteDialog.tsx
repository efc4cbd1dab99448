import type { InvitationListItem } from '../../../../src-shared/contracts/team';
import { api } from '../../api/client';
import { ConfirmRemoveDialog } from '../../components/ConfirmRemoveDialog';

interface CancelInviteDialogProps {
  invite: InvitationListItem;
  onClose: () => void;
  onCancelled: (invite: InvitationListItem) => void;
}

export function CancelInviteDialog({ invite, onClose, onCancelled }: CancelInviteDialogProps) {
  return (
    <ConfirmRemoveDialog
      title="Cancel this invitation?"
      testId="invite"
      keepLabel="Keep invitation"
      confirmLabel="Cancel invitation"
      busyLabel="Cancelling…"
      onClose={onClose}
      onConfirm={async () => {
        await api.cancelInvite(invite.id);
        onCancelled(invite);
      }}
      body={
        <p className="tm-break">
          The link sent to <strong data-testid="cancel-invite-email">{invite.email}</strong> stops working at once and its seat is free
          again. You can invite the same address again afterwards.
        </p>
      }
    />
  );
}
