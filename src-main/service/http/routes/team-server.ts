// The team server from the console (issue 39): its status for everyone signed in (the address
// colleagues connect to and the fingerprint they check), started and stopped by the owner (it opens
// the console and the API to the network). Both are audited with the address and port.
import { TeamServerStartRequest, TeamServerStatus } from '../../../../src-shared/contracts/team-server';
import { actorOf } from '../../core/audit/audit';
import type { Router } from '../router';

export function teamServerRoutes({ route, services }: Router): void {
  route({
    method: 'GET', path: '/api/team-server', auth: { kind: 'session' }, tags: ['team'],
    summary: 'The team server: running or not, its address, certificate and fingerprint, and the local addresses it can bind',
    responses: { 200: TeamServerStatus },
    handler: (c) => c.json<TeamServerStatus>(services.teamServer.status()),
  });

  route({
    method: 'POST', path: '/api/team-server/start', auth: { kind: 'session', act: 'team_server.manage' }, tags: ['team'],
    summary: 'Starts the team server: the API and the console over HTTPS on one of this computer\'s addresses',
    description: 'The certificate is the one given at start (`--team-cert`, `--team-key`) or one made on this computer on first use and kept. '
      + 'It stays on across restarts until it is stopped. Links the service hands out (invitations, hosted sessions, QR codes, the age-gate tag) '
      + 'then use its address unless a public URL is set.',
    request: { body: TeamServerStartRequest },
    responses: { 200: TeamServerStatus },
    handler: async (c, input) => {
      const body = await input.body();
      const { org, user } = c.get('session');
      const st = await services.teamServer.start(body.host, body.port);
      await services.audit.record({ orgId: org.id, actor: actorOf(user), action: 'team_server.started', to: `${st.host}:${st.port}` });
      return c.json<TeamServerStatus>(st);
    },
  });

  route({
    method: 'POST', path: '/api/team-server/stop', auth: { kind: 'session', act: 'team_server.manage' }, tags: ['team'],
    summary: 'Stops the team server: consoles on other desks can no longer connect',
    responses: { 200: TeamServerStatus },
    handler: async (c) => {
      const { org, user } = c.get('session');
      const was = services.teamServer.status();
      const st = await services.teamServer.stop();
      if (was.running) await services.audit.record({ orgId: org.id, actor: actorOf(user), action: 'team_server.stopped', from: `${was.host}:${was.port}` });
      return c.json<TeamServerStatus>(st);
    },
  });
}
