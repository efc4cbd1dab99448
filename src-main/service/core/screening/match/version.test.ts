import { describe, expect, it } from 'vitest';
import { NAME_VARIANTS } from './tables';
import { MATCHER_INPUTS, MATCHER_RELEASE, MATCHER_VERSION, matcherVersion } from './version';
import { PARAMS } from './params';

describe('MATCHER_VERSION', () => {
  it('is the release plus a hash of the matching data, stable from run to run', () => {
    expect(MATCHER_VERSION).toMatch(/^\d+\.\d+\.\d+\+[0-9a-f]{12}$/);
    expect(MATCHER_VERSION.startsWith(`${MATCHER_RELEASE}+`)).toBe(true);
    expect(matcherVersion()).toBe(MATCHER_VERSION);
    expect(matcherVersion({ ...MATCHER_INPUTS, params: structuredClone(PARAMS) })).toBe(MATCHER_VERSION);
  });

  it('changes when any PARAMS value changes, nested ones included', () => {
    expect(matcherVersion({ ...MATCHER_INPUTS, params: { ...PARAMS, conflict: PARAMS.conflict + 0.5 } })).not.toBe(MATCHER_VERSION);
    expect(matcherVersion({ ...MATCHER_INPUTS, params: { ...PARAMS, reportThreshold: 71 } })).not.toBe(MATCHER_VERSION);
    const effects = { ...PARAMS.qualifierEffects, dob_mismatch: -24 };
    expect(matcherVersion({ ...MATCHER_INPUTS, params: { ...PARAMS, qualifierEffects: effects } })).not.toBe(MATCHER_VERSION);
  });

  it('changes when a name table changes, and with the release', () => {
    const variants = [...NAME_VARIANTS, ['zzyzx', 'zyzzx']];
    expect(matcherVersion({ ...MATCHER_INPUTS, tables: { ...MATCHER_INPUTS.tables, NAME_VARIANTS: variants } })).not.toBe(MATCHER_VERSION);
    expect(matcherVersion({ ...MATCHER_INPUTS, release: '9.9.9' })).not.toBe(MATCHER_VERSION);
  });
});
