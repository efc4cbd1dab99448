// Team management (account spec, team endpoints; issue 13). Everyone on the team sees the members;
// owners and admins invite, list and cancel invitations and remove members; only the owner changes
// roles. Accepting an invitation is open to the invitee, signed in or not (spec rule 4).
import { getCookie } from 'hono/cookie';
import {
  AcceptedInvitation, AcceptInviteRequest, ChangedBilling, ChangedRole, ChangeRoleRequest, CreatedInvitation, EndedSessions, InvitationList,
  InviteRequest, MemberList, RemovedMember, TeamActivity, TeamActivityQuery, SetBillingRequest,
} from '../../../../src-shared/contracts/team';
import { Message } from '../../../../src-shared/contracts/common';
import { AppError } from '../../../../src-shared/errors';
import { SESSION_COOKIE, sameOrigin, startSession } from '../auth';
import type { Router } from '../router';
import { seesCredits } from '../../../../src-shared/policy';

/** Path ids are integers; anything else names no member or invitation. */
function idOf(raw: string | undefined, notFound: 'member_not_found' | 'invitation_not_found'): number {
  if (!raw || !/^\d{1,12}$/.test(raw)) throw new AppError(notFound);
  return Number(raw);
}

export function teamRoutes({ route, services }: Router): void {
  const { team, accounts } = services;
  const TAGS = ['team'];

  route({
    method: 'GET', path: '/api/team/members', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The team: members, their number and the plan\'s team size (null = unlimited)',
    responses: { 200: MemberList },
    handler: async (c) => c.json<MemberList>(await team.members(c.get('session').org)),
  });

  route({
    method: 'GET', path: '/api/team/activity', auth: { kind: 'session' }, tags: TAGS,
    summary: 'Team activity for everyone on the team: invitations, joins, role and billing changes, removals, report exports (newest first; API keys stay private)',
    request: { query: TeamActivityQuery },
    responses: { 200: TeamActivity },
    handler: async (c, input) => {
      const q = input.query();
      return c.json<TeamActivity>(await services.teamActivity.page(c.get('session').org.id, q.page, q.per_page));
    },
  });

  route({
    method: 'POST', path: '/api/team/invite', auth: { kind: 'session', act: 'team.invite_member' }, tags: TAGS,
    summary: 'Invite someone by e-mail (owner or admin); the acceptance link is shown once',
    request: { body: InviteRequest },
    responses: { 201: CreatedInvitation },
    handler: async (c, input) => {
      const s = c.get('session');
      const body = await input.body();
      const { invitation: i, token } = await team.invite(s.user, s.org, body);
      services.logger.info('team_invitation_created', { invitation_id: i.id, user_id: s.user.id });
      const consoleLink = services.origin.console();
      return c.json<CreatedInvitation>({
        message: 'Invitation created. Share the acceptance link with the invitee: it is shown only now.',
        invite: { id: i.id, email: i.email, role: i.role, created_at: i.created_at, expires_at: i.expires_at },
        // In the fragment: the token never reaches a server log or a Referer header.
        // On the console's configured origin (loopback: the console signs in there only), never the request's Host.
        accept_url: `${consoleLink.origin}/#/accept-invite?token=${token}`,
        link_reach: consoleLink.link_reach,
      }, 201);
    },
  });

  route({
    method: 'POST', path: '/api/team/invite/accept', auth: { kind: 'public' }, tags: TAGS,
    summary: 'Accept an invitation: signed in with the invited e-mail, or creating the account with name and password',
    request: { body: AcceptInviteRequest, invalid: 'account_validation' },
    responses: { 200: AcceptedInvitation },
    handler: async (c, input) => {
      // A cookie may ride along: writes must come from the console's own origin.
      if (!sameOrigin(c)) throw new AppError('cross_origin');
      const body = await input.body();
      const cookie = getCookie(c, SESSION_COOKIE);
      const session = cookie ? await accounts.resolveSession(cookie) : null;
      const r = await team.accept(body, session);
      if (r.created) {
        // Immediate access (spec rule 5): the new account is signed in.
        await startSession(c, services, r.user, await accounts.sessionFor(r.user.id), 'invitation');
      }
      services.logger.info('team_invitation_accepted', { user_id: r.user.id });
      return c.json<AcceptedInvitation>({ message: 'Invitation accepted', organization: r.org.name, role: r.role });
    },
  });

  route({
    method: 'PATCH', path: '/api/team/members/:id/role', auth: { kind: 'session', act: 'team.change_role', denied: 'owners_change_roles' }, tags: TAGS,
    summary: 'Change a member\'s role to admin or member (owner only)',
    request: { body: ChangeRoleRequest },
    responses: { 200: ChangedRole },
    handler: async (c, input) => {
      const s = c.get('session');
      const id = idOf(c.req.param('id'), 'member_not_found');
      const body = await input.body();
      const { member, changed } = await team.changeRole(s.user, s.org, id, body.role);
      return c.json<ChangedRole>({
        message: changed ? 'Member role updated' : 'Member already has this role',
        member: { id: member.id, email: member.email, role: member.role },
      });
    },
  });

  route({
    method: 'PATCH', path: '/api/team/members/:id/billing', auth: { kind: 'session', act: 'team.set_billing' }, tags: TAGS,
    summary: 'Open or close the credits section of the V2.1 full report for an admin or member (owner only; owners always have it)',
    request: { body: SetBillingRequest },
    responses: { 200: ChangedBilling },
    handler: async (c, input) => {
      const s = c.get('session');
      const id = idOf(c.req.param('id'), 'member_not_found');
      const body = await input.body();
      const { member, changed } = await team.setBilling(s.user, s.org, id, body.billing);
      return c.json<ChangedBilling>({
        message: changed ? 'Billing access updated' : 'Billing access unchanged',
        member: { id: member.id, email: member.email, role: member.role, billing: seesCredits(member) },
      });
    },
  });

  route({
    method: 'DELETE', path: '/api/team/members/:id', auth: { kind: 'session', act: 'team.remove_member' }, tags: TAGS,
    summary: 'Remove a member (owner or admin; admins remove members only); their sessions end',
    responses: { 200: RemovedMember },
    handler: async (c) => {
      const s = c.get('session');
      const id = idOf(c.req.param('id'), 'member_not_found');
      const r = await team.remove(s.user, s.org, id);
      services.logger.info('team_member_removed', { target_user_id: id, user_id: s.user.id });
      return c.json<RemovedMember>({ message: 'Team member removed', active_api_keys: r.activeApiKeys });
    },
  });

  route({
    method: 'POST', path: '/api/team/members/:id/end-sessions', auth: { kind: 'session', act: 'team.end_sessions' }, tags: TAGS,
    summary: 'End every console session of another person (owner): they sign in again at their next request',
    responses: { 200: EndedSessions },
    handler: async (c) => {
      const s = c.get('session');
      const id = idOf(c.req.param('id'), 'member_not_found');
      const ended = await team.endSessions(s.user, s.org, id);
      return c.json<EndedSessions>({ message: ended === 1 ? '1 session ended' : `${ended} sessions ended`, sessions_ended: ended });
    },
  });

  route({
    method: 'GET', path: '/api/team/invites', auth: { kind: 'session', act: 'team.list_invites' }, tags: TAGS,
    summary: 'Pending invitations (owner or admin)',
    responses: { 200: InvitationList },
    handler: async (c) => c.json<InvitationList>(await team.invitations(c.get('session').org)),
  });

  route({
    method: 'DELETE', path: '/api/team/invites/:id', auth: { kind: 'session', act: 'team.invite_member' }, tags: TAGS,
    summary: 'Cancel a pending invitation (owner or admin; admin invitations: owner)',
    responses: { 200: Message },
    handler: async (c) => {
      const s = c.get('session');
      await team.cancelInvitation(s.user, s.org, idOf(c.req.param('id'), 'invitation_not_found'));
      return c.json<Message>({ message: 'Invitation cancelled' });
    },
  });
}
