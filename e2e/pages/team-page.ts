import { expect, type Locator, type Page } from '@playwright/test';

export class TeamPage {
  readonly members: Locator;
  readonly memberRows: Locator;
  readonly invites: Locator;
  readonly inviteRows: Locator;
  readonly seats: Locator;
  readonly inviteButton: Locator;
  readonly notice: Locator;
  readonly inviteDialog: Locator;
  readonly linkDialog: Locator;
  readonly removeDialog: Locator;
  readonly cancelDialog: Locator;
  constructor(readonly page: Page) {
    this.members = page.getByTestId('members-table');
    this.memberRows = this.members.getByTestId('member-row');
    this.invites = page.getByTestId('invites-table');
    this.inviteRows = this.invites.getByTestId('invite-row');
    this.seats = page.getByTestId('team-seats');
    this.inviteButton = page.getByTestId('invite-member');
    this.notice = page.getByTestId('team-notice');
    this.inviteDialog = page.getByTestId('invite-dialog');
    this.linkDialog = page.getByTestId('invite-link-dialog');
    this.removeDialog = page.getByTestId('remove-member-dialog');
    this.cancelDialog = page.getByTestId('remove-invite-dialog');
  }

  async goto(): Promise<void> {
    await this.page.goto('/#/team');
    await expect(this.members).toBeVisible();
  }

  member(email: string): Locator {
    return this.memberRows.filter({ has: this.page.getByTestId('member-email').getByText(email, { exact: true }) });
  }

  invite(email: string): Locator {
    return this.inviteRows.filter({ has: this.page.getByTestId('invite-email').getByText(email, { exact: true }) });
  }

  /** Opens the dialog (if closed), fills it in and submits. */
  async submitInvite(email: string, role?: 'member' | 'admin'): Promise<void> {
    if (!(await this.inviteDialog.isVisible())) {
      await this.inviteButton.click();
      await expect(this.inviteDialog).toBeVisible();
    }
    await this.inviteDialog.getByTestId('invite-email').fill(email);
    if (role) await this.inviteDialog.getByTestId(`invite-role-${role}`).check();
    await this.inviteDialog.getByTestId('invite-submit').click();
  }

  /** Invites and returns the acceptance link from the one-time dialog (left open). */
  async inviteAndGetLink(email: string, role?: 'member' | 'admin'): Promise<string> {
    await this.submitInvite(email, role);
    await expect(this.linkDialog).toBeVisible();
    return this.linkDialog.getByTestId('invite-link').inputValue();
  }

  async closeLink(): Promise<void> {
    await this.linkDialog.getByTestId('invite-link-done').click();
    await expect(this.linkDialog).toBeHidden();
  }

  async remove(email: string): Promise<void> {
    await this.member(email).getByTestId('remove-member').click();
    await expect(this.removeDialog).toBeVisible();
    await this.removeDialog.getByTestId('confirm-remove-member').click();
    await expect(this.removeDialog).toBeHidden();
  }

  async cancelInvite(email: string): Promise<void> {
    await this.invite(email).getByTestId('cancel-invite').click();
    await expect(this.cancelDialog).toBeVisible();
    await expect(this.cancelDialog.getByTestId('cancel-invite-email')).toHaveText(email);
    await this.cancelDialog.getByTestId('confirm-remove-invite').click();
    await expect(this.cancelDialog).toBeHidden();
  }
}

/** The acceptance screen, in whatever browser context opened the link. */
export class AcceptInvitePage {
  readonly root: Locator;
  readonly body: Locator;
  constructor(readonly page: Page) {
    this.root = page.getByTestId('accept-invite');
    this.body = page.getByTestId('accept-invite-body');
  }

  async open(link: string): Promise<void> {
    await this.page.goto(link);
    await expect(this.root).toBeVisible();
    await expect(this.body).not.toHaveAttribute('data-phase', 'checking');
  }

  async createAccount(name: string, password: string, confirm = password): Promise<void> {
    await expect(this.body).toHaveAttribute('data-phase', 'create');
    await this.page.getByTestId('accept-name').fill(name);
    await this.page.getByTestId('accept-password').fill(password);
    await this.page.getByTestId('accept-confirm').fill(confirm);
    await this.page.getByTestId('accept-create').click();
  }
}
