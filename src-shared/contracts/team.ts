// Team management (account spec, "Team member and invitation"; issue 13): members with roles,
// invitations by e-mail with a one-time token, team size by plan. What the spec leaves open is
// recorded in docs/decisions.md ("Team (issue 13)") and docs/roles.md.
import { z } from 'zod';
import { ROLES } from '../catalog';
import { Email, Password } from './accounts';
import { LinkReach } from './links';

/** The roles an invitation or a role change may give: ownership is never handed out here. */
export const TEAM_ROLES = ['admin', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** Invitations are valid for 7 days after creation (spec, Limits). */
export const INVITATION_DAYS = 7;

export const Member = z.object({
  /** The membership id; a user belongs to one organisation, so it is the user's id. */
  id: z.number().int(),
  user_id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  joined_at: z.string(),
  /** Null until the member first signs in. */
  last_active: z.string().nullable(),
  /** Added: may see the credits section of the V2.1 full report (owners always). */
  billing: z.boolean(),
});
export type Member = z.infer<typeof Member>;

export const MemberList = z.object({
  members: z.array(Member),
  total: z.number().int(),
  /** The plan's team size (pending invitations count toward it); null = unlimited (Enterprise). */
  limit: z.number().int().nullable(),
});
export type MemberList = z.infer<typeof MemberList>;

/** The e-mail's format is checked by the service so that a bad one gets the spec's `Invalid email format`. */
export const InviteRequest = z.object({
  email: z.string().max(320),
  role: z.enum(TEAM_ROLES),
});
export type InviteRequest = z.infer<typeof InviteRequest>;

export const Invitation = z.object({
  id: z.number().int(),
  email: z.string(),
  role: z.enum(TEAM_ROLES),
  created_at: z.string(),
  expires_at: z.string(),
});
export type Invitation = z.infer<typeof Invitation>;

export const CreatedInvitation = z.object({
  message: z.string(),
  invite: Invitation,
  /**
   * Added: the acceptance link, shown once (no e-mail is sent from a desktop install; the console
   * shows it to copy). The token is in the URL's fragment, so it never reaches a server's log or
   * a Referer header.
   */
  accept_url: z.string(),
  /** Added (issue 26): the console takes sign-ins on this computer only, so `this_computer`. */
  link_reach: LinkReach,
});
export type CreatedInvitation = z.infer<typeof CreatedInvitation>;

export const InvitationListItem = Invitation.extend({
  /** The inviter's e-mail. */
  invited_by: z.string(),
});
export type InvitationListItem = z.infer<typeof InvitationListItem>;

export const InvitationList = z.object({
  invites: z.array(InvitationListItem),
  total: z.number().int(),
});
export type InvitationList = z.infer<typeof InvitationList>;

/**
 * `token` from the acceptance link. Signed in with the invited e-mail: the token alone. Without
 * an account for the invited e-mail: also `name` and `password`, which create the account.
 */
export const AcceptInviteRequest = z.object({
  token: z.string().min(16).max(128),
  name: z.string().trim().min(1).max(120).optional(),
  password: Password.optional(),
});
export type AcceptInviteRequest = z.infer<typeof AcceptInviteRequest>;

export const AcceptedInvitation = z.object({
  message: z.string(),
  /** The organisation's name. */
  organization: z.string(),
  role: z.enum(TEAM_ROLES),
});
export type AcceptedInvitation = z.infer<typeof AcceptedInvitation>;

export const ChangeRoleRequest = z.object({ role: z.enum(TEAM_ROLES) });
export type ChangeRoleRequest = z.infer<typeof ChangeRoleRequest>;

export const ChangedRole = z.object({
  message: z.string(),
  member: z.object({ id: z.number().int(), email: z.string(), role: z.enum(ROLES) }),
});
export type ChangedRole = z.infer<typeof ChangedRole>;

/** Owner only: opens or closes the credits section of the V2.1 full report for an admin or member. */
export const SetBillingRequest = z.object({ billing: z.boolean() });
export type SetBillingRequest = z.infer<typeof SetBillingRequest>;

export const ChangedBilling = z.object({
  message: z.string(),
  member: z.object({ id: z.number().int(), email: z.string(), role: z.enum(ROLES), billing: z.boolean() }),
});
export type ChangedBilling = z.infer<typeof ChangedBilling>;

export const RemovedMember = z.object({
  message: z.string(),
  /** Added: live keys the removed member created; they stay active (see docs/decisions.md). */
  active_api_keys: z.number().int(),
});
export type RemovedMember = z.infer<typeof RemovedMember>;

/** The e-mail format rule the invite checks (same as sign-in's). */
export const InviteEmail = Email;

/**
 * Team activity (account spec, Authentication rule 6: "team members share visibility of team
 * activity"): invitations, joins, role and billing changes, removals and report exports, for
 * everyone on the team. API keys stay private and are never in it. Not shown in the spec; see
 * docs/decisions.md ("Permissions (issue 13)"). Since issue 26 also the changes to what the
 * organisation shares that everyone can already see listed: webhook endpoints, the age gate,
 * published flows and the on-site server ("A complete audit log (issue 26)").
 */
export const TEAM_ACTIVITY_KINDS = [
  'member_added', 'invitation_sent', 'invitation_cancelled', 'invitation_accepted', 'role_changed', 'billing_changed',
  'member_removed', 'export_created',
  'webhook_added', 'webhook_removed', 'webhook_secret_rotated', 'age_gate_created', 'age_gate_changed',
  'flow_published', 'flow_changed', 'flow_disabled', 'flow_enabled', 'onsite_started', 'onsite_stopped',
  'team_server_started', 'team_server_stopped',
] as const;
export type TeamActivityKind = (typeof TEAM_ACTIVITY_KINDS)[number];

export const TeamActivityQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
});

export const TeamActivityEntry = z.object({
  at: z.string(),
  kind: z.enum(TEAM_ACTIVITY_KINDS),
  /** Who did it; null when it was done on this computer's command line. */
  actor: z.object({ user_id: z.number().int(), name: z.string(), email: z.string() }).nullable(),
  /** The person it was about (the invitee's or member's e-mail), when there is one. */
  subject_email: z.string().nullable(),
  /** The export it was about, for `export_created`. */
  export: z.object({ id: z.number().int(), report_type: z.string(), format: z.string() }).nullable(),
  /** Role or flag before and after (`member` -> `admin`; billing `false` -> `true`; the age gate `off` -> `on`; the on-site server's address). */
  from: z.string().nullable(),
  to: z.string().nullable(),
  /** The webhook endpoint, age-gate store or published flow it was about, and its environment. */
  object_id: z.string().nullable().default(null),
  env: z.enum(['test', 'live']).nullable().default(null),
});
export type TeamActivityEntry = z.infer<typeof TeamActivityEntry>;

export const TeamActivity = z.object({
  entries: z.array(TeamActivityEntry),
  total: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
});
export type TeamActivity = z.infer<typeof TeamActivity>;

/** POST /api/team/members/:id/end-sessions (owner): every console session of that person ended. */
export const EndedSessions = z.object({ message: z.string(), sessions_ended: z.number().int() });
export type EndedSessions = z.infer<typeof EndedSessions>;
