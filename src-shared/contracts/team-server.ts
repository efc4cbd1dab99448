// The team server (issue 39): one install serves the API and the console to the team's other desks
// over HTTPS on one of its network addresses, with the organisation's own certificate or one made
// on this computer whose SHA-256 fingerprint every connecting console checks. Its status is the
// on-site server's (same listener, same certificate handling) and says which certificate it serves.
import { z } from 'zod';
import { OnsiteStartRequest, OnsiteStatus } from './onsite';

export const TeamServerStatus = OnsiteStatus.extend({
  /** `own`: the organisation's certificate, given at start (`--team-cert`, `--team-key`); `generated`: made on this computer. Null while off. */
  certificate: z.enum(['own', 'generated']).nullable(),
});
export type TeamServerStatus = z.infer<typeof TeamServerStatus>;

/** One of `interfaces[].address` and a port (0: any free port). */
export const TeamServerStartRequest = OnsiteStartRequest;
export type TeamServerStartRequest = z.input<typeof TeamServerStartRequest>;
