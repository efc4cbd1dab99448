// The console's home screen: what needs attention today (session; every role, each sees what its
// role may act on).
import { Home, HomeQuery } from '../../../../src-shared/contracts/home';
import { home } from '../../core/app/home';
import type { Router } from '../router';

export function homeRoutes({ route, services }: Router): void {
  route({
    method: 'GET', path: '/api/home', auth: { kind: 'session' }, tags: ['account'],
    summary: 'What needs attention today, and what a new install has set up',
    request: { query: HomeQuery },
    responses: { 200: Home },
    handler: async (c, input) => c.json<Home>(await home(services, c.get('session'), input.query().since)),
  });
}
