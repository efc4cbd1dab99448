// Age policy: the minimum age for a use case and state, and the text the flow shows.
import { USE_CASE_MIN_AGE, type UseCase } from '../../../../src-shared/catalog';
import { AV_LAW_STATES } from '../../../../src-shared/contracts/age';

const DESCRIPTIONS: Record<UseCase, string> = {
  adult: 'Adult content: visitors must be at least the minimum age.',
  alcohol: 'Alcohol sales: buyers must be at least the minimum age.',
  tobacco: 'Tobacco and vaping products: buyers must be at least the minimum age.',
  cannabis: 'Cannabis products: buyers must be at least the minimum age.',
  gambling: 'Gambling: players must be at least the minimum age.',
  custom: 'Custom age requirement set by the merchant.',
};

export interface AgePolicy {
  use_case: UseCase;
  min_age: number;
  description: string;
  strict_mode: boolean;
  notes: string;
}

/**
 * A caller may raise a use case's minimum age but never lower it; `custom` takes the caller's
 * value. Strict mode applies to adult content in states with age-verification laws.
 */
export function agePolicy(useCase: UseCase, minAge: number | undefined, state: string | undefined): AgePolicy {
  const base = useCase === 'custom' ? (minAge ?? 18) : USE_CASE_MIN_AGE[useCase];
  const min = useCase === 'custom' ? base : Math.max(base, minAge ?? base);
  const lawState = state !== undefined && (AV_LAW_STATES as readonly string[]).includes(state);
  const strict = useCase === 'adult' && lawState;
  const notes = strict
    ? `${state} has an adult-content age-verification law: a date of birth alone is not accepted; a selfie or ID check is required.`
    : state
      ? `No state-specific adult-content age-verification law is recorded for ${state}; the use case minimum applies.`
      : 'No state given; the use case minimum applies. Age compliance data is US-focused and informational.';
  return { use_case: useCase, min_age: min, description: DESCRIPTIONS[useCase], strict_mode: strict, notes };
}
