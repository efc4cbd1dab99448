// Report date ranges: whole UTC days, both ends included, as the service counts them (ledger
// timestamps are UTC; the day arithmetic is src-shared/dates.ts). Presets end today; the plan's
// `max_date_range_days` bounds every range.
import { PLAN_INFO, type Plan } from '../../../../src-shared/catalog';
import { addDays, daysInclusive, isIsoDate } from '../../../../src-shared/dates';

export const PRESET_DAYS = [7, 30, 90] as const;
export type PresetDays = (typeof PRESET_DAYS)[number];

export interface DayRange {
  from: string;
  to: string;
}

/** The last `days` days, today included. */
export function presetRange(days: number, today: string): DayRange {
  return { from: addDays(today, -(days - 1)), to: today };
}

/** "Your Starter plan covers up to 30 days." */
export function planLimitText(plan: Plan, maxDays: number): string {
  return `Your ${PLAN_INFO[plan].label} plan covers up to ${maxDays} days.`;
}

/** Why a preset cannot be chosen on this plan, or null when it can. */
export function presetRefusal(days: number, plan: Plan, maxDays: number): string | null {
  return days > maxDays ? planLimitText(plan, maxDays) : null;
}

/** The range a screen opens with: the last 30 days, or the whole of a shorter plan limit. */
export function defaultRange(maxDays: number, today: string): DayRange {
  return presetRange(Math.min(30, maxDays), today);
}

/** The preset a range is, if it is one (ends today and spans exactly a preset's days). */
export function presetOf(range: DayRange, today: string): PresetDays | null {
  if (range.to !== today) return null;
  return PRESET_DAYS.find((d) => daysInclusive(range.from, range.to) === d) ?? null;
}

/** What is wrong with a chosen range, said for the form; null when the service will accept it. */
export function rangeProblem(range: DayRange, plan: Plan, maxDays: number): string | null {
  if (!isIsoDate(range.from)) return 'Choose a start date.';
  if (!isIsoDate(range.to)) return 'Choose an end date.';
  if (range.from > range.to) return 'The start date is after the end date.';
  const days = daysInclusive(range.from, range.to);
  if (days > maxDays) return `That is ${days} days. Your ${PLAN_INFO[plan].label} plan covers up to ${maxDays} days; choose a shorter range.`;
  return null;
}
