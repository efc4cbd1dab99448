// Starting and stopping the on-site server from the console (owners and admins), and its status
// for everyone signed in: address, port, the certificate's fingerprint, the addresses it can bind.
// Both are audited with the address and port (this computer's, never a visitor's).
import { OnsiteStartRequest, OnsiteStatus } from '../../../../src-shared/contracts/onsite';
import { actorOf } from '../../core/audit/audit';
import type { Router } from '../router';

export function onsiteRoutes({ route, services }: Router): void {
  route({
    method: 'GET', path: '/api/onsite', auth: { kind: 'session' }, tags: ['hosted'],
    summary: 'The on-site server: running or not, its address and certificate fingerprint, and the local addresses it can bind',
    responses: { 200: OnsiteStatus },
    handler: (c) => c.json<OnsiteStatus>(services.onsite.status()),
  });

  route({
    method: 'POST', path: '/api/onsite/start', auth: { kind: 'session', act: 'hosted.manage' }, tags: ['hosted'],
    summary: 'Starts the on-site HTTPS server on one local address (a certificate is made on first use and kept)',
    description: 'It serves only the hosted page and its calls; every other route is 404 there. Sessions made in the console while it runs get its address in their URL.',
    request: { body: OnsiteStartRequest },
    responses: { 200: OnsiteStatus },
    handler: async (c, input) => {
      const body = await input.body();
      const { org, user } = c.get('session');
      const st = await services.onsite.start(body.host, body.port);
      await services.audit.record({ orgId: org.id, actor: actorOf(user), action: 'onsite.started', to: `${st.host}:${st.port}` });
      return c.json<OnsiteStatus>(st);
    },
  });

  route({
    method: 'POST', path: '/api/onsite/stop', auth: { kind: 'session', act: 'hosted.manage' }, tags: ['hosted'],
    summary: 'Stops the on-site server',
    responses: { 200: OnsiteStatus },
    handler: async (c) => {
      const { org, user } = c.get('session');
      const was = services.onsite.status();
      const st = await services.onsite.stop();
      // Stopping a server that was not running changes nothing anyone can reach: no row.
      if (was.running) await services.audit.record({ orgId: org.id, actor: actorOf(user), action: 'onsite.stopped', from: `${was.host}:${was.port}` });
      return c.json<OnsiteStatus>(st);
    },
  });
}
