// Team: the members with their roles and the plan's seats; owners and admins invite (the link is
// shown once), see and cancel pending invitations and remove members; the owner changes roles.
// Each role sees only what it may do (team-rules.ts, checked against docs/roles.md); the service
// refuses the rest anyway.
import { useEffect, useMemo, useState } from 'react';
import type { CreatedInvitation, InvitationListItem, Member } from '../../../../src-shared/contracts/team';
import { api, errorText } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { href } from '../../app/router';
import { Alert } from '../../components/Alert';
import { DataGrid } from '../../components/DataGrid';
import { LoadError } from '../../components/LoadError';
import { ScreenHeader } from '../../components/ScreenHeader';
import { useSession } from '../../stores/session';
import { CancelInviteDialog } from './CancelInviteDialog';
import { InvitationLinkDialog } from './InvitationLinkDialog';
import { InviteDialog } from './InviteDialog';
import { inviteColumns } from './invite-columns';
import { memberColumns } from './member-columns';
import { RemoveMemberDialog } from './RemoveMemberDialog';
import { TeamActivityPanel } from './TeamActivityPanel';
import { can, removalNotice, ROLE_LABEL, seatSummary } from './team-rules';
import './team.css';
import { may } from '../../../../src-shared/policy';

type Open =
  | { kind: 'none' }
  | { kind: 'invite' }
  | { kind: 'created'; created: CreatedInvitation }
  | { kind: 'remove'; member: Member }
  | { kind: 'cancel'; invite: InvitationListItem };

type Notice = { tone: 'success' | 'error'; text: string; keysLink?: boolean };

export function TeamScreen() {
  const session = useSession((s) => s.session);
  const joined = useSession((s) => s.joined);
  const dismissJoined = useSession((s) => s.dismissJoined);
  const viewer = { id: session?.user.id ?? 0, role: session?.user.role ?? 'member' };
  const managesInvites = can.listInvites(viewer.role);
  const canInvite = can.invite(viewer.role, 'member');

  const members = useResource((signal) => api.teamMembers(signal), []);
  const invites = useResource((signal) => (managesInvites ? api.teamInvites(signal) : Promise.resolve(null)), [managesInvites]);
  const [activityPage, setActivityPage] = useState(1);
  const activity = useResource((signal) => api.teamActivity(activityPage, signal), [activityPage]);
  const [open, setOpen] = useState<Open>({ kind: 'none' });
  const [notice, setNotice] = useState<Notice | null>(null);
  const [changingId, setChangingId] = useState<number | null>(null);
  const [billing, setBillingChange] = useState<{ id: number; to: boolean } | null>(null);

  // The welcome after accepting an invitation is said once.
  useEffect(() => () => dismissJoined(), [dismissJoined]);

  const reloadInvites = invites.reload;
  const reloadActivity = activity.reload;
  // Every change the screen makes is team activity too.
  const reloadMembers = () => {
    members.reload();
    reloadActivity();
  };
  const reload = () => {
    reloadMembers();
    reloadInvites();
  };

  const endSessions = async (member: Member) => {
    setNotice(null);
    try {
      const r = await api.endMemberSessions(member.id);
      setNotice({
        tone: 'success',
        text: r.sessions_ended > 0
          ? `${member.name} is signed out everywhere (${r.message}). They sign in again to go on; their keys keep working.`
          : `${member.name} had no open session.`,
      });
      reloadActivity();
    } catch (e) {
      setNotice({ tone: 'error', text: `Could not sign ${member.name} out: ${errorText(e)}` });
    }
  };

  const changeRole = async (member: Member) => {
    const to = member.role === 'admin' ? 'member' : 'admin';
    setChangingId(member.id);
    setNotice(null);
    try {
      const r = await api.changeRole(member.id, to);
      setNotice({ tone: 'success', text: `${member.name} is now ${r.member.role === 'admin' ? 'an admin' : 'a member'}. The new role applies to their next request.` });
      reloadMembers();
    } catch (e) {
      setNotice({ tone: 'error', text: `Could not change the role of ${member.name}: ${errorText(e)}` });
    } finally {
      setChangingId(null);
    }
  };

  const setBilling = async (member: Member, billing: boolean) => {
    setBillingChange({ id: member.id, to: billing });
    setNotice(null);
    try {
      await api.setBilling(member.id, billing);
      setNotice({
        tone: 'success',
        text: billing
          ? `${member.name} now has billing access: the credits section of the reports shows for them.`
          : `${member.name} no longer has billing access.`,
      });
      // The box keeps the new state until the reloaded list carries it (no flicker back).
      reloadMembers();
    } catch (e) {
      setNotice({ tone: 'error', text: `Could not change the billing access of ${member.name}: ${errorText(e)}` });
      setBillingChange(null);
    }
  };
  useEffect(() => setBillingChange(null), [members.data]);

  const columns = useMemo(
    () =>
      memberColumns({
        viewer,
        changingId,
        onChangeRole: (m) => void changeRole(m),
        billing,
        onSetBilling: (m, on) => void setBilling(m, on),
        onRemove: (m) => setOpen({ kind: 'remove', member: m }),
        onEndSessions: (m) => void endSessions(m),
      }),
    // changeRole and setBilling only use setters, their arguments and the reload function.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [viewer.id, viewer.role, changingId, billing],
  );
  const invitationColumns = useMemo(() => inviteColumns(viewer.role, (i) => setOpen({ kind: 'cancel', invite: i })), [viewer.role]);

  const list = members.data?.members ?? [];
  const pending = managesInvites ? (invites.data?.total ?? null) : null;
  const seats = members.data ? seatSummary(members.data.total, pending, members.data.limit) : null;
  const openInvite = () => setOpen({ kind: 'invite' });

  return (
    <>
      <ScreenHeader
        title="Team"
        summary="The people of your organization, their roles and the invitations still open. Each person signs in with their own account."
        actions={
          canInvite ? (
            <button type="button" className="btn btn-primary" onClick={openInvite} data-testid="invite-member">
              Invite member
            </button>
          ) : null
        }
      />

      {joined ? (
        <Alert tone="success" testId="team-joined">
          Welcome to {joined.organization}. You joined as {joined.role === 'admin' ? 'an admin' : 'a member'}.
        </Alert>
      ) : null}
      {canInvite ? null : (
        <Alert tone="info" testId="team-read-only">
          You can see who is on the team. Owners and admins invite and remove members; the owner changes roles.
        </Alert>
      )}
      {notice ? (
        <Alert tone={notice.tone} testId="team-notice">
          {notice.text}
          {notice.keysLink ? (
            <>
              {' '}
              <a href={href('keys')} data-testid="team-notice-keys">
                Go to API keys
              </a>
            </>
          ) : null}
        </Alert>
      ) : null}
      <LoadError testId="team-error" title="Could not load the team." error={members.error} onRetry={members.reload} />

      <section className="panel" aria-labelledby="members-heading" aria-busy={members.loading}>
        <div className="panel-header">
          <h2 id="members-heading">Members</h2>
          <span className={`muted${seats?.full ? ' tm-full' : ''}`} data-testid="team-seats">
            {seats ? seats.text : members.loading ? 'Loading…' : ''}
          </span>
        </div>
        {seats?.full && canInvite ? (
          <Alert tone="warning" testId="team-full-note">
            Every seat is taken.{' '}
            {may(viewer.role, 'plan.change') ? <a href={href('plan')}>Change the plan</a> : 'The owner can change the plan'} or cancel a pending
            invitation to invite someone else.
          </Alert>
        ) : null}
        <DataGrid
          label="Team members"
          rows={list}
          columns={columns}
          getRowKey={(m) => m.id}
          testId="members-table"
          rowTestId="member-row"
          empty={members.loading && !members.data ? 'Loading members…' : 'No members.'}
        />
      </section>

      {managesInvites ? (
        <section className="panel" aria-labelledby="invites-heading" aria-busy={invites.loading}>
          <div className="panel-header">
            <h2 id="invites-heading">Pending invitations</h2>
            <span className="muted" data-testid="invites-count">
              {invites.data ? `${invites.data.total} pending · valid 7 days` : invites.loading ? 'Loading…' : ''}
            </span>
          </div>
          <LoadError testId="invites-error" title="Could not load the invitations." error={invites.error} onRetry={invites.reload} />
          <DataGrid
            label="Pending invitations"
            rows={invites.data?.invites ?? []}
            columns={invitationColumns}
            getRowKey={(i) => i.id}
            testId="invites-table"
            rowTestId="invite-row"
            empty={
              invites.loading && !invites.data ? (
                'Loading invitations…'
              ) : (
                <>
                  No pending invitations.{' '}
                  <button type="button" className="link-button" onClick={openInvite}>
                    Invite someone
                  </button>
                  {' '}to give them their own sign-in.
                </>
              )
            }
          />
        </section>
      ) : null}

      <TeamActivityPanel
        data={activity.data ?? null}
        loading={activity.loading}
        error={activity.error}
        onRetry={reloadActivity}
        onPage={setActivityPage}
      />

      {open.kind === 'invite' ? (
        <InviteDialog
          viewer={viewer.role}
          onClose={() => setOpen({ kind: 'none' })}
          onCreated={(created) => {
            setNotice(null);
            reloadInvites();
            reloadActivity();
            setOpen({ kind: 'created', created });
          }}
        />
      ) : null}
      {open.kind === 'created' ? <InvitationLinkDialog created={open.created} onClose={() => setOpen({ kind: 'none' })} /> : null}
      {open.kind === 'remove' ? (
        <RemoveMemberDialog
          member={open.member}
          onClose={() => setOpen({ kind: 'none' })}
          onRemoved={(member, removed) => {
            setOpen({ kind: 'none' });
            setNotice({ tone: 'success', text: removalNotice(member.name, removed.active_api_keys), keysLink: removed.active_api_keys > 0 });
            reload();
          }}
        />
      ) : null}
      {open.kind === 'cancel' ? (
        <CancelInviteDialog
          invite={open.invite}
          onClose={() => setOpen({ kind: 'none' })}
          onCancelled={(invite) => {
            setOpen({ kind: 'none' });
            setNotice({ tone: 'success', text: `The invitation for ${invite.email} (${ROLE_LABEL[invite.role].toLowerCase()}) was cancelled. Its link no longer works.` });
            reloadInvites();
            reloadActivity();
          }}
        />
      ) : null}
    </>
  );
}
