// Starting and stopping the on-site server from the console (owners and admins), and its status
// for everyone signed in: address, port, the certificate's fingerprint, the addresses it can bind.
import { OnsiteStartRequest, OnsiteStatus } from '../../../../src-shared/contracts/onsite';
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
      return c.json<OnsiteStatus>(await services.onsite.start(body.host, body.port));
    },
  });

  route({
    method: 'POST', path: '/api/onsite/stop', auth: { kind: 'session', act: 'hosted.manage' }, tags: ['hosted'],
    summary: 'Stops the on-site server',
    responses: { 200: OnsiteStatus },
    handler: async (c) => c.json<OnsiteStatus>(await services.onsite.stop()),
  });
}
