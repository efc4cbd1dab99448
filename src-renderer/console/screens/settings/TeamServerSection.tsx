// Settings → Team server (issue 39): this install serves the console and the API to the team's
// other desks over HTTPS on one of this computer's network addresses. Everyone signed in sees the
// address colleagues connect to and the fingerprint their console checks; the owner starts and
// stops it (it opens the organisation to the network). It stays on across restarts until stopped.
import type { TeamServerStatus } from '../../../../src-shared/contracts/team-server';
import { api } from '../../api/client';
import { ServerPanel, type ServerPanelConfig } from '../../components/ServerPanel';

const TEAM: ServerPanelConfig<TeamServerStatus> = {
  id: 'team-server',
  title: 'Team server',
  api: { status: api.teamServer, start: api.startTeamServer, stop: api.stopTeamServer },
  about: 'Lets your colleagues use this organisation from their own desks: their browser connects to this computer over HTTPS, '
    + 'and each signs in as themselves. This computer must stay on while they work. It uses a certificate made on this computer '
    + 'unless the service was started with your organisation’s own.',
  whoManages: 'The owner starts and stops it.',
  startedNotice: 'Started. Colleagues can connect their console to the address below; invitations you send now carry it.',
  stoppedNotice: 'Stopped. Consoles on other desks can no longer connect; links use this computer’s own address again.',
  networkHint: 'The network your colleagues’ computers are on.',
  whileRunning: 'Invitations, hosted sessions and QR codes use this address.',
  runningExtra: (s) => (
    <p className="srv-text" data-testid="team-server-certificate">
      {s.certificate === 'own' ? 'It serves your organisation’s own certificate.' : 'It serves a certificate made on this computer.'}
    </p>
  ),
  trustTitle: 'Colleagues check the fingerprint when they first connect.',
  trust: 'In the desktop app they choose “Connect to my team’s server” and enter the address above (or open it in their browser). The app '
    + 'shows the SHA-256 fingerprint the server presents: they compare it with the one above and connect only if the two match. Their app then '
    + 'trusts exactly this certificate; if it ever changes, it refuses to connect until someone reads them the new fingerprint from here.',
  stopHint: 'Consoles on other desks cannot reach this organisation until it runs again.',
  defaultPort: '8443',
};

export function TeamServerSection({ canManage }: { canManage: boolean }) {
  return <ServerPanel canManage={canManage} config={TEAM} />;
}
