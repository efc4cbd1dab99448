// The webhook destination rule (issue 39, item 4): every spelling of a loopback, link-local,
// private, reserved or own address refused; public addresses and names taken; a host the owner
// named allowed; a name checked on what it resolves to, in the connection's own lookup.
import type { LookupAddress } from 'node:dns';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { guardedLookup, refusedHost, refusedRange, type Resolve } from './destination';

describe('refusedRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'], ['127.255.0.9', 'loopback'], ['::1', 'loopback'], ['0:0:0:0:0:0:0:1', 'loopback'],
    ['169.254.169.254', 'link_local'], ['fe80::1', 'link_local'],
    ['10.0.0.7', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.1.20', 'private'], ['100.64.0.1', 'private'], ['fd00::5', 'private'],
    ['0.0.0.0', 'unspecified'], ['::', 'unspecified'], ['224.0.0.1', 'multicast'], ['ff02::1', 'multicast'], ['255.255.255.255', 'reserved'], ['240.0.0.1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'], ['::ffff:7f00:1', 'loopback'], ['64:ff9b::a9fe:a9fe', 'link_local'], ['::ffff:10.1.2.3', 'private'],
  ])('%s is %s', (address, range) => {
    expect(refusedRange(address, new Set())).toBe(range);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '192.169.0.1', '2606:4700::1111', '::ffff:93.184.216.34'])('%s is public', (address) => {
    expect(refusedRange(address, new Set())).toBeNull();
  });

  it('this computer\'s own addresses, whatever their range', () => {
    const own = Object.values(networkInterfaces()).flat().map((a) => a!.address);
    expect(own.length).toBeGreaterThan(0);
    for (const a of own) expect(refusedRange(a), a).not.toBeNull();
    expect(refusedRange('93.184.216.34', new Set(['93.184.216.34']))).toBe('this_computer');
  });
});

describe('refusedHost (the URL as written)', () => {
  it.each([
    'http://127.0.0.1:8080/hook', 'http://2130706433/', 'http://0x7f.1/', 'http://017700000001/', 'http://127.1/', 'https://[::1]/h', 'https://[::ffff:127.0.0.1]/h',
    'http://localhost/', 'http://LOCALHOST:80/', 'https://api.localhost/h', 'https://169.254.169.254/latest/meta-data/', 'https://10.0.0.7:22/', 'https://[fd12::1]/',
  ])('refuses %s', (url) => {
    expect(refusedHost(url, [])).not.toBeNull();
  });

  it('takes public addresses and names (names are checked at delivery), and a host the owner named', () => {
    expect(refusedHost('https://93.184.216.34/h', [])).toBeNull();
    expect(refusedHost('https://hooks.example.com/h', [])).toBeNull();
    expect(refusedHost('http://127.0.0.1:8080/h', ['127.0.0.1'])).toBeNull();
    expect(refusedHost('https://[::1]/h', ['::1'])).toBeNull();
    expect(refusedHost('http://localhost/h', ['localhost'])).toBeNull();
    // Named for one host only.
    expect(refusedHost('http://127.0.0.2/h', ['127.0.0.1'])).toBe('loopback');
  });
});

describe('guardedLookup (the delivery\'s connection)', () => {
  const resolver = (table: Record<string, string[]>): Resolve => (host, cb) => {
    const list = table[host];
    if (!list) return cb(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), []);
    cb(null, list.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  const table = resolver({ 'public.example': ['93.184.216.34'], 'inside.example': ['10.0.0.5'], 'mixed.example': ['93.184.216.34', '127.0.0.1'], 'meta.example': ['169.254.169.254'] });
  const look = (host: string, allowed: string[] = []) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((done) => guardedLookup(allowed, table)(host, {}, (err, address) => done({ err, address })));

  it('connects to a name\'s public address', async () => {
    expect(await look('public.example')).toEqual({ err: null, address: '93.184.216.34' });
  });

  it('refuses a name resolving to a private, loopback or link-local address, any one of several (DNS rebinding)', async () => {
    for (const host of ['inside.example', 'mixed.example', 'meta.example']) {
      const r = await look(host);
      expect(r.err?.code, host).toBe('EDESTINATION');
      expect(r.err?.message, host).toMatch(new RegExp(`^destination refused: ${host.replace('.', '\\.')} resolves to`));
    }
  });

  it('allows the private address of a host the owner named', async () => {
    expect(await look('inside.example', ['inside.example'])).toEqual({ err: null, address: '10.0.0.5' });
  });
});
