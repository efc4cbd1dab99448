// The shell's pure guards: what counts as the service, what may leave the app, and what the
// renderer may ask the save dialog for. (The Electron-bound parts run only in the _electron e2e.)
import { describe, expect, it } from 'vitest';
import { BridgeArgumentError, parseExternalUrl, parseSaveFileRequest, sanitizeFileName } from './bridge-validation';
import { isExternalWebUrl, loopbackOrigin } from './url-rules';

describe('url rules', () => {
  it('trusts only http://127.0.0.1:PORT as the service', () => {
    expect(loopbackOrigin('http://127.0.0.1:4310/x')).toBe('http://127.0.0.1:4310');
    for (const bad of ['http://localhost:4310', 'https://127.0.0.1:4310', 'http://127.0.0.1', 'http://u:p@127.0.0.1:1', 'http://10.0.0.1:4310', 'nonsense']) {
      expect(loopbackOrigin(bad), bad).toBeNull();
    }
  });

  it('lets only http(s) URLs without credentials out to the OS browser', () => {
    expect(isExternalWebUrl('https://example.com/a')).toBe(true);
    for (const bad of ['file:///etc/passwd', 'smb://host/share', 'javascript:alert(1)', 'https://u:p@example.com', 'ms-settings:']) {
      expect(isExternalWebUrl(bad), bad).toBe(false);
    }
  });
});

describe('save-file requests', () => {
  it('keeps a plain name and refuses paths and control characters in it', () => {
    expect(sanitizeFileName('results.csv')).toBe('results.csv');
    expect(sanitizeFileName('../../etc/passwd')).not.toContain('/');
    expect(sanitizeFileName('..')).toBe('export');
    expect(sanitizeFileName('a\u0000b')).toBe('a_b');
  });

  it('validates the whole request', () => {
    const ok = parseSaveFileRequest({ defaultName: 'r.csv', content: 'a,b', filters: [{ name: 'CSV', extensions: ['csv'] }] });
    expect(ok).toMatchObject({ defaultName: 'r.csv', content: 'a,b' });
    expect(() => parseSaveFileRequest({ defaultName: 'r.csv', content: 42 })).toThrow(BridgeArgumentError);
    expect(() => parseSaveFileRequest({ defaultName: 'r.csv', content: '', filters: [{ name: 'x', extensions: ['../exe'] }] })).toThrow(BridgeArgumentError);
    expect(() => parseSaveFileRequest('nope')).toThrow(BridgeArgumentError);
  });

  it('refuses non-web URLs for openExternal', () => {
    expect(parseExternalUrl('https://example.com')).toBe('https://example.com/');
    expect(() => parseExternalUrl('file:///c:/windows/system32/calc.exe')).toThrow(BridgeArgumentError);
  });
});
