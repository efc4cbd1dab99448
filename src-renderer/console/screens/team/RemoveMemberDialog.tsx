import type { Member, RemovedMember } from '../../../../src-shared/contracts/team';
import { api } from '../../api/client';
import { ConfirmRemoveDialog } from '../../components/ConfirmRemoveDialog';
import { ROLE_LABEL } from './team-rules';

interface RemoveMemberDialogProps {
  member: Member;
  onClose: () => void;
  onRemoved: (member: Member, removed: RemovedMember) => void;
}

export function RemoveMemberDialog({ member, onClose, onRemoved }: RemoveMemberDialogProps) {
  return (
    <ConfirmRemoveDialog
      title="Remove this member?"
      testId="member"
      keepLabel="Keep member"
      confirmLabel="Remove member"
      onClose={onClose}
      onConfirm={async () => onRemoved(member, await api.removeMember(member.id))}
      body={
        <>
          <p className="tm-break">
            <strong data-testid="remove-member-name">{member.name}</strong> ({member.email}, {ROLE_LABEL[member.role].toLowerCase()}) is
            signed out at once and can no longer sign in to this organization.
          </p>
          <p className="muted">
            API keys they created keep working until you revoke them. What they did stays in the audit log. You can invite them again later.
          </p>
        </>
      }
    />
  );
}
