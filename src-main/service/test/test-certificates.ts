// Self-signed certificates for tests of HTTPS listeners and the clients that check them: any names
// (IP addresses or DNS names), any validity window, each with its own RSA key.
import { generateKeyPairSync } from 'node:crypto';
import { isIP } from 'node:net';
import { createRequire } from 'node:module';
import type * as ForgeModule from 'node-forge';

const forge = createRequire(import.meta.url)('node-forge') as typeof ForgeModule;

/** A certificate naming `names` (the first is also its common name), signed by its own key, valid between the two dates. */
export function selfSignedCertificate(names: readonly string[], from: Date, to: Date): { cert: string; key: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const c = forge.pki.createCertificate();
  c.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  c.serialNumber = '01';
  c.validity.notBefore = from;
  c.validity.notAfter = to;
  const subject = [{ name: 'commonName', value: names[0] ?? 'test' }];
  c.setSubject(subject);
  c.setIssuer(subject);
  c.setExtensions([{ name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })) }]);
  const key = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  c.sign(forge.pki.privateKeyFromPem(key), forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(c), key };
}
