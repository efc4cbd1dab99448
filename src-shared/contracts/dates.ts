// The contract's date fields: zod wrappers of the rules in src-shared/dates.ts (the rules live
// there, with no zod, so the widget and the hosted page check a date the same way without it).
// Three schemas because three rules differ on purpose; each keeps the YYYY-MM-DD pattern the
// OpenAPI document prints; a value not of that form gets that one issue (the day is not then read).
import { z } from 'zod';
import { birthDateProblem, ISO_DATE, isIsoDate, todayUtc } from '../dates';

/** YYYY-MM-DD naming a real calendar day. The age routes then decide whether the age it gives is possible. */
export const IsoDate = z.string().regex(ISO_DATE, { abort: true }).refine(isIsoDate);

/**
 * A screening subject's date of birth: a real day from 1900-01-01 to today (UTC). Screening
 * compares it with listed dates, so a date no one can be born on is refused before it is compared.
 */
export const BirthDate = z.string().regex(ISO_DATE, { abort: true }).refine((s) => birthDateProblem(s, todayUtc()) === null);

/**
 * The YYYY-MM-DD form only. The hosted page's date of birth: its route reads the day itself and
 * answers a date that is no day, or an age below 0 or above 150, as `out_of_range`.
 */
export const IsoDateForm = z.string().regex(ISO_DATE);
