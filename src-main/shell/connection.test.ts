// "Connect to my team's server" (issue 39, items 2 and 6): the desktop app looks at a real team
// server over HTTPS before trusting it, pins the fingerprint it saw, refuses a changed certificate
// until the new fingerprint is confirmed as an administrator reads it, and refuses expired,
// misnamed, unreachable and not-a-console servers, each with a sentence a person can act on.
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeamServerStatus } from '../../src-shared/contracts/team-server';
import { closeAll, testService, type TestService } from '../service/test/harness';
import { selfSignedCertificate } from '../service/test/test-certificates';
import {
  connectTeamServer,
  normaliseFingerprint,
  probeTeamServer,
  readConnection,
  teamServerOrigin,
  verifyTeamCertificate,
  writeConnection,
} from './connection';

const DAY = 86_400_000;

/** An HTTPS server on 127.0.0.1 with the given certificate, answering every request with `body`. */
async function httpsServer(pair: { cert: string; key: string }, body: string, status = 200): Promise<{ url: string; server: Server }> {
  const server = createServer(pair, (_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let t: TestService;
let team: TeamServerStatus;
let dir: string;
const servers: Server[] = [];

beforeAll(async () => {
  t = await testService({ plan: 'pro', team: { host: '127.0.0.1', port: 0 } });
  const cookie = await t.login();
  team = (await t.json<TeamServerStatus>('GET', '/api/team-server', { cookie })).body;
  expect(team.running).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'cc-connect-'));
}, 60_000);

afterAll(async () => {
  for (const s of servers) s.close();
  await t.s.teamServer.close();
  closeAll();
});

describe('the address a person types', () => {
  it('becomes the server origin, https added when no scheme is given', () => {
    expect(teamServerOrigin(' 10.0.0.5:4443 ')).toBe('https://10.0.0.5:4443');
    expect(teamServerOrigin('https://team.example.lan:8443/')).toBe('https://team.example.lan:8443');
    expect(teamServerOrigin('HTTPS://Team.Example.LAN')).toBe('https://team.example.lan');
  });

  it('is refused, saying why, when it is plain http, a page, carries credentials or is no address', () => {
    const cases: Array<[string, RegExp]> = [
      ['http://10.0.0.5:4443', /HTTPS only/],
      ['https://10.0.0.5:4443/reports?x=1', /address only \(https:\/\/10\.0\.0\.5:4443\)/],
      ['https://ann:secret@10.0.0.5:4443', /user name or password/],
      ['', /Enter the team server's address/],
      ['https://exa mple', /is not an address/],
    ];
    for (const [raw, message] of cases) expect(() => teamServerOrigin(raw), raw).toThrow(message);
  });

  it('fingerprints are read as people paste them', () => {
    const fp = team.fingerprint!;
    expect(normaliseFingerprint(fp.toLowerCase())).toBe(fp);
    expect(normaliseFingerprint(fp.replace(/:/g, ''))).toBe(fp);
    expect(normaliseFingerprint(fp.replace(/:/g, ' '))).toBe(fp);
    expect(normaliseFingerprint(fp.slice(0, -3))).toBeNull();
    expect(normaliseFingerprint(`${fp.slice(0, -1)}G`)).toBeNull();
  });
});

describe('connecting to a team server', () => {
  it('shows what the server presents, pins it on connecting, and keeps only the URL and the fingerprint', async () => {
    const file = join(dir, 'first', 'connection.json');
    expect(readConnection(file)).toBeNull();
    const seen = await probeTeamServer(team.url!, { pinned: null });
    expect(seen).toMatchObject({ ok: true, serverUrl: team.url, fingerprint: team.fingerprint, pin: 'new', pinnedFingerprint: null, subject: 'Compliance Console team server' });
    if (!seen.ok) throw new Error(seen.message);
    expect(seen.version).toMatch(/^\d+\.\d+/);
    expect(Date.parse(seen.validTo)).toBeGreaterThan(Date.now());

    expect(await connectTeamServer(file, { serverUrl: team.url!, fingerprint: seen.fingerprint.toLowerCase() })).toEqual({ ok: true });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ mode: 'team', serverUrl: team.url, fingerprint: team.fingerprint });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readConnection(file)).toEqual({ mode: 'team', serverUrl: team.url, fingerprint: team.fingerprint });
    expect(await probeTeamServer(team.url!, { pinned: team.fingerprint! })).toMatchObject({ ok: true, pin: 'same' });
  });

  it('refuses a certificate other than the one the person accepted', async () => {
    const file = join(dir, 'accepted', 'connection.json');
    const other = new X509Certificate(selfSignedCertificate(['127.0.0.1'], new Date(Date.now() - DAY), new Date(Date.now() + DAY)).cert).fingerprint256;
    const r = await connectTeamServer(file, { serverUrl: team.url!, fingerprint: other });
    expect(r).toMatchObject({ ok: false, problem: 'changed', message: expect.stringMatching(/another certificate than the one shown/) });
    expect(readConnection(file)).toBeNull();
  });

  it('a changed certificate is refused until the new fingerprint is confirmed as an administrator reads it', async () => {
    const file = join(dir, 'changed', 'connection.json');
    const old = new X509Certificate(selfSignedCertificate(['127.0.0.1'], new Date(Date.now() - DAY), new Date(Date.now() + DAY)).cert).fingerprint256;
    writeConnection(file, { mode: 'team', serverUrl: team.url!, fingerprint: old });

    const seen = await probeTeamServer(team.url!, { pinned: old });
    expect(seen).toMatchObject({ ok: true, pin: 'changed', pinnedFingerprint: old, fingerprint: team.fingerprint });
    const refused = verifyTeamCertificate(readFileSync(join(t.dataDir, 'team', 'team-cert.pem'), 'utf8'), { serverUrl: team.url!, fingerprint: old });
    expect(refused).toMatchObject({ problem: 'changed', message: expect.stringMatching(/until an administrator confirms the new fingerprint/) });

    const without = await connectTeamServer(file, { serverUrl: team.url!, fingerprint: team.fingerprint! });
    expect(without).toMatchObject({ ok: false, problem: 'wrong_fingerprint', message: expect.stringMatching(/as your administrator reads it/) });
    // A wrong fingerprint: one byte off, as someone in between would hope nobody reads to the end.
    const last = team.fingerprint!.slice(-2) === 'AA' ? 'AB' : 'AA';
    const wrong = await connectTeamServer(file, { serverUrl: team.url!, fingerprint: team.fingerprint!, confirmation: `${team.fingerprint!.slice(0, -2)}${last}` });
    expect(wrong).toMatchObject({ ok: false, problem: 'wrong_fingerprint', message: expect.stringMatching(/Do not connect/) });
    expect(readConnection(file)).toEqual({ mode: 'team', serverUrl: team.url, fingerprint: old });

    const confirmed = await connectTeamServer(file, { serverUrl: team.url!, fingerprint: team.fingerprint!, confirmation: team.fingerprint!.replace(/:/g, ' ').toLowerCase() });
    expect(confirmed).toEqual({ ok: true });
    expect(readConnection(file)).toEqual({ mode: 'team', serverUrl: team.url, fingerprint: team.fingerprint });
    expect(verifyTeamCertificate(readFileSync(join(t.dataDir, 'team', 'team-cert.pem'), 'utf8'), readConnection(file) as { serverUrl: string; fingerprint: string })).toBeNull();
  });

  it('refuses an expired, a not yet valid and a misnamed certificate, and says which', async () => {
    const now = Date.now();
    // Each answers a real health document, so only its certificate is wrong.
    const health = JSON.stringify((await t.json('GET', '/api/health')).body);
    const expired = await httpsServer(selfSignedCertificate(['127.0.0.1'], new Date(now - 90 * DAY), new Date(now - DAY)), health);
    const early = await httpsServer(selfSignedCertificate(['127.0.0.1'], new Date(now + DAY), new Date(now + 90 * DAY)), health);
    const misnamed = await httpsServer(selfSignedCertificate(['team.example.lan'], new Date(now - DAY), new Date(now + DAY)), health);
    servers.push(expired.server, early.server, misnamed.server);
    expect(await probeTeamServer(expired.url, { pinned: null })).toMatchObject({ ok: false, problem: 'expired', message: expect.stringMatching(/expired on \d{4}-\d\d-\d\d/) });
    expect(await probeTeamServer(early.url, { pinned: null })).toMatchObject({ ok: false, problem: 'not_yet_valid', message: expect.stringMatching(/not valid before/) });
    expect(await probeTeamServer(misnamed.url, { pinned: null })).toMatchObject({ ok: false, problem: 'name_mismatch', message: expect.stringMatching(/is for team\.example\.lan, not 127\.0\.0\.1/) });
    // The window's own check holds a pinned certificate to its dates too.
    const pem = selfSignedCertificate(['127.0.0.1'], new Date(now - 90 * DAY), new Date(now - DAY)).cert;
    expect(verifyTeamCertificate(pem, { serverUrl: 'https://127.0.0.1:1', fingerprint: new X509Certificate(pem).fingerprint256 })).toMatchObject({ problem: 'expired' });
  });

  it('refuses a server that is not a Compliance Console, and one that is not there', async () => {
    const now = Date.now();
    const stranger = await httpsServer(selfSignedCertificate(['127.0.0.1'], new Date(now - DAY), new Date(now + DAY)), '<html>router login</html>', 404);
    servers.push(stranger.server);
    expect(await probeTeamServer(stranger.url, { pinned: null })).toMatchObject({ ok: false, problem: 'not_console', message: expect.stringMatching(/not as a Compliance Console team server \(HTTP 404\)/) });
    const port = (stranger.server.address() as AddressInfo).port;
    stranger.server.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(await probeTeamServer(`https://127.0.0.1:${port}`, { pinned: null })).toMatchObject({ ok: false, problem: 'unreachable', message: expect.stringMatching(/nothing is listening there/) });
    const file = join(dir, 'gone', 'connection.json');
    expect(await connectTeamServer(file, { serverUrl: `127.0.0.1:${port}`, fingerprint: team.fingerprint! })).toMatchObject({ ok: false, problem: 'unreachable' });
    expect(readConnection(file)).toBeNull();
  });

  it('a damaged or tampered connection file means asking again, never trusting what is in it', () => {
    const file = join(dir, 'damaged.json');
    for (const text of ['{', '{"mode":"team","serverUrl":"http://10.0.0.5:80","fingerprint":"' + team.fingerprint + '"}', '{"mode":"team","serverUrl":"https://10.0.0.5","fingerprint":"nope"}', '{"mode":"local","org":"Acme"}']) {
      writeFileSync(file, text);
      expect(readConnection(file), text).toBeNull();
    }
    writeFileSync(file, '{"mode":"local"}');
    expect(readConnection(file)).toEqual({ mode: 'local' });
  });
});
