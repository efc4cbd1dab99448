// Test organizations made with the admin CLI, and signing in through the login screen.
import { expect, type Page } from '@playwright/test';
import { AppShell } from '../pages/app-shell';
import { LoginPage } from '../pages/login-page';
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

export async function initOrg(service: Service, org: TestOrg = DEFAULT_ORG): Promise<TestOrg> {
  await service.cli(
    'init', '--org', org.organization, '--owner-email', org.email, '--owner-password', org.password,
    '--owner-name', 'Olivia Owner', ...(org.plan ? ['--plan', org.plan] : []),
  );
  return org;
}

/**
 * A real member (or admin) of the organisation, added with the admin CLI (`members add`), who signs
 * in with their own credentials: the service, not the console, decides what they may do.
 */
export async function addMember(
  service: Service,
  org: TestOrg,
  member: { email: string; password: string; role?: 'member' | 'admin'; name?: string },
): Promise<TestOrg> {
  await service.cli(
    'members', 'add', '--email', member.email, '--password', member.password, '--role', member.role ?? 'member',
    '--name', member.name ?? 'Mo Member',
  );
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
