// The App schemes field's rules: typing, and refusals in words by the shared contract.
import { describe, expect, it } from 'vitest';
import { checkSchemes, refusalText, schemesOf } from './app-schemes';

describe('the app schemes field', () => {
  it('reads schemes separated by commas or spaces, a trailing colon or :// taken off', () => {
    expect(schemesOf(' myapp, com.example.app://  other:\n')).toEqual(['myapp', 'com.example.app', 'other']);
    expect(schemesOf('')).toEqual([]);
    expect(checkSchemes('myapp, com.example.app')).toEqual({ ok: true, body: { app_schemes: ['myapp', 'com.example.app'] } });
  });

  it('names the first refused scheme and why, as the service would', () => {
    expect(checkSchemes('myapp, ms-msdt')).toMatchObject({ ok: false, error: expect.stringMatching(/^“ms-msdt” is not allowed for a redirect/) });
    expect(checkSchemes('search-ms')).toMatchObject({ ok: false, error: expect.stringContaining('“search-ms” is not allowed') });
    expect(checkSchemes('MyApp')).toMatchObject({ ok: false, error: '“MyApp” is not a scheme in lower case (a letter, then letters, digits, +, - or .).' });
    expect(checkSchemes('myapp myapp')).toMatchObject({ ok: false, error: 'Give each scheme once.' });
    expect(checkSchemes(Array.from({ length: 11 }, (_, i) => `app${i}`).join(','))).toMatchObject({ ok: false, error: 'Register at most 10 schemes.' });
    expect(refusalText(['x1', 'javascript'], [{ field: 'app_schemes.1', issue: 'forbidden_scheme' }])).toMatch(/^“javascript” is not allowed/);
  });
});
