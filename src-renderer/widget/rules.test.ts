// The widget's decisions without a DOM: what it accepts from the service (against answers the
// contract's own schemas accept), when it gates a page, and what it remembers.
import { describe, expect, it } from 'vitest';
import { AgeGatePublicConfig, AgeGateResponse, AgeGateSettings } from '../../src-shared/contracts/age-gate';
import { checkDob, dateOrder, monthNames } from './overlay';
import { applies, handleOf, list, memoryKey, memoryValue, parseAnswer, parseConfig, remembered } from './rules';
import { t } from './strings';

const config = AgeGatePublicConfig.parse({ ...AgeGateSettings.parse({ enabled: true }), store_id: 'ag_test_abcdefgh', test_mode: true });

describe('parseConfig', () => {
  it('takes what the contract accepts', () => {
    expect(parseConfig(config)).toEqual(config);
  });

  it('refuses a disabled gate, a wrong type and an unknown mode', () => {
    expect(parseConfig({ ...config, enabled: false })).toBeNull();
    expect(parseConfig({ ...config, min_age: '21' })).toBeNull();
    expect(parseConfig({ ...config, apply_to: 'everywhere' })).toBeNull();
    expect(parseConfig({ ...config, use_case: 'toString' })).toBeNull();
    expect(parseConfig({ ...config, page_handles: [1] })).toBeNull();
    expect(parseConfig(null)).toBeNull();
    expect(parseConfig([])).toBeNull();
  });
});

describe('parseAnswer', () => {
  const base = { success: true, estimated_age: null, redirect_url: null, attempts_remaining: 4, session_duration_hours: 24 };
  const answers = [
    { ...base, verified: true, verification_id: 12, mode: 'attestation', message: 'ok', reason: null, _test_mode: true },
    { ...base, verified: false, verification_id: 13, reason: 'underage', redirect_url: 'https://duckduckgo.com/' },
    { ...base, verified: false, verification_id: null, reason: 'selfie_required' },
    { ...base, verified: false, estimated_age: 17, verification_id: 'age_x', reason: 'selfie_not_conclusive' },
  ];

  it('takes every answer shape the contract accepts', () => {
    for (const a of answers) {
      expect(AgeGateResponse.safeParse(a).success).toBe(true);
      expect(parseAnswer(a)).not.toBeNull();
    }
  });

  it('refuses an error body and missing fields', () => {
    expect(parseAnswer({ error: 'Too Many Attempts', status: 'ERROR', code: 'TOO_MANY_ATTEMPTS' })).toBeNull();
    expect(parseAnswer({ ...answers[0], attempts_remaining: undefined })).toBeNull();
  });
});

describe('applies', () => {
  const page = { productTags: list(' Wine, age-restricted ,'), collectionTags: list('spirits'), handle: handleOf('/pages/Wine-Club/') };

  it('reads the page facts', () => {
    expect(page).toEqual({ productTags: ['wine', 'age-restricted'], collectionTags: ['spirits'], handle: 'wine-club' });
    expect(handleOf('/')).toBe('');
  });

  it('follows the four trigger modes', () => {
    expect(applies({ ...config, apply_to: 'all_pages' }, page)).toBe(true);
    expect(applies({ ...config, apply_to: 'product_tag', product_tag: 'Age-Restricted' }, page)).toBe(true);
    expect(applies({ ...config, apply_to: 'product_tag', product_tag: 'beer' }, page)).toBe(false);
    expect(applies({ ...config, apply_to: 'collection_tag', collection_tag: 'spirits' }, page)).toBe(true);
    expect(applies({ ...config, apply_to: 'collection_tag', collection_tag: 'age-restricted' }, page)).toBe(false);
    expect(applies({ ...config, apply_to: 'page_handles', page_handles: ['about', 'wine-club'] }, page)).toBe(true);
    expect(applies({ ...config, apply_to: 'page_handles', page_handles: ['about'] }, page)).toBe(false);
    expect(applies({ ...config, apply_to: 'page_handles', page_handles: ['about'] }, { ...page, handle: '' })).toBe(false);
  });
});

describe('memory', () => {
  it('keys by store, and by customer in profile mode only', () => {
    expect(memoryKey('ag_1', 'guest', 'c9')).toBe('cc-age-gate:ag_1');
    expect(memoryKey('ag_1', 'profile', 'c9')).toBe('cc-age-gate:ag_1:c9');
    expect(memoryKey('ag_1', 'profile', null)).toBe('cc-age-gate:ag_1');
  });

  it('holds only when it runs out, and runs out', () => {
    const v = memoryValue(24, 1_000);
    expect(JSON.parse(v)).toEqual({ until: 1_000 + 24 * 3_600_000 });
    expect(remembered(v, 2_000)).toBe(true);
    expect(remembered(v, 1_000 + 24 * 3_600_000)).toBe(false);
    expect(remembered('{"until":"later"}', 0)).toBe(false);
    expect(remembered('not json', 0)).toBe(false);
    expect(remembered(null, 0)).toBe(false);
  });
});

describe('checkDob', () => {
  const now = new Date(2026, 10, 23);
  it('makes an ISO date of three fields', () => {
    expect(checkDob('5', '3', '1990', now)).toEqual({ dob: '1990-03-05' });
    expect(checkDob('23', '11', '2026', now)).toEqual({ dob: '2026-11-23' });
  });
  it('says what is wrong', () => {
    expect(checkDob('', '3', '1990', now)).toEqual({ error: t.dobMissing });
    expect(checkDob('31', '2', '1990', now)).toEqual({ error: t.dobInvalid });
    expect(checkDob('1', '1', '90', now)).toEqual({ error: t.dobInvalid });
    expect(checkDob('1', '1', '1850', now)).toEqual({ error: t.dobInvalid });
    expect(checkDob('24', '11', '2026', now)).toEqual({ error: t.dobFuture });
  });
});

describe('the date of birth in the visitor\'s language (issue 38)', () => {
  it('asks for the parts in the order of the visitor\'s locale', () => {
    expect(dateOrder('en-US')).toEqual(['month', 'day', 'year']);
    expect(dateOrder('en-GB')).toEqual(['day', 'month', 'year']);
    expect(dateOrder('de-DE')).toEqual(['day', 'month', 'year']);
    expect(dateOrder('ja-JP')).toEqual(['year', 'month', 'day']);
  });

  it('names the months in the visitor\'s language', () => {
    expect(monthNames('en-US')).toHaveLength(12);
    expect(monthNames('en-US')[2]).toBe('March');
    expect(monthNames('fr-FR')[2]).toBe('mars');
    expect(monthNames('de-DE')[2]).toBe('März');
  });
});

