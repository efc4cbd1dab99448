// Test organizations made over HTTP as the console's first run makes them, and signing in through the login screen.
import { expect, type Page } from '@playwright/test';
import { AppShell } from '../pages/app-shell';
import { LoginPage } from '../pages/login-page';
import { inviteMember } from './seed';
import type { Service } from './service';

export interface TestOrg {
  organization: string;
  email: string;
  password: string;
  plan?: 'free' | 'starter' | 'growth' | 'pro' | 'enterprise';
}

export const DEFAULT_ORG: TestOrg = {
  organization: 'Northwind Compliance',
  email: 'owner@northwind.test',
  password: 'correct horse battery',
};

/**
 * The organisation and its owner, made over HTTP as the console's first run makes them (`POST
 * /api/setup`): the same core call as the CLI's `init`, without starting a process per test.
 */
export async function initOrg(service: Service, org: TestOrg = DEFAULT_ORG): Promise<TestOrg> {
  // A service shared by a file's tests (support/service.ts) is set up by the first of them.
  const made = madeOn.get(service);
  if (made !== undefined) {
    if (made !== JSON.stringify(org)) throw new Error(`this shared service already has another organisation (${made}): keep the test on a service of its own`);
    return org;
  }
  const res = await fetch(`${service.url}/api/setup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ organization: org.organization, name: 'Olivia Owner', email: org.email, password: org.password, ...(org.plan ? { plan: org.plan } : {}) }),
  });
  if (res.status !== 201) throw new Error(`setup answered ${res.status}: ${await res.text()}`);
  madeOn.set(service, JSON.stringify(org));
  return org;
}

/** The organisation each service was set up with, by initOrg. */
const madeOn = new WeakMap<Service, string>();

/**
 * A real member (or admin) of the organisation, invited by the owner and accepting the link over
 * HTTP (support/seed.ts), who signs in with their own credentials: the service, not the console,
 * decides what they may do.
 */
export async function addMember(
  service: Service,
  org: TestOrg,
  member: { email: string; password: string; role?: 'member' | 'admin'; name?: string },
): Promise<TestOrg> {
  await inviteMember(service, org, member);
  return { organization: org.organization, email: member.email, password: member.password, ...(org.plan ? { plan: org.plan } : {}) };
}

export async function signIn(page: Page, org: TestOrg = DEFAULT_ORG): Promise<AppShell> {
  const login = new LoginPage(page);
  await login.goto();
  await login.login(org.email, org.password);
  const shell = new AppShell(page);
  await shell.expectSignedIn(org.organization);
  await expect(login.root).toBeHidden();
  return shell;
}
