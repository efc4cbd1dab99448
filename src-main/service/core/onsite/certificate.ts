// The TLS certificates of the service's network listeners, the on-site server and the team server:
// self-signed, made on first use (a phone's camera needs a secure context, so the LAN page must be
// HTTPS; a team's consoles send passwords and subject data), kept in the data directory (0600)
// and reused while it names the address the server binds and has more than 30 days left. The key
// is RSA 2048 from Node's crypto; node-forge writes the certificate. Its SHA-256 fingerprint is
// shown in the console so a device can be told to trust exactly this certificate. A team server
// may use the organisation's own certificate and key instead (ownCertificate).
import { createHash, createPrivateKey, generateKeyPair, randomBytes, X509Certificate, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import type * as ForgeModule from 'node-forge';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { DAY_MS } from '../../../../src-shared/dates';

/** node-forge is required when a certificate is made, not when the service starts (a quarter second of CPU). */
const load = createRequire(import.meta.url);

export interface ServerCertificate {
  cert: string;
  key: string;
  /** SHA-256 of the DER certificate, upper-case hex pairs joined by colons (as browsers show it). */
  fingerprint: string;
  notAfter: string;
}

const VALID_DAYS = 825;
const RENEW_BEFORE_MS = 30 * DAY_MS;

export function fingerprintOf(pem: string): string {
  const der = new X509Certificate(pem).raw;
  return createHash('sha256').update(der).digest('hex').toUpperCase().match(/../g)!.join(':');
}

function covers(pem: string, host: string, now: number): boolean {
  const x = new X509Certificate(pem);
  if (Date.parse(x.validTo) - now < RENEW_BEFORE_MS) return false;
  const names = (x.subjectAltName ?? '').split(/,\s*/);
  return names.includes(isIP(host) ? `IP Address:${host}` : `DNS:${host}`);
}

const newKeyPair = promisify(generateKeyPair);

/** The key is made on libuv's thread pool (not on the HTTP thread); signing is a few milliseconds. */
async function make(hosts: string[], now: number, commonName: string): Promise<{ cert: string; key: string }> {
  const { privateKey, publicKey } = await newKeyPair('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const forge = load('node-forge') as typeof ForgeModule;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  // A positive serial: 16 random bytes with the top bit cleared.
  const serial = randomBytes(16);
  serial[0]! &= 0x7f;
  cert.serialNumber = serial.toString('hex');
  cert.validity.notBefore = new Date(now - 60_000);
  cert.validity.notAfter = new Date(now + VALID_DAYS * DAY_MS);
  const subject = [{ name: 'commonName', value: commonName }, { name: 'organizationName', value: 'Compliance Console' }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: hosts.map((h) => (isIP(h) ? { type: 7, ip: h } : { type: 2, value: h })) },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: keyPem };
}

/** Which listener a certificate is for: its files' names in the data directory and its subject. */
export interface CertificateUse {
  /** File names: `<stem>-cert.pem`, `<stem>-key.pem`. */
  stem: 'onsite' | 'team';
  commonName: string;
}

export const ONSITE_CERTIFICATE: CertificateUse = { stem: 'onsite', commonName: 'Compliance Console on-site' };
export const TEAM_CERTIFICATE: CertificateUse = { stem: 'team', commonName: 'Compliance Console team server' };

/** The certificate for `host` in `dir`: the kept one when it still serves, else a new one (kept). */
export async function ensureCertificate(dir: string, host: string, now = Date.now(), use: CertificateUse = ONSITE_CERTIFICATE): Promise<ServerCertificate> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const certFile = join(dir, `${use.stem}-cert.pem`);
  const keyFile = join(dir, `${use.stem}-key.pem`);
  let pair: { cert: string; key: string } | null = null;
  if (existsSync(certFile) && existsSync(keyFile)) {
    const kept = { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
    try {
      if (covers(kept.cert, host, now)) pair = kept;
    } catch {
      // Unreadable: replaced below.
    }
  }
  if (!pair) {
    pair = await make([...new Set([host, '127.0.0.1', 'localhost'])], now, use.commonName);
    writeFileSync(keyFile, pair.key, { mode: 0o600 });
    writeFileSync(certFile, pair.cert, { mode: 0o600 });
  }
  return described(pair);
}

function described(pair: { cert: string; key: string }): ServerCertificate {
  return { ...pair, fingerprint: fingerprintOf(pair.cert), notAfter: new Date(new X509Certificate(pair.cert).validTo).toISOString() };
}

/**
 * The organisation's own certificate (PEM, the server's first, any chain after it) and key, as
 * given: refused with a sentence saying why when either cannot be read, the key is not the
 * certificate's, or the certificate is not yet or no longer valid. (It is used as it is, never
 * renewed; whether it names the address is the organisation's choice: clients may use a DNS name.)
 */
export function ownCertificate(cert: string, key: string, now = Date.now()): ServerCertificate {
  let x: X509Certificate;
  try {
    x = new X509Certificate(cert);
  } catch {
    throw new Error('the certificate file is not a PEM certificate');
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    throw new Error('the key file is not a PEM private key (an encrypted key must be decrypted first)');
  }
  if (!x.checkPrivateKey(privateKey)) throw new Error('the key is not the certificate\'s key');
  if (Date.parse(x.validFrom) > now) throw new Error(`the certificate is not valid before ${new Date(x.validFrom).toISOString()}`);
  if (Date.parse(x.validTo) <= now) throw new Error(`the certificate expired on ${new Date(x.validTo).toISOString()}`);
  return described({ cert, key });
}
