// Web permissions for the console. Everything is denied except:
// - camera ('media', video only) for the service origin: on-site checks capture selfies and IDs;
// - 'clipboard-sanitized-write' for the service origin: "copy API key" buttons use
//   navigator.clipboard.writeText, which fails if the check handler says no.
import type { MediaAccessPermissionRequest, PermissionRequest, Session } from 'electron';
import { originOf } from './url-rules';

type RequestDetails = PermissionRequest | MediaAccessPermissionRequest;

function isVideoOnly(mediaTypes: ReadonlyArray<'video' | 'audio'> | undefined): boolean {
  return mediaTypes !== undefined && mediaTypes.length > 0 && mediaTypes.every((type) => type === 'video');
}

function allowsRequest(permission: string, details: RequestDetails): boolean {
  if (permission === 'media') return 'mediaTypes' in details && isVideoOnly(details.mediaTypes);
  return permission === 'clipboard-sanitized-write';
}

export function installPermissionHandlers(target: Session, serviceOrigin: () => string | null): void {
  target.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const origin = serviceOrigin();
    callback(origin !== null && originOf(details.requestingUrl) === origin && allowsRequest(permission, details));
  });

  target.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) => {
    const origin = serviceOrigin();
    // Chromium sometimes passes the origin with a trailing slash; compare parsed origins.
    if (origin === null || originOf(requestingOrigin) !== origin) return false;
    if (permission === 'media') return details.mediaType === 'video';
    return permission === 'clipboard-sanitized-write';
  });

  // USB/HID/serial/Bluetooth pickers: the console has no use for them.
  target.setDevicePermissionHandler(() => false);
}
