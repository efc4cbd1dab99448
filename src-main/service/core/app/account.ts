// The organisation's plan and settings changed by its owner or admins in the console, or by the
// admin CLI: each change and its audit row commit together, and a change to the same value is no
// act (no row). Each use case takes only the services it uses.
import type { Plan } from '../../../../src-shared/catalog';
import type { Accounts } from '../accounts/accounts';
import type { OrgRow } from '../accounts/repo';
import type { Audit, AuditActorRef } from '../audit/audit';
import type { PublicUrlSetting } from '../public-url-repo';

/** The plan the owner recorded; refused (409) when the team is larger than the plan allows. */
export function changePlan(d: { accounts: Accounts; audit: Audit }, orgId: number, actor: AuditActorRef, plan: Plan): OrgRow {
  return d.audit.atomically(() => {
    const r = d.accounts.changePlan(orgId, plan);
    if (r.changed) d.audit.record({ orgId, actor, action: 'plan.changed', from: r.from, to: r.org.plan });
    return r.org;
  });
}

/** The admin CLI's override: the plan whatever the team size. */
export function overridePlan(d: { accounts: Accounts; audit: Audit }, actor: AuditActorRef, plan: Plan): OrgRow {
  return d.audit.atomically(() => {
    const o = d.accounts.setPlan(plan);
    if (o.from !== o.plan) d.audit.record({ orgId: o.id, actor, action: 'plan.changed', from: o.from, to: o.plan });
    return o;
  });
}

/** One organisation setting read, written, and recorded with both values when it moved; the value saved. */
export function changeSetting<T extends number | boolean>(
  d: { audit: Audit }, orgId: number, actor: AuditActorRef, setting: 'hosted_attempts' | 'require_liveness_clip', read: () => T, write: () => T,
): T {
  return d.audit.atomically(() => {
    const before = read();
    const after = write();
    if (before !== after) d.audit.record({ orgId, actor, action: 'settings.changed', setting, from: String(before), to: String(after) });
    return after;
  });
}

/** The public URL saved (null clears it). The log says whether one is saved, never the URL. */
export function setPublicUrl(d: { publicUrlSetting: PublicUrlSetting; audit: Audit }, orgId: number, actor: AuditActorRef, userId: number, url: string | null): void {
  d.audit.atomically(() => {
    const before = d.publicUrlSetting.get();
    d.publicUrlSetting.set(url, userId);
    if (before !== url) {
      d.audit.record({
        orgId, actor, action: 'settings.changed', setting: 'public_url',
        from: before === null ? 'none' : 'set', to: url === null ? 'none' : before === null ? 'set' : 'changed',
      });
    }
  });
}
