// The product catalogue from the spec: plans, credits, rate limits, multipliers, use cases,
// risk bands. Pure data; every side (service, console, tests) reads it from here.

export const PLANS = ['free', 'starter', 'growth', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const PRODUCTS = ['human', 'age', 'identity', 'compliance'] as const;
export type Product = (typeof PRODUCTS)[number];

export const ENVIRONMENTS = ['test', 'live'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** What a billable operation is charged for; screening is billed apart from the KYC-plus product. */
export const BILLABLE = ['human', 'age', 'identity', 'compliance', 'screen', 'rescreen'] as const;
export type Billable = (typeof BILLABLE)[number];

export const CREDITS: Record<Billable, number> = {
  human: 1,
  age: 10,
  identity: 30,
  compliance: 50,
  screen: 60,
  rescreen: 30,
};

/** Which key scope a billable operation needs. Screening endpoints need the compliance scope. */
export const SCOPE_OF: Record<Billable, Product> = {
  human: 'human',
  age: 'age',
  identity: 'identity',
  compliance: 'compliance',
  screen: 'compliance',
  rescreen: 'compliance',
};

export interface PlanInfo {
  id: Plan;
  label: string;
  verification: { rps: number; burst: number };
  read: { rps: number; burst: number };
  /** Team size including the owner; null = unlimited. Pending invitations count. */
  team_size: number | null;
  max_date_range_days: number;
  max_breakdown_items: number;
  advanced_reports: boolean;
  exports: boolean;
  compliance: boolean;
  /** Age-scoped keys on plans below Growth run on the trial. */
  age_without_trial: boolean;
}

export const PLAN_INFO: Record<Plan, PlanInfo> = {
  free: {
    id: 'free', label: 'Free',
    verification: { rps: 1, burst: 5 }, read: { rps: 10, burst: 10 },
    team_size: 1, max_date_range_days: 7, max_breakdown_items: 5,
    advanced_reports: false, exports: false, compliance: false, age_without_trial: false,
  },
  starter: {
    id: 'starter', label: 'Starter',
    verification: { rps: 2, burst: 10 }, read: { rps: 20, burst: 20 },
    team_size: 3, max_date_range_days: 30, max_breakdown_items: 10,
    advanced_reports: false, exports: false, compliance: false, age_without_trial: false,
  },
  growth: {
    id: 'growth', label: 'Growth',
    verification: { rps: 5, burst: 50 }, read: { rps: 50, burst: 100 },
    team_size: 10, max_date_range_days: 90, max_breakdown_items: 25,
    advanced_reports: true, exports: true, compliance: false, age_without_trial: true,
  },
  pro: {
    id: 'pro', label: 'Pro',
    verification: { rps: 10, burst: 100 }, read: { rps: 100, burst: 200 },
    team_size: 25, max_date_range_days: 90, max_breakdown_items: 100,
    advanced_reports: true, exports: true, compliance: true, age_without_trial: true,
  },
  enterprise: {
    id: 'enterprise', label: 'Enterprise',
    verification: { rps: 25, burst: 500 }, read: { rps: 250, burst: 1000 },
    team_size: null, max_date_range_days: 90, max_breakdown_items: 100,
    advanced_reports: true, exports: true, compliance: true, age_without_trial: true,
  },
};

/** Effective verification limit = base / multiplier (spec, Limits). */
export const PRODUCT_MULTIPLIER: Record<Product, number> = {
  human: 1.0,
  age: 1.5,
  identity: 2.0,
  compliance: 3.0,
};

/** The spec gives no numbers for the health category; see docs/decisions.md. */
export const HEALTH_LIMIT = { rps: 5, burst: 20 } as const;

export const RATE_CATEGORIES = ['verification', 'read', 'health'] as const;
export type RateCategory = (typeof RATE_CATEGORIES)[number];

export const TRIAL = { days: 30, verifications: 50 } as const;

export const USE_CASES = ['adult', 'alcohol', 'tobacco', 'cannabis', 'gambling', 'custom'] as const;
export type UseCase = (typeof USE_CASES)[number];
export const USE_CASE_MIN_AGE: Record<Exclude<UseCase, 'custom'>, number> = {
  adult: 18,
  alcohol: 21,
  tobacco: 21,
  cannabis: 21,
  gambling: 21,
};

export const RISK_BANDS = [
  { min: 0, max: 29, level: 'low', decision: 'clear' },
  { min: 30, max: 59, level: 'medium', decision: 'review' },
  { min: 60, max: 100, level: 'high', decision: 'high_risk_review' },
] as const;

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export const API_VERSION = '2.1.0';

/** Plan (as a rank) for "Growth or higher" style checks. */
export function planAtLeast(plan: Plan, min: Plan): boolean {
  return PLANS.indexOf(plan) >= PLANS.indexOf(min);
}

/** Verification-category limit for a plan and product, after the product multiplier. */
export function verificationLimit(plan: Plan, product: Product): { rps: number; burst: number } {
  const base = PLAN_INFO[plan].verification;
  const m = PRODUCT_MULTIPLIER[product];
  // A bucket needs at least one token of capacity, or the product could never be used.
  return { rps: base.rps / m, burst: Math.max(1, Math.floor(base.burst / m)) };
}
