// The shell's pure guards: what counts as the service, what may leave the app, and what the
// renderer may ask the save dialog for. (The Electron-bound parts run only in the _electron e2e.)
import { describe, expect, it } from 'vitest';
import { BridgeArgumentError, parseExternalUrl, parseSaveFileRequest, sanitizeFileName } from './bridge-validation';
import { connectPageFile } from './connect-page-files';
import { consoleOrigin, isExternalWebUrl, loopbackOrigin } from './url-rules';

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

describe('the console origin and the connect page (issue 39)', () => {
  it('trusts this computer\'s service or an https team server, never anything with credentials or another scheme', () => {
    expect(consoleOrigin('http://127.0.0.1:4310')).toBe('http://127.0.0.1:4310');
    expect(consoleOrigin('https://10.0.0.5:8443/x')).toBe('https://10.0.0.5:8443');
    expect(consoleOrigin('https://team.example.lan')).toBe('https://team.example.lan');
    for (const bad of ['http://10.0.0.5:8443', 'http://localhost:4310', 'https://u:p@10.0.0.5:8443', 'file:///etc/passwd', 'console-app://connect', 'nonsense']) {
      expect(consoleOrigin(bad), bad).toBeNull();
    }
  });

  it('serves connect.html and the built assets only', () => {
    const root = '/app/out/renderer';
    expect(connectPageFile(root, '/')).toEqual({ file: '/app/out/renderer/connect.html', type: 'text/html; charset=utf-8' });
    expect(connectPageFile(root, '/assets/connect-abc.js')).toMatchObject({ file: '/app/out/renderer/assets/connect-abc.js' });
    for (const bad of ['/index.html', '/assets/../../../etc/passwd.js', '/assets/%2e%2e/%2e%2e/secret.css', '/assets/x.map', '/assets/%E0%A4%A', '/assets/a%00.js', '/connect.html/']) {
      expect(connectPageFile(root, bad), bad).toBeNull();
    }
  });
});
