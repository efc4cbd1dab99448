// Signed in to a new organisation and on Screening once the service has loaded its lists, with
// the Lists panel in view: where the list specs start.
import type { Page } from '@playwright/test';
import { ListsPage } from '../pages/lists-page';
import { ScreeningPage } from '../pages/screening-page';
import { initOrg, signIn, type TestOrg } from './accounts';
import type { Service } from './service';

export async function openListsPanel(page: Page, service: Service, org: TestOrg): Promise<{ lists: ListsPage; screening: ScreeningPage }> {
  await initOrg(service, org);
  await signIn(page, org);
  const lists = new ListsPage(page);
  await lists.waitForServiceLists();
  const screening = new ScreeningPage(page);
  await screening.goto();
  await screening.waitForLists();
  await lists.waitForPanel();
  return { lists, screening };
}
