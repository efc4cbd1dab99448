// How far a link the service handed out reaches (issue 26), said beside it: a loopback link works on
// this computer only (a phone scanning its QR code opens itself), so the screen says so and how to
// fix it: start the on-site server (hosted pages only: it does not serve the age-gate script) or
// set a public URL in Settings. The service decides the reach (`link_reach`); this only words it.
import type { MouseEvent } from 'react';
import type { LinkReach } from '../../../src-shared/contracts/links';
import { href } from '../app/router';
import { Alert } from './Alert';

interface LinkReachNoticeProps {
  reach: LinkReach;
  /** A hosted page's link (and QR code), or the storefront's script tag. */
  kind: 'link' | 'script';
  /** Shows the on-site server on the current screen instead of going to the Hosted sessions screen. */
  onOnsite?: (() => void) | undefined;
  /** What changes once it is fixed (a session's link is made again; a published flow's follows by itself). */
  after?: string;
  testId: string;
}

export function LinkReachNotice({ reach, kind, onOnsite, after = 'then make a new session', testId }: LinkReachNoticeProps) {
  if (reach === 'public') return null;
  if (reach === 'team') {
    return (
      <p className="muted" data-testid={testId} data-reach={reach}>
        Computers and devices on your team’s network can open it, through the team server.
      </p>
    );
  }
  if (reach === 'onsite') {
    return (
      <p className="muted" data-testid={testId} data-reach={reach}>
        Devices on this computer’s network can open it, through the on-site server.
      </p>
    );
  }
  const settings = <a href={href('settings')} data-testid={`${testId}-settings`}>set a public URL in Settings</a>;
  if (kind === 'script') {
    return (
      <Alert tone="warning" title="This script tag works on this computer only." testId={testId}>
        <span data-reach={reach}>
          It loads the age gate from this computer’s own address, which a storefront on the internet cannot reach. To use it on your
          store, {settings} (the address of a proxy or tunnel in front of this service): the tag then uses it. You can still paste
          this one into a page on this computer to try it.
        </span>
      </Alert>
    );
  }
  const showOnsite = (e: MouseEvent<HTMLAnchorElement>) => {
    if (!onOnsite) return;
    e.preventDefault();
    onOnsite();
  };
  return (
    <Alert tone="warning" title="This link works on this computer only." testId={testId}>
      <span data-reach={reach}>
        It points to this computer’s own address, so a phone or tablet that scans a QR code of it would open itself, not this service:
        no QR code is shown. For other devices,{' '}
        <a href={href('hosted')} onClick={showOnsite} data-testid={`${testId}-onsite`}>start the on-site server</a> (devices on this
        network) or {settings} (a proxy or tunnel in front of this service), {after}. You can still copy it to check it on this
        computer.
      </span>
    </Alert>
  );
}
