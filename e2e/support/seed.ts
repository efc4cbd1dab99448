// Seeding a test's service over HTTP, as the console itself would: the owner signs in once and
// makes keys, webhooks and team members through the session API. A request costs the service
// milliseconds where an admin CLI process costs about a second of CPU to start, and the e2e
// suite made some thirty such calls (issue 24). Responses are parsed with the route contracts.
import { CreatedKey, type CreateKeyRequest } from '../../src-shared/contracts/accounts';
import { CreatedInvitation, type TeamRole } from '../../src-shared/contracts/team';
import { CreatedWebhook, WebhookPrivateHosts, type CreateWebhookRequest } from '../../src-shared/contracts/webhooks';
import type { TestOrg } from './accounts';
import type { Service } from './service';

export interface SeedSession {
  /** A session-authenticated JSON request as the console makes it (same origin, the owner's cookie). */
  post<T>(path: string, body: unknown, parse: { parse: (v: unknown) => T }): Promise<T>;
  put<T>(path: string, body: unknown, parse: { parse: (v: unknown) => T }): Promise<T>;
}

async function cookieOf(service: Service, email: string, password: string): Promise<string> {
  const res = await fetch(`${service.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: service.url },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${email} answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  if (!cookie) throw new Error('sign-in set no cookie');
  return cookie;
}

/** The organisation's owner (or any member given), signed in over HTTP. */
export async function signedIn(service: Service, org: Pick<TestOrg, 'email' | 'password'>): Promise<SeedSession> {
  const cookie = await cookieOf(service, org.email, org.password);
  const send = async <T>(method: 'POST' | 'PUT', path: string, body: unknown, parse: { parse: (v: unknown) => T }): Promise<T> => {
    const res = await fetch(`${service.url}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', Origin: service.url, Cookie: cookie },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return parse.parse(JSON.parse(text));
  };
  return {
    post: (path, body, parse) => send('POST', path, body, parse),
    put: (path, body, parse) => send('PUT', path, body, parse),
  };
}

/** An API key made by the owner in the console's API keys screen (the key and secret come back once). */
export async function createKey(service: Service, org: TestOrg, key: CreateKeyRequest): Promise<CreatedKey> {
  return (await signedIn(service, org)).post('/api/keys', key, CreatedKey);
}

/** Several keys, one sign-in. */
export async function createKeys<const K extends readonly CreateKeyRequest[]>(
  service: Service, org: TestOrg, keys: K,
): Promise<{ [I in keyof K]: CreatedKey }> {
  const owner = await signedIn(service, org);
  const out: CreatedKey[] = [];
  for (const k of keys) out.push(await owner.post('/api/keys', k, CreatedKey));
  return out as { [I in keyof K]: CreatedKey };
}

/** A webhook endpoint added in the console's Webhooks screen. */
export async function addWebhook(service: Service, org: TestOrg, hook: CreateWebhookRequest): Promise<CreatedWebhook> {
  const owner = await signedIn(service, org);
  // A receiver the test runs on this computer: the owner names its host first, as an on-premises receiver.
  const host = new URL(hook.url).hostname;
  if (host === '127.0.0.1') await owner.put('/api/webhooks/private-hosts', { hosts: [host] }, WebhookPrivateHosts);
  return owner.post('/api/webhooks', hook, CreatedWebhook);
}

/**
 * A team member as the Team screen makes one: the owner invites, the invitee accepts the link and
 * sets a name and password. The plan's team size applies, as it does to the CLI's `members add`.
 */
export async function inviteMember(
  service: Service,
  org: TestOrg,
  member: { email: string; password: string; role?: TeamRole; name?: string },
): Promise<void> {
  const owner = await signedIn(service, org);
  const invited = await owner.post('/api/team/invite', { email: member.email, role: member.role ?? 'member' }, CreatedInvitation);
  const token = new URL(invited.accept_url.replace('#/', '')).searchParams.get('token');
  if (!token) throw new Error(`no token in ${invited.accept_url}`);
  const res = await fetch(`${service.url}/api/team/invite/accept`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: service.url },
    body: JSON.stringify({ token, name: member.name ?? 'Mo Member', password: member.password }),
  });
  if (res.status !== 200) throw new Error(`accepting the invitation answered ${res.status}: ${await res.text()}`);
}
