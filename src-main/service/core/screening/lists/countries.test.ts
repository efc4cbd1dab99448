import { describe, expect, it } from 'vitest';
import { isCountryCode, toCountryCode } from './countries';

describe('toCountryCode', () => {
  it('reads OFAC spellings, inverted or not', () => {
    expect(toCountryCode('Korea, North')).toBe('KP');
    expect(toCountryCode('Korea, South')).toBe('KR');
    expect(toCountryCode('Burma')).toBe('MM');
    expect(toCountryCode('Congo, Democratic Republic of the')).toBe('CD');
    expect(toCountryCode('Congo, Republic of the')).toBe('CG');
    expect(toCountryCode('Man, Isle of')).toBe('IM');
    expect(toCountryCode('Virgin Islands, British')).toBe('VG');
    expect(toCountryCode('Bahamas, The')).toBe('BS');
    expect(toCountryCode('The Gambia')).toBe('GM');
    expect(toCountryCode('St. Kitts & Nevis')).toBe('KN');
    expect(toCountryCode('Palestinian')).toBe('PS');
    expect(toCountryCode('Region: Crimea')).toBe('UA');
  });

  it('reads UN spellings', () => {
    expect(toCountryCode("Democratic People's Republic of Korea")).toBe('KP');
    expect(toCountryCode('Democratic Republic of the Congo')).toBe('CD');
    expect(toCountryCode('Iran (Islamic Republic of)')).toBe('IR');
    expect(toCountryCode('United Kingdom of Great Britain and Northern Ireland')).toBe('GB');
    expect(toCountryCode('Türkiye')).toBe('TR');
    expect(toCountryCode('Syrian Arab Republic')).toBe('SY');
    expect(toCountryCode('Congo')).toBe('CG');
  });

  it('reads codes as codes and leaves non-countries out', () => {
    expect(toCountryCode('ru')).toBe('RU');
    expect(toCountryCode('XK')).toBe('XK');
    expect(toCountryCode('NM')).toBeUndefined();
    expect(toCountryCode('undetermined')).toBeUndefined();
    expect(toCountryCode('Region: Jammu and Kashmir')).toBeUndefined();
    expect(toCountryCode('former Soviet Union')).toBeUndefined();
    expect(toCountryCode('')).toBeUndefined();
    expect(isCountryCode('DE')).toBe(true);
  });

  it('does not confuse neighbours that share words', () => {
    expect(toCountryCode('Niger')).toBe('NE');
    expect(toCountryCode('Nigeria')).toBe('NG');
    expect(toCountryCode('Sudan')).toBe('SD');
    expect(toCountryCode('South Sudan')).toBe('SS');
    expect(toCountryCode('Guinea')).toBe('GN');
    expect(toCountryCode('Equatorial Guinea')).toBe('GQ');
    expect(toCountryCode('Dominica')).toBe('DM');
    expect(toCountryCode('Dominican Republic')).toBe('DO');
  });
});
