// Columns of the members table. Each action has its own column: the grid focuses one control per
// cell. Columns of actions the viewer's role may not take are left out, not disabled.
import type { Role } from '../../../../src-shared/catalog';
import type { Member } from '../../../../src-shared/contracts/team';
import { Badge } from '../../components/Badge';
import type { GridColumn } from '../../components/DataGrid';
import { formatDate, formatDateTime } from '../../components/format';
import { can, ROLE_LABEL } from './team-rules';
import { seesCredits } from '../../../../src-shared/policy';

export interface MemberActions {
  viewer: { id: number; role: Role };
  /** The member whose role is being changed, if any. */
  changingId: number | null;
  onChangeRole: (member: Member) => void;
  /** The billing change being saved, if any: the box shows the new state until the answer. */
  billing: { id: number; to: boolean } | null;
  onSetBilling: (member: Member, billing: boolean) => void;
  onRemove: (member: Member) => void;
  /** The owner ends every console session of another person (issue 39); absent for everyone else. */
  onEndSessions?: (member: Member) => void;
}

const hidden = (text: string) => <span className="visually-hidden">{text}</span>;

export function memberColumns(a: MemberActions): GridColumn<Member>[] {
  const columns: GridColumn<Member>[] = [
    {
      id: 'name',
      header: 'Name',
      width: 'minmax(120px, 1.3fr)',
      cell: (m) => (
        <span className="tm-name">
          <span className="cell-strong" data-testid="member-name">{m.name}</span>
          {m.id === a.viewer.id ? <Badge tone="info">You</Badge> : null}
        </span>
      ),
    },
    {
      id: 'email',
      header: 'E-mail',
      width: 'minmax(168px, 1.5fr)',
      cell: (m) => <span className="tm-email" data-testid="member-email">{m.email}</span>,
    },
    {
      id: 'role',
      header: 'Role',
      width: '112px',
      nowrap: true,
      cell: (m) => (
        <span data-testid="member-role" data-role={m.role}>
          <Badge tone={m.role === 'owner' ? 'positive' : m.role === 'admin' ? 'warning' : 'neutral'}>{ROLE_LABEL[m.role]}</Badge>
        </span>
      ),
    },
    {
      id: 'joined',
      header: 'Joined',
      width: 'minmax(136px, 0.8fr)',
      nowrap: true,
      cell: (m) => <time dateTime={m.joined_at} title={m.joined_at} data-testid="member-joined">{formatDate(m.joined_at)}</time>,
    },
    {
      id: 'last-active',
      header: 'Last active',
      width: 'minmax(184px, 1fr)',
      nowrap: true,
      cell: (m) =>
        m.last_active ? (
          <time dateTime={m.last_active} title={m.last_active} data-testid="member-last-active">{formatDateTime(m.last_active)}</time>
        ) : (
          <span className="muted" data-testid="member-last-active">Not signed in yet</span>
        ),
    },
  ];

  if (can.changeRole(a.viewer.role, { role: 'member' })) {
    columns.push({
      id: 'change-role',
      header: hidden('Change role'),
      width: '152px',
      nowrap: true,
      cell: (m) => {
        if (!can.changeRole(a.viewer.role, m)) return null;
        const to = m.role === 'admin' ? 'member' : 'admin';
        return (
          <button
            type="button" className="btn btn-small" onClick={() => a.onChangeRole(m)} disabled={a.changingId === m.id}
            aria-label={`${a.changingId === m.id ? 'Changing…' : to === 'admin' ? 'Make admin' : 'Make member'}: ${m.name}`} data-testid="change-role" data-to={to}
          >
            {a.changingId === m.id ? 'Changing…' : to === 'admin' ? 'Make admin' : 'Make member'}
          </button>
        );
      },
    });
  }

  // Billing access: everyone sees who has it; only the owner changes a member's (owners and admins have it by role).
  columns.push({
    id: 'billing',
    header: 'Billing access',
    width: '136px',
    nowrap: true,
    cell: (m) => {
      if (seesCredits({ role: m.role, billing: false })) return <span className="muted" data-testid="member-billing" data-billing="true">Always</span>;
      if (!can.setBilling(a.viewer.role, m)) {
        return <span data-testid="member-billing" data-billing={String(m.billing)}>{m.billing ? 'Yes' : <span className="muted">No</span>}</span>;
      }
      return (
        <label className="tm-billing">
          <input
            type="checkbox" checked={a.billing?.id === m.id ? a.billing.to : m.billing} disabled={a.billing?.id === m.id}
            onChange={(e) => a.onSetBilling(m, e.currentTarget.checked)}
            aria-label={`Billing access for ${m.name}: sees the credits section of reports`}
            data-testid="member-billing-toggle"
          />
          <span data-testid="member-billing" data-billing={String(m.billing)}>{m.billing ? 'Yes' : 'No'}</span>
        </label>
      );
    },
  });

  const onEndSessions = a.onEndSessions;
  if (onEndSessions && can.endSessions(a.viewer.role, { role: 'member' })) {
    columns.push({
      id: 'end-sessions',
      header: hidden('Sessions'),
      width: '128px',
      nowrap: true,
      cell: (m) =>
        can.endSessions(a.viewer.role, m) && m.id !== a.viewer.id ? (
          <button
            type="button" className="btn btn-small" onClick={() => onEndSessions(m)}
            aria-label={`Sign ${m.name} out everywhere`} data-testid="end-member-sessions"
          >
            Sign out
          </button>
        ) : null,
    });
  }

  if (can.remove(a.viewer.role, { role: 'member' })) {
    columns.push({
      id: 'remove',
      header: hidden('Remove'),
      width: '104px',
      nowrap: true,
      cell: (m) =>
        can.remove(a.viewer.role, m) && m.id !== a.viewer.id ? (
          <button
            type="button" className="btn btn-small btn-danger-quiet" onClick={() => a.onRemove(m)}
            aria-label={`Remove ${m.name} from the team`} data-testid="remove-member"
          >
            Remove
          </button>
        ) : null,
    });
  }
  return columns;
}
