// The on-site server: an optional HTTPS listener on one of this computer's addresses that serves
// only the hosted verification page, so a phone or tablet on the same network can open a
// session's QR code. Everyone signed in sees whether it runs; owners and admins start and stop it.
// While it runs, sessions made in the console carry its address.
import { ServerPanel, type ServerPanelConfig } from '../../components/ServerPanel';
import { onsiteApi } from './hosted-api';

const ONSITE: ServerPanelConfig = {
  id: 'onsite',
  title: 'On-site server',
  api: onsiteApi,
  about: 'Lets phones and tablets on this network open the sessions’ QR codes. It uses HTTPS with a certificate made on this computer, '
    + 'and only the verification page is reachable from the network: not the console, not the API.',
  whoManages: 'Owners and admins start and stop it.',
  startedNotice: 'Started. Phones and tablets on this network can open the QR codes of sessions you make now.',
  stoppedNotice: 'Stopped. New sessions use this computer’s own address again; links made while it ran no longer open.',
  networkHint: 'The network the phones are on.',
  whileRunning: 'New sessions use this address.',
  trustTitle: 'The first time, the phone warns about the certificate.',
  trust: 'It was made on this computer, so no public authority vouches for it. Open the certificate’s details in the phone’s browser '
    + 'and compare its SHA-256 fingerprint with the one above; accept it only if they match.',
  stopHint: 'Phones can no longer open links until it runs again.',
  defaultPort: '8443',
};

export function OnsitePanel({ canManage }: { canManage: boolean }) {
  return <ServerPanel canManage={canManage} config={ONSITE} />;
}
