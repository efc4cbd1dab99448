// The one policy: every route's role set and every screen's question come from it, so these
// cases pin the answers people rely on (docs/roles.md states them in full, and its tests check
// the service against every cell).
import { describe, expect, it } from 'vitest';
import { PLANS, PRODUCTS, ROLES } from './catalog';
import { may, planAllows, planIncludes, planNames, plansIncluding, POLICY, rolesFor, seesCredits, team, teamOverLimit } from './policy';

describe('may', () => {
  it('the plan and people\'s roles and billing are the owner\'s; the organisation\'s tools are the admins\' too', () => {
    expect(ROLES.filter((r) => may(r, 'plan.change'))).toEqual(['owner']);
    expect(ROLES.filter((r) => may(r, 'team.change_role'))).toEqual(['owner']);
    expect(ROLES.filter((r) => may(r, 'team.set_billing'))).toEqual(['owner']);
    for (const act of ['settings.manage', 'lists.manage', 'audit.read', 'webhooks.manage', 'hosted.manage', 'age_gate.manage', 'keys.manage_all', 'review.approve'] as const) {
      expect(ROLES.filter((r) => may(r, act)), act).toEqual(['owner', 'admin']);
    }
    expect(ROLES.filter((r) => may(r, 'console.use'))).toEqual([...ROLES]);
  });

  it('no role, no act; rolesFor is the same table', () => {
    for (const act of Object.keys(POLICY) as (keyof typeof POLICY)[]) {
      expect(may(undefined, act)).toBe(false);
      expect(may(null, act)).toBe(false);
      expect(ROLES.filter((r) => may(r, act))).toEqual(rolesFor(act));
    }
  });
});

describe('seesCredits: "owner, admin or billing role" (account spec)', () => {
  it('owners and admins by role, a member only with billing access', () => {
    expect(seesCredits({ role: 'owner', billing: false })).toBe(true);
    expect(seesCredits({ role: 'admin', billing: 0 })).toBe(true);
    expect(seesCredits({ role: 'member', billing: false })).toBe(false);
    expect(seesCredits({ role: 'member', billing: 0 })).toBe(false);
    expect(seesCredits({ role: 'member', billing: true })).toBe(true);
    expect(seesCredits({ role: 'member', billing: 1 })).toBe(true);
  });
});

describe('team rules', () => {
  it('an admin acts only on member-level people and invitations; nobody removes the owner or changes the owner\'s role', () => {
    expect(team.invite('admin', 'member')).toBe(true);
    expect(team.invite('admin', 'admin')).toBe(false);
    expect(team.invite('owner', 'admin')).toBe(true);
    expect(team.remove('admin', { role: 'member' })).toBe(true);
    expect(team.remove('admin', { role: 'admin' })).toBe(false);
    expect(team.remove('owner', { role: 'owner' })).toBe(false);
    expect(team.changeRole('owner', { role: 'owner' })).toBe(false);
    expect(team.changeRole('owner', { role: 'admin' })).toBe(true);
    expect(team.setBilling('owner', { role: 'member' })).toBe(true);
    expect(team.setBilling('owner', { role: 'admin' })).toBe(false);
    expect(team.setBilling('admin', { role: 'member' })).toBe(false);
  });
});

describe('planIncludes: what each plan includes', () => {
  it('every plan has liveness, age and identity; compliance is Pro and Enterprise only (spec)', () => {
    for (const plan of PLANS) {
      for (const product of ['human', 'age', 'identity'] as const) expect(planIncludes(plan, product)).toBe(true);
    }
    expect(plansIncluding('compliance')).toEqual(['pro', 'enterprise']);
    expect(planNames('compliance')).toBe('Pro or Enterprise');
    expect(planNames('compliance', 'and')).toBe('Pro and Enterprise');
  });

  it('advanced reports and exports from Growth up; age keys below Growth run on the trial', () => {
    expect(plansIncluding('advanced_reports')).toEqual(['growth', 'pro', 'enterprise']);
    expect(plansIncluding('exports')).toEqual(['growth', 'pro', 'enterprise']);
    expect(plansIncluding('age_without_trial')).toEqual(['growth', 'pro', 'enterprise']);
  });

  it('planAllows refuses exactly what the plan does not include, with the plans that do', () => {
    for (const plan of PLANS) {
      for (const product of PRODUCTS) {
        const refused = planAllows(plan, product);
        expect(refused === null, `${plan} ${product}`).toBe(planIncludes(plan, product));
        if (refused) {
          expect(refused.code).toBe('plan_restriction');
          expect(refused.message).toBe('The compliance product requires the Pro or Enterprise plan');
        }
      }
    }
  });
});

describe('teamOverLimit: members and pending invitations against the plan\'s team size', () => {
  it('a team fits up to its plan\'s size and is over it by one more; Enterprise has no size', () => {
    expect(teamOverLimit('free', 1)).toBeNull();
    expect(teamOverLimit('free', 2)).toBe(1);
    expect(teamOverLimit('starter', 3)).toBeNull();
    expect(teamOverLimit('starter', 4)).toBe(3);
    expect(teamOverLimit('enterprise', 10_000)).toBeNull();
  });
});
