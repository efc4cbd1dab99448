// Team screens and accepting an invitation against the real service: the owner invites, the
// invitee opens the link in a second browser (its own cookies) and creates the account, and the
// console shows each role only what it may do.
// CONSOLE_SCREENSHOTS=/some/dir also saves screenshots (console-team*.png, console-accept*.png).
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { DEFAULT_ORG, initOrg, signIn } from '../support/accounts';
import { expect, test, type Service } from '../support/service';
import { AppShell } from '../pages/app-shell';
import { LoginPage } from '../pages/login-page';
import { AcceptInvitePage, TeamPage } from '../pages/team-page';

const shotsDir = process.env.CONSOLE_SCREENSHOTS;
async function shot(page: Page, name: string): Promise<void> {
  if (shotsDir) await page.screenshot({ path: join(shotsDir, `console-${name}.png`) });
}

const INVITEE = { name: 'Mo Member', email: 'mo@northwind.test', password: 'a long member password' };

/** A second browser: its own cookies, as the invitee's would be. */
async function secondBrowser(browser: Browser, service: Service): Promise<Page> {
  const context = await browser.newContext({ baseURL: service.url, viewport: { width: 1440, height: 900 } });
  return context.newPage();
}

test('team: the owner invites, the invitee creates the account from the link, the owner promotes and removes them; the link works once', async ({ page, service, browser }) => {
  await initOrg(service, { ...DEFAULT_ORG, plan: 'growth' });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
  const shell = await signIn(page);
  await shell.open('team');
  const team = new TeamPage(page);
  await expect(team.memberRows).toHaveCount(1);
  const owner = team.member(DEFAULT_ORG.email);
  await expect(owner.getByTestId('member-role')).toHaveAttribute('data-role', 'owner');
  await expect(owner).toContainText('You');
  await expect(owner.getByTestId('remove-member')).toHaveCount(0);
  await expect(owner.getByTestId('change-role')).toHaveCount(0);
  await expect(team.seats).toHaveText('1 of 10 seats used');

  // The spec's errors, in the dialog, as the service words them.
  await team.submitInvite('not-an-email');
  await expect(team.inviteDialog.getByTestId('invite-email-error')).toHaveText('Invalid email format');
  await team.submitInvite(DEFAULT_ORG.email);
  await expect(team.inviteDialog.getByTestId('invite-email-error')).toHaveText('Email already on team');
  await shot(page, 'team-invite-error');

  // The owner may invite an admin or a member; member is the default.
  await expect(team.inviteDialog.getByTestId('invite-role-member')).toBeChecked();
  await expect(team.inviteDialog.getByTestId('invite-role-admin')).toBeVisible();
  const link = await team.inviteAndGetLink(INVITEE.email);
  expect(link).toMatch(new RegExp(`^${service.url}/#/accept-invite\\?token=[A-Za-z0-9_-]{40,}$`));
  await expect(team.linkDialog).toContainText('No e-mail is sent');
  await expect(team.linkDialog.getByTestId('invite-link-email')).toHaveText(INVITEE.email);
  await team.linkDialog.getByTestId('invite-link-copy').click();
  await expect(team.linkDialog.getByTestId('invite-link-copy')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await shot(page, 'team-invite-link');
  await team.closeLink();

  // Shown once: the page keeps no copy of the token.
  const token = new URL(link).hash.split('token=')[1]!;
  expect(await page.content()).not.toContain(token);
  await expect(team.inviteRows).toHaveCount(1);
  await expect(team.invite(INVITEE.email).getByTestId('invite-role')).toHaveAttribute('data-role', 'member');
  await expect(team.invite(INVITEE.email).getByTestId('invite-by')).toHaveText(DEFAULT_ORG.email);
  await expect(team.seats).toHaveText('2 of 10 seats used: 1 member, 1 pending invitation');
  await shot(page, 'team-owner');

  // The invitee, in another browser, without an account: the token leaves the address at once.
  const invitee = await secondBrowser(browser, service);
  const accept = new AcceptInvitePage(invitee);
  await accept.open(link);
  await expect(invitee).toHaveURL(/#\/accept-invite$/);
  await expect(accept.body).toHaveAttribute('data-phase', 'create');
  await shot(invitee, 'accept-create');
  await accept.createAccount(INVITEE.name, INVITEE.password, 'not the same password');
  await expect(invitee.getByTestId('accept-confirm-error')).toHaveText('The passwords do not match.');
  await accept.createAccount(INVITEE.name, INVITEE.password);

  // Signed in at once, on the team screen, as a member: the list, and nothing to change.
  const inviteeShell = new AppShell(invitee);
  await inviteeShell.expectSignedIn(DEFAULT_ORG.organization);
  await expect(invitee).toHaveURL(/#\/team$/);
  await expect(inviteeShell.userName).toHaveText(INVITEE.name);
  await expect(invitee.getByTestId('team-joined')).toHaveText(`Welcome to ${DEFAULT_ORG.organization}. You joined as a member.`);
  const inviteeTeam = new TeamPage(invitee);
  await expect(inviteeTeam.memberRows).toHaveCount(2);
  await expect(inviteeTeam.member(INVITEE.email).getByTestId('member-role')).toHaveAttribute('data-role', 'member');
  await expect(inviteeTeam.member(INVITEE.email)).toContainText('You');
  await expect(inviteeTeam.inviteButton).toHaveCount(0);
  await expect(inviteeTeam.invites).toHaveCount(0);
  await expect(invitee.getByTestId('remove-member')).toHaveCount(0);
  await expect(invitee.getByTestId('change-role')).toHaveCount(0);
  await expect(invitee.getByTestId('team-read-only')).toBeVisible();
  await expect(inviteeTeam.seats).toHaveText('2 members · the plan allows 10 seats');
  await shot(invitee, 'team-member');
  // A member without billing access sees the balance, not the credit ledger (the service refuses it too).
  await inviteeShell.open('plan');
  await expect(invitee.getByTestId('credit-balance')).not.toHaveText('…');
  await expect(invitee.getByTestId('ledger-hidden')).toContainText('owner, admins and members the owner gave billing access');
  await expect(invitee.getByTestId('ledger-table')).toHaveCount(0);
  await inviteeShell.open('team');

  // The owner sees the new member (signed in already) and no pending invitation.
  await page.reload();
  await expect(team.memberRows).toHaveCount(2);
  const mo = team.member(INVITEE.email);
  await expect(mo.getByTestId('member-name')).toHaveText(INVITEE.name);
  await expect(mo.getByTestId('member-last-active')).not.toHaveText('Not signed in yet');
  await expect(team.inviteRows).toHaveCount(0);
  await expect(team.seats).toHaveText('2 of 10 seats used');

  // Only the owner gives a member billing access (the credit ledger and the reports' credits); the owner always has it.
  await expect(team.member(DEFAULT_ORG.email).getByTestId('member-billing')).toHaveText('Always');
  await expect(team.member(DEFAULT_ORG.email).getByTestId('member-billing-toggle')).toHaveCount(0);
  await mo.getByTestId('member-billing-toggle').check();
  await expect(team.notice).toContainText(`${INVITEE.name} now has billing access`);
  await expect(mo.getByTestId('member-billing')).toHaveAttribute('data-billing', 'true');

  // Only the owner changes roles; an admin sees credits by role, so there is no toggle for them.
  await mo.getByTestId('change-role').click();
  await expect(team.notice).toContainText(`${INVITEE.name} is now an admin.`);
  await expect(mo.getByTestId('member-role')).toHaveAttribute('data-role', 'admin');
  await expect(mo.getByTestId('change-role')).toHaveText('Make member');
  await expect(mo.getByTestId('member-billing')).toHaveText('Always');
  await expect(mo.getByTestId('member-billing-toggle')).toHaveCount(0);
  // Team activity, newest first, for the whole team.
  await expect(page.getByTestId('activity-entry').first()).toContainText(`made ${INVITEE.email} an admin`);
  await expect(page.getByTestId('activity-entry').nth(1)).toContainText(`gave ${INVITEE.email} billing access`);

  // As an admin: may invite (members only), sees invitations, no role control, cannot remove admins or the owner.
  await invitee.reload();
  await expect(inviteeTeam.memberRows).toHaveCount(2);
  await expect(inviteeTeam.member(INVITEE.email).getByTestId('member-role')).toHaveAttribute('data-role', 'admin');
  await expect(inviteeTeam.inviteButton).toBeVisible();
  await expect(inviteeTeam.invites).toBeVisible();
  await expect(invitee.getByTestId('change-role')).toHaveCount(0);
  await expect(invitee.getByTestId('member-billing-toggle')).toHaveCount(0);
  await expect(inviteeTeam.member(INVITEE.email).getByTestId('member-billing')).toHaveText('Always');
  await expect(invitee.getByTestId('activity-entry').first()).toContainText(`made ${INVITEE.email} an admin`);
  await expect(invitee.getByTestId('remove-member')).toHaveCount(0);
  await inviteeTeam.inviteButton.click();
  await expect(inviteeTeam.inviteDialog.getByTestId('invite-role-fixed')).toContainText('member');
  await expect(inviteeTeam.inviteDialog.getByTestId('invite-role-admin')).toHaveCount(0);
  await shot(invitee, 'team-admin-invite');
  await inviteeTeam.inviteDialog.getByRole('button', { name: 'Cancel' }).click();
  // The service agrees: an admin's role change is refused with the spec's text.
  const refused = await invitee.request.patch(`/api/team/members/1/role`, { data: { role: 'member' } });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({ error: 'Only owners can change member roles' });

  // The owner removes them, after confirming; they are signed out.
  await mo.getByTestId('remove-member').click();
  await expect(team.removeDialog.getByTestId('remove-member-name')).toHaveText(INVITEE.name);
  await shot(page, 'team-remove');
  await team.removeDialog.getByTestId('confirm-remove-member').click();
  await expect(team.removeDialog).toBeHidden();
  await expect(team.notice).toHaveText(`${INVITEE.name} was removed from the team and signed out.`);
  await expect(team.memberRows).toHaveCount(1);
  await invitee.reload();
  await expect(new LoginPage(invitee).root).toBeVisible();

  // The link worked once.
  await accept.open(link);
  await expect(invitee.getByTestId('accept-invalid')).toContainText('Invalid invitation token');
  await expect(invitee.getByTestId('accept-invalid')).toContainText('already been used');
  await shot(invitee, 'accept-invalid');
  await invitee.context().close();
});

test('team: a removed member\'s API keys are counted back with a way to the keys screen', async ({ page, service, browser }) => {
  await initOrg(service, { ...DEFAULT_ORG, plan: 'growth' });
  await signIn(page);
  const team = new TeamPage(page);
  await team.goto();
  const link = await team.inviteAndGetLink(INVITEE.email);
  await team.closeLink();

  const invitee = await secondBrowser(browser, service);
  const accept = new AcceptInvitePage(invitee);
  await accept.open(link);
  await accept.createAccount(INVITEE.name, INVITEE.password);
  await expect(new AppShell(invitee).nav).toBeVisible();
  for (const name of ['First', 'Second']) {
    const r = await invitee.request.post('/api/keys', { data: { name, env: 'test', scopes: ['human'] } });
    expect(r.status()).toBe(201);
  }

  await page.reload();
  await team.remove(INVITEE.email);
  await expect(team.notice).toContainText('The 2 API keys they created stay active: revoke them in API keys');
  await page.getByTestId('team-notice-keys').click();
  await expect(page).toHaveURL(/#\/keys$/);
  await invitee.context().close();
});

test('team: a full team says so with its counts; a cancelled invitation frees its seat and its link stops working', async ({ page, service, browser }) => {
  await initOrg(service, { ...DEFAULT_ORG, plan: 'starter' });
  await signIn(page);
  const team = new TeamPage(page);
  await team.goto();
  await expect(team.seats).toHaveText('1 of 3 seats used');
  const first = await team.inviteAndGetLink('first@northwind.test');
  await team.closeLink();
  await team.inviteAndGetLink('second@northwind.test', 'admin');
  await team.closeLink();
  await expect(team.seats).toHaveText('3 of 3 seats used: 1 member, 2 pending invitations');
  await expect(page.getByTestId('team-full-note')).toBeVisible();

  await team.submitInvite('third@northwind.test');
  await expect(team.inviteDialog.getByTestId('invite-error')).toContainText(
    'Team limit reached. Upgrade your plan for more members. 3 of 3 seats are taken by members and pending invitations.',
  );
  await expect(team.inviteDialog.getByTestId('invite-error').getByRole('link', { name: 'Change the plan' })).toBeVisible();
  await shot(page, 'team-full');
  await team.inviteDialog.getByRole('button', { name: 'Cancel' }).click();

  // Cancel, after confirming: the seat is free and the link refused.
  await team.cancelInvite('first@northwind.test');
  await expect(team.notice).toContainText('The invitation for first@northwind.test (member) was cancelled.');
  await expect(team.inviteRows).toHaveCount(1);
  await expect(team.seats).toHaveText('2 of 3 seats used: 1 member, 1 pending invitation');
  await expect(page.getByTestId('team-full-note')).toHaveCount(0);

  const visitor = await secondBrowser(browser, service);
  const accept = new AcceptInvitePage(visitor);
  await accept.open(first);
  await expect(visitor.getByTestId('accept-invalid')).toContainText('Invalid invitation token');
  await visitor.getByTestId('accept-back').click();
  await expect(new LoginPage(visitor).root).toBeVisible();
  await visitor.context().close();
});

test('accept: signed in with another account, the invitee is told to log out, and after logging out creates the account', async ({ page, service }) => {
  await initOrg(service, { ...DEFAULT_ORG, plan: 'growth' });
  await signIn(page);
  const team = new TeamPage(page);
  await team.goto();
  const link = await team.inviteAndGetLink(INVITEE.email);
  await team.closeLink();

  // The owner opens the link in their own signed-in browser: one Accept button.
  const accept = new AcceptInvitePage(page);
  await accept.open(link);
  await expect(page).toHaveURL(/#\/accept-invite$/);
  await expect(accept.body).toHaveAttribute('data-phase', 'confirm');
  await expect(page.getByTestId('accept-signed-in-as')).toContainText(DEFAULT_ORG.email);
  await page.getByTestId('accept-confirm').click();
  await expect(page.getByTestId('accept-other-account')).toHaveText(
    'This invitation is for another e-mail address. Log out and log in with the invited e-mail.',
  );
  await shot(page, 'accept-other-account');

  await page.getByTestId('accept-logout').click();
  await expect(accept.body).toHaveAttribute('data-phase', 'create');
  await accept.createAccount(INVITEE.name, INVITEE.password);
  await expect(new AppShell(page).userName).toHaveText(INVITEE.name);
  await expect(new TeamPage(page).member(INVITEE.email).getByTestId('member-role')).toHaveAttribute('data-role', 'member');
});

test('accept: an address without a token says so plainly', async ({ page, service }) => {
  await initOrg(service);
  await page.goto('/#/accept-invite');
  await expect(page.getByTestId('accept-invalid')).toContainText('Invalid invitation token');
  await expect(page.getByTestId('accept-invalid')).toContainText('carries no invitation');
});
