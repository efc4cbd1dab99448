// Age product contracts (spec: Age init request / response). Later steps join this file.
import { z } from 'zod';
import { USE_CASES } from '../catalog';

export const US_STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA',
  'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR',
  'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'PR', 'GU', 'VI', 'AS', 'MP',
] as const;

/** States with adult-content age-verification laws (spec, informational). */
export const AV_LAW_STATES = ['UT', 'LA', 'AR', 'TX', 'MT', 'VA', 'MS', 'NC', 'KS', 'ID', 'IN', 'KY', 'NE'] as const;

export const AgeInitRequest = z
  .object({
    use_case: z.enum(USE_CASES).default('adult'),
    state_code: z.string().trim().toUpperCase().pipe(z.enum(US_STATES)).optional(),
    min_age: z.number().int().min(13).max(99).optional(),
  })
  .refine((r) => r.use_case !== 'custom' || r.min_age !== undefined, { path: ['min_age'], message: 'required' });
export type AgeInitRequest = z.input<typeof AgeInitRequest>;

export const AgeInitResponse = z.object({
  success: z.boolean(),
  use_case: z.enum(USE_CASES),
  min_age: z.number().int(),
  description: z.string(),
  strict_mode: z.boolean(),
  notes: z.string(),
});
export type AgeInitResponse = z.infer<typeof AgeInitResponse>;
