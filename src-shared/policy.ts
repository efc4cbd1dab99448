// Who may do what: the one answer to "may this role do this", "does this plan include that" and
// "does this user see credits", used by the service's route guards and core rules and by the
// console's screens (which offer only what the service allows). docs/roles.md states the roles
// for people; its tests check every cell of that table against the service, and this module
// against the table. The plans' figures (limits, team sizes, ranges) are data in catalog.ts.
import { PLAN_INFO, PLANS, type Plan, type Product, type Role } from './catalog';
import { AppError } from './errors';

const EVERYONE = ['owner', 'admin', 'member'] as const satisfies readonly Role[];
const MANAGERS = ['owner', 'admin'] as const satisfies readonly Role[];
const OWNER = ['owner'] as const satisfies readonly Role[];

/**
 * The organisation-wide acts a role may take. An admin manages the organisation's tools
 * (settings, lists, keys, webhooks, hosted sessions and flows, the age gate, the audit log);
 * the plan and people's roles and billing are the owner's.
 */
export const POLICY = {
  /** Change the plan (`PATCH /api/account/plan`). */
  'plan.change': OWNER,
  /** Change settings: four-eyes, organisation details and logo, list freshness, the data directory. */
  'settings.manage': MANAGERS,
  /** Import and remove screening lists. */
  'lists.manage': MANAGERS,
  /** Read and export the audit log. */
  'audit.read': MANAGERS,
  /** Add, test, retry and remove webhooks. */
  'webhooks.manage': MANAGERS,
  /** Start and revoke hosted sessions, edit and publish hosted flows, run on-site checks. */
  'hosted.manage': MANAGERS,
  /** Configure the storefront age gate. */
  'age_gate.manage': MANAGERS,
  /** See and revoke every API key, not only one's own. */
  'keys.manage_all': MANAGERS,
  /** Cancel a report export someone else made (everyone sees and downloads the organisation's). */
  'exports.cancel_all': MANAGERS,
  /** See every open batch rescreen of the organisation and end anyone's (each analyst runs their own). */
  'batches.manage_all': MANAGERS,
  /** Approve another analyst's clearance (four-eyes). */
  'review.approve': MANAGERS,
  /** List pending team invitations. */
  'team.list_invites': MANAGERS,
  /** Invite, or cancel the invitation of, a member. */
  'team.invite_member': MANAGERS,
  /** Invite, or cancel the invitation of, an admin. */
  'team.invite_admin': OWNER,
  /** Remove a member from the team. */
  'team.remove_member': MANAGERS,
  /** Remove an admin from the team. */
  'team.remove_admin': OWNER,
  /** Change a member's or admin's role. */
  'team.change_role': OWNER,
  /** End every console session of another person (a lost laptop, a departure in progress): they must sign in again. */
  'team.end_sessions': OWNER,
  /** Give or take a member's billing access. */
  'team.set_billing': OWNER,
  /** Name the hosts on private networks webhooks may reach (an on-premises receiver): a way into the network, the owner's. */
  'webhooks.allow_private': OWNER,
  /** Start and stop the team server, which opens the console and the API to the network (issue 39). */
  'team_server.manage': OWNER,
  /** Work in the console: screen, review, verify, read reports, make one's own keys. */
  'console.use': EVERYONE,
} as const satisfies Record<string, readonly Role[]>;

export type Act = keyof typeof POLICY;

/** The roles that may take `act` (a route's `auth.roles`). */
export function rolesFor(act: Act): readonly Role[] {
  return POLICY[act];
}

/** Whether `role` may take `act`; no role (signed out) may take none. */
export function may(role: Role | null | undefined, act: Act): boolean {
  return role != null && (POLICY[act] as readonly Role[]).includes(role);
}

/**
 * Whether a user sees credits: the credit ledger, and the credits section of the V2.1 full
 * report and its exports. The account spec: "owner, admin or billing role"; a member sees them
 * when the owner gave them billing access. The balance itself is everyone's (it says whether live
 * requests will run).
 */
export function seesCredits(user: { role: Role; billing: boolean | number }): boolean {
  return user.role === 'owner' || user.role === 'admin' || user.billing === true || user.billing === 1;
}

/** Team rules about a particular person or invitation (docs/roles.md, "Roles and the team routes"). */
export const team = {
  /** Invite (or cancel an invitation) with `role`. */
  invite: (viewer: Role, role: 'admin' | 'member') => may(viewer, role === 'admin' ? 'team.invite_admin' : 'team.invite_member'),
  /** Remove `target`; the owner is never removed here (ownership is transferred). */
  remove: (viewer: Role, target: { role: Role }) =>
    target.role !== 'owner' && may(viewer, target.role === 'admin' ? 'team.remove_admin' : 'team.remove_member'),
  /** Change `target`'s role; the owner's own role is fixed here. */
  changeRole: (viewer: Role, target: { role: Role }) => target.role !== 'owner' && may(viewer, 'team.change_role'),
  /** Set `target`'s billing access: members only (owners and admins see credits by role). */
  setBilling: (viewer: Role, target: { role: Role }) => target.role === 'member' && may(viewer, 'team.set_billing'),
};

/**
 * The plan's team size when a team of `size` people (members and pending invitations, counting
 * whoever is about to be added) is more than `plan` allows; null when it fits. The one answer an
 * invitation, its acceptance, a plan change and the CLI's `members add` give.
 */
export function teamOverLimit(plan: Plan, size: number): number | null {
  const limit = PLAN_INFO[plan].team_size;
  return limit !== null && size > limit ? limit : null;
}

/** What a plan may include beyond what every plan has: the compliance product and three features. */
export type PlanFeature = 'compliance' | 'advanced_reports' | 'exports' | 'age_without_trial';

/**
 * Whether `plan` includes a product or a feature. Every plan has liveness, age and identity;
 * compliance (screening, KYC-plus) is Pro and Enterprise (spec); advanced reports and exports
 * Growth and up; age keys below Growth run on the trial.
 */
export function planIncludes(plan: Plan, what: Product | PlanFeature): boolean {
  if (what === 'human' || what === 'age' || what === 'identity') return true;
  return PLAN_INFO[plan][what];
}

/** The plans that include it, cheapest first. */
export function plansIncluding(what: Product | PlanFeature): Plan[] {
  return PLANS.filter((p) => planIncludes(p, what));
}

/** "Pro or Enterprise": the plans that include it, by label. */
export function planNames(what: Product | PlanFeature, joiner = 'or'): string {
  const labels = plansIncluding(what).map((p) => PLAN_INFO[p].label);
  return labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} ${joiner} ${labels[labels.length - 1]}`;
}

/**
 * The one plan rule for products: the error to answer when the plan does not include the product,
 * else null. Every check (route guards, keys, hosted sessions and flows) calls this.
 */
export function planAllows(plan: Plan, product: Product): AppError | null {
  if (planIncludes(plan, product)) return null;
  return new AppError('plan_restriction', { message: `The ${product} product requires the ${planNames(product)} plan` });
}
