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
  trust: 'They open the address above in their browser. Unless it is your organisation’s own certificate, the browser warns the first '
    + 'time that no public authority vouches for it: they compare its SHA-256 fingerprint with the one above and accept it only if the two match.',
  stopHint: 'Consoles on other desks cannot reach this organisation until it runs again.',
  defaultPort: '8443',
};

export function TeamServerSection({ canManage }: { canManage: boolean }) {
  return <ServerPanel canManage={canManage} config={TEAM} />;
}
