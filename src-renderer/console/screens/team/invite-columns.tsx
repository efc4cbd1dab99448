// Columns of the pending invitations table (owners and admins see it).
import type { Role } from '../../../../src-shared/catalog';
import type { InvitationListItem } from '../../../../src-shared/contracts/team';
import { Badge } from '../../components/Badge';
import type { GridColumn } from '../../components/DataGrid';
import { formatDateTime } from '../../components/format';
import { can, ROLE_LABEL } from './team-rules';

const hidden = (text: string) => <span className="visually-hidden">{text}</span>;

export function inviteColumns(viewer: Role, onCancel: (invite: InvitationListItem) => void): GridColumn<InvitationListItem>[] {
  return [
    {
      id: 'email',
      header: 'E-mail',
      width: 'minmax(0, 1.6fr)',
      cell: (i) => <span className="cell-strong tm-email" data-testid="invite-email">{i.email}</span>,
    },
    {
      id: 'role',
      header: 'Role',
      width: '112px',
      nowrap: true,
      cell: (i) => (
        <span data-testid="invite-role" data-role={i.role}>
          <Badge tone={i.role === 'admin' ? 'warning' : 'neutral'}>{ROLE_LABEL[i.role]}</Badge>
        </span>
      ),
    },
    {
      id: 'invited-by',
      header: 'Invited by',
      width: 'minmax(0, 1.3fr)',
      cell: (i) => <span className="tm-email" data-testid="invite-by">{i.invited_by}</span>,
    },
    {
      id: 'sent',
      header: 'Sent',
      width: 'minmax(200px, 1fr)',
      nowrap: true,
      cell: (i) => <time dateTime={i.created_at} title={i.created_at}>{formatDateTime(i.created_at)}</time>,
    },
    {
      id: 'expires',
      header: 'Expires',
      width: 'minmax(200px, 1fr)',
      nowrap: true,
      cell: (i) => <time dateTime={i.expires_at} title={i.expires_at} data-testid="invite-expires">{formatDateTime(i.expires_at)}</time>,
    },
    {
      id: 'cancel',
      header: hidden('Cancel invitation'),
      width: '104px',
      nowrap: true,
      cell: (i) =>
        can.cancelInvite(viewer, i) ? (
          <button
            type="button" className="btn btn-small btn-danger-quiet" onClick={() => onCancel(i)}
            aria-label={`Cancel the invitation for ${i.email}`} data-testid="cancel-invite"
          >
            Cancel
          </button>
        ) : (
          <span className="muted tm-owner-only" title="Only the owner cancels admin invitations">Owner only</span>
        ),
    },
  ];
}
