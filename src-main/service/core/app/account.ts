// The organisation's plan and settings changed by its owner or admins in the console, or by the
// admin CLI: each change and its audit row commit together, and a change to the same value is no
// act (no row). Each use case takes only the services it uses.
import { PLAN_INFO, type Plan, type Role } from '../../../../src-shared/catalog';
import { AppError } from '../../../../src-shared/errors';
import { teamOverLimit } from '../../../../src-shared/policy';
import type { Accounts } from '../accounts/accounts';
import { hashPassword } from '../accounts/passwords';
import type { OrgRow, UserRow } from '../accounts/repo';
import type { Audit, AuditActorRef } from '../audit/audit';
import type { Q } from '../../db/engine';
import type { Clock } from '../clock';
import { nowIso } from '../ids';
import type { PublicUrlSetting } from '../public-url-repo';

/** The plan the owner recorded; refused (409) when the team is larger than the plan allows. */
export function changePlan(d: { accounts: Accounts; audit: Audit }, orgId: number, actor: AuditActorRef, plan: Plan): Promise<OrgRow> {
  return d.audit.atomically(async (tx) => {
    const r = await d.accounts.changePlan(orgId, plan, tx);
    if (r.changed) await d.audit.record({ orgId, actor, action: 'plan.changed', from: r.from, to: r.org.plan }, tx);
    return r.org;
  });
}

/** The admin CLI's override: the plan whatever the team size. */
export function overridePlan(d: { accounts: Accounts; audit: Audit }, actor: AuditActorRef, plan: Plan): Promise<OrgRow> {
  return d.audit.atomically(async (tx) => {
    const o = await d.accounts.setPlan(plan, tx);
    if (o.from !== o.plan) await d.audit.record({ orgId: o.id, actor, action: 'plan.changed', from: o.from, to: o.plan }, tx);
    return o;
  });
}

/** One organisation setting read, written, and recorded with both values when it moved; the value saved. */
export function changeSetting<T extends number | boolean>(
  d: { audit: Audit }, orgId: number, actor: AuditActorRef, setting: 'hosted_attempts' | 'require_liveness_clip', read: (tx: Q) => Promise<T>, write: (tx: Q) => Promise<T>,
): Promise<T> {
  return d.audit.atomically(async (tx) => {
    const before = await read(tx);
    const after = await write(tx);
    if (before !== after) await d.audit.record({ orgId, actor, action: 'settings.changed', setting, from: String(before), to: String(after) }, tx);
    return after;
  });
}

/** The public URL saved (null clears it). The log says whether one is saved, never the URL. */
export async function setPublicUrl(d: { publicUrlSetting: PublicUrlSetting; audit: Audit }, orgId: number, actor: AuditActorRef, userId: number, url: string | null): Promise<void> {
  await d.audit.atomically(async (tx) => {
    const before = await d.publicUrlSetting.saved(tx);
    await d.publicUrlSetting.set(url, userId, tx);
    if (before !== url) {
      await d.audit.record({
        orgId, actor, action: 'settings.changed', setting: 'public_url',
        from: before === null ? 'none' : 'set', to: url === null ? 'none' : before === null ? 'set' : 'changed',
      }, tx);
    }
  });
  d.publicUrlSetting.committed(url);
}

/**
 * The admin CLI adds a person to the team directly (no invitation), audited as `member.added`.
 * The plan's team size (pending invitations count) is checked in the transaction that adds them.
 */
export async function addMember(
  d: { accounts: Accounts; audit: Audit; clock: Clock }, org: OrgRow, actor: AuditActorRef,
  input: { email: string; name: string; password: string; role: Exclude<Role, 'owner'> },
): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
  return d.audit.atomically(async (tx) => {
    await d.accounts.repo.lockOrg(tx, org.id);
    const current = await d.accounts.repo.countTeam(tx, org.id, nowIso(d.clock.now()));
    const limit = teamOverLimit(org.plan, current + 1);
    if (limit !== null) {
      throw new AppError('team_full', {
        current, team_limit: limit,
        message: `Team limit reached: the ${PLAN_INFO[org.plan].label} plan allows ${limit} ${limit === 1 ? 'person' : 'people'}. Change the plan for more members.`,
      });
    }
    const user = await d.accounts.insertUser({ orgId: org.id, email: input.email, name: input.name, passwordHash, role: input.role }, tx);
    await d.audit.record({ orgId: org.id, actor, action: 'member.added', targetUserId: user.id, to: input.role }, tx);
    return user;
  });
}
