// `npm run serve -- --team ADDRESS:PORT` as a team would run it (issue 39): the service inside a
// network namespace this test makes, its team server on a non-loopback address there, and this
// namespace as another desk reaching it over a real (virtual) link. The desk pins the fingerprint
// the service printed, signs in over HTTPS and gets links built on the team server's address.
// Needs root and iproute2 (CI has both); skipped, saying why, without them.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeamNetwork, unavailable, type TeamNetwork } from '../../../scripts/support/netns';
import type { CreatedInvitation } from '../../../src-shared/contracts/team';
import type { TeamServerStatus } from '../../../src-shared/contracts/team-server';
import { cli } from './cli-command';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const why = unavailable();
const OWNER = { email: 'head@example.test', password: 'head of compliance 1' };

function exited(proc: ChildProcess): Promise<number | null> {
  return proc.exitCode !== null ? Promise.resolve(proc.exitCode) : new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
}

/** scripts/serve.mjs with `args`, inside the namespace; resolves with what it printed once `until` matches it (or it exited). */
function serve(net: TeamNetwork, args: string[], until: RegExp): Promise<{ proc: ChildProcess; out: string; code: number | null }> {
  const [file, ...rest] = net.inside([process.execPath, join(ROOT, 'scripts/serve.mjs'), ...args]);
  const proc = spawn(file!, rest, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start: ${out}`)), 120_000);
    const seen = (d: Buffer) => {
      out += d.toString();
      if (until.test(out)) {
        clearTimeout(timer);
        resolve({ proc, out, code: null });
      }
    };
    proc.stdout!.on('data', seen);
    proc.stderr!.on('data', seen);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ proc, out, code });
    });
  });
}

describe.skipIf(why !== null)(`the team server on a network address${why ? ` (skipped: ${why})` : ''}`, () => {
  let net: TeamNetwork;
  let dataDir: string;
  let proc: ChildProcess | undefined;
  let url: string;
  let fingerprint: string;
  beforeAll(async () => {
    net = createTeamNetwork();
    dataDir = mkdtempSync(join(tmpdir(), 'cc-team-netns-'));
    // A server is set up on the server: the first run is never done from the network.
    const init = await cli('init', '--data-dir', dataDir, '--org', 'Desks Ltd', '--owner-email', OWNER.email, '--owner-password', OWNER.password, '--plan', 'pro');
    expect(init.status, init.stderr).toBe(0);
    const s = await serve(net, ['--data-dir', dataDir, '--port', '0', '--lazy-models', '--team', `${net.serverAddress}:8443`], /Team server listening on .*\)\n/);
    expect(s.code, s.out).toBeNull();
    proc = s.proc;
    const m = /Team server listening on (https:\/\/[\d.]+:8443) \(certificate made on this computer, SHA-256 fingerprint ([0-9A-F:]{95})\)/.exec(s.out);
    expect(m, s.out).not.toBeNull();
    url = m![1]!;
    fingerprint = m![2]!;
  }, 180_000);
  afterAll(async () => {
    if (proc) {
      proc.kill('SIGTERM');
      await exited(proc);
    }
    net?.remove();
  });

  /** HTTPS from this desk, trusting only a certificate whose SHA-256 fingerprint is the one printed. */
  function call(path: string, o: { method?: string; body?: unknown; cookie?: string } = {}): Promise<{ status: number; json: unknown; headers: Record<string, string | string[] | undefined> }> {
    const payload = o.body === undefined ? undefined : JSON.stringify(o.body);
    return new Promise((resolve, reject) => {
      const req = request(`${url}${path}`, {
        method: o.method ?? 'GET',
        // Pinned: the chain is not checked (nobody vouches for it), the fingerprint is.
        rejectUnauthorized: false,
        headers: { Origin: url, ...(o.cookie ? { Cookie: o.cookie } : {}), ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)) } : {}) },
      }, (res) => {
        const peer = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
        if (peer !== fingerprint) {
          res.destroy();
          reject(new Error(`certificate fingerprint ${peer} is not the pinned ${fingerprint}`));
          return;
        }
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d)).on('end', () => resolve({ status: res.statusCode!, json: text ? JSON.parse(text) : null, headers: res.headers }));
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  it('serves another desk over HTTPS on its network address, with the certificate whose fingerprint it printed', async () => {
    expect(url).toBe(`https://${net.serverAddress}:8443`);
    const served = await new Promise<string>((resolve, reject) => {
      const s = connect({ host: net.serverAddress, port: 8443, rejectUnauthorized: false }, () => {
        resolve(s.getPeerCertificate().fingerprint256);
        s.end();
      });
      s.on('error', reject);
    });
    expect(served).toBe(fingerprint);
    // The certificate names the address: a desk that trusts it (rather than pinning) reaches it too.
    const ca = readFileSync(join(dataDir, 'team', 'team-cert.pem'));
    const status = await new Promise<number>((resolve, reject) => {
      request(`${url}/api/health`, { ca }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      }).on('error', reject).end();
    });
    expect(status).toBe(200);
  });

  it('a colleague signs in from the other desk (Secure cookie, HSTS) and the links handed out reach the team\'s network', async () => {
    const login = await call('/api/auth/login', { method: 'POST', body: OWNER });
    expect(login.status, JSON.stringify(login.json)).toBe(200);
    const cookies = login.headers['set-cookie'] as string[];
    expect(cookies.every((c) => /; Secure/.test(c))).toBe(true);
    expect(login.headers['strict-transport-security']).toBe('max-age=31536000');
    const cookie = cookies.find((c) => c.startsWith('cc_session='))!.split(';')[0]!;

    const status = await call('/api/team-server', { cookie });
    expect(status.json).toMatchObject({ running: true, url, fingerprint, certificate: 'generated' } satisfies Partial<TeamServerStatus>);
    const invite = await call('/api/team/invite', { method: 'POST', cookie, body: { email: 'analyst@example.test', role: 'member' } });
    expect(invite.status).toBe(201);
    expect(invite.json).toMatchObject({ link_reach: 'team' } satisfies Partial<CreatedInvitation>);
    expect((invite.json as CreatedInvitation).accept_url.startsWith(`${url}/#/accept-invite?token=`)).toBe(true);
    // The audit log names the desk the sign-in came from.
    const audit = await call('/api/audit?action=session.signed_in', { cookie });
    expect((audit.json as { entries: { source_address: string | null }[] }).entries[0]!.source_address).toBe(net.deskAddress);
    // The first run is the server's own: refused from a desk.
    const setup = await call('/api/setup', { method: 'POST', body: { organization: 'X', name: 'X', email: 'x@example.test', password: 'long enough password' } });
    expect(setup.status).toBe(403);
  });

  it('an address that is not the server\'s, or a certificate file that is not one, stops the start saying why', async () => {
    const elsewhere = await serve(net, ['--data-dir', mkdtempSync(join(tmpdir(), 'cc-team-bad-')), '--port', '0', '--lazy-models', '--team', '192.0.2.10:8443'], /failed to start/);
    expect(await exited(elsewhere.proc)).toBe(1);
    expect(elsewhere.out).toContain('the team server could not start on 192.0.2.10:8443: host must be one of this computer\'s addresses');
    const badCert = await serve(net, ['--data-dir', mkdtempSync(join(tmpdir(), 'cc-team-bad-')), '--port', '0', '--team', `${net.serverAddress}:8444`, '--team-cert', join(ROOT, 'package.json'), '--team-key', join(ROOT, 'package.json')], /failed to start/);
    expect(await exited(badCert.proc)).toBe(1);
    expect(badCert.out).toContain('--team-cert/--team-key: the certificate file is not a PEM certificate');
  }, 120_000);
});
