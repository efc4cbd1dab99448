// The on-site server (spec card: "local hosted-page server for on-site checks"): an optional
// HTTPS listener on the local network that serves only the hosted page and its calls, so a phone
// or tablet on site can open a hosted session's QR code.
import { z } from 'zod';

export const OnsiteInterface = z.object({
  /** The operating system's name for the network interface (eth0, Wi-Fi, lo). */
  name: z.string(),
  address: z.string(),
  /** Loopback: reachable from this computer only (for trying it out). */
  internal: z.boolean(),
});

export const OnsiteStatus = z.object({
  running: z.boolean(),
  /** `https://<address>:<port>` while running. */
  url: z.string().nullable(),
  host: z.string().nullable(),
  port: z.number().int().nullable(),
  /** SHA-256 of the server's certificate (colon-separated hex), to check on the device that trusts it. */
  fingerprint: z.string().nullable(),
  certificate_expires_at: z.string().nullable(),
  /** The addresses it can be bound to. */
  interfaces: z.array(OnsiteInterface),
});
export type OnsiteStatus = z.infer<typeof OnsiteStatus>;

export const OnsiteStartRequest = z.object({
  /** One of `interfaces[].address`. */
  host: z.string().min(1).max(64),
  /** 0 or absent: any free port. */
  port: z.number().int().min(0).max(65535).default(8443),
});
export type OnsiteStartRequest = z.input<typeof OnsiteStartRequest>;
