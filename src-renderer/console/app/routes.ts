// Every screen of the console, in nav order. Screens that are not built yet name the capability
// they arrive with and render an honest placeholder (never sample data).
import type { ComponentType } from 'react';
import { AgeGateScreen } from '../screens/age-gate/AgeGateScreen';
import { ApiKeysScreen } from '../screens/api-keys/ApiKeysScreen';
import { ApiReferenceScreen } from '../screens/api-reference/ApiReferenceScreen';
import { ApprovalsScreen } from '../screens/approvals/ApprovalsScreen';
import { AuditScreen } from '../screens/audit/AuditScreen';
import { BatchScreen } from '../screens/batch/BatchScreen';
import { ExportsScreen } from '../screens/exports/ExportsScreen';
import { HomeScreen } from '../screens/home/HomeScreen';
import { HostedScreen } from '../screens/hosted/HostedScreen';
import { PlanScreen } from '../screens/plan/PlanScreen';
import { ReportsScreen } from '../screens/reports/ReportsScreen';
import { ReviewScreen } from '../screens/review/ReviewScreen';
import { ScreeningScreen } from '../screens/screening/ScreeningScreen';
import { SettingsScreen } from '../screens/settings/SettingsScreen';
import { TeamScreen } from '../screens/team/TeamScreen';
import { VerificationsScreen } from '../screens/verifications/VerificationsScreen';
import { WebhooksScreen } from '../screens/webhooks/WebhooksScreen';
import type { Act } from '../../../src-shared/policy';

export interface RouteDef {
  path: string;
  label: string;
  group: NavGroup;
  /** What the screen does, one sentence; shown on its placeholder and as its subtitle. */
  summary: string;
  screen?: ComponentType;
  /** For screens not built yet: the capability they arrive with. */
  arrivesWith?: string;
  /** Only roles this act allows see the screen in the navigation (the service enforces the same). */
  act?: Act;
}

export const NAV_GROUPS = ['Compliance', 'Verification', 'Insights', 'Organization'] as const;
export type NavGroup = (typeof NAV_GROUPS)[number];

export const ROUTES: readonly RouteDef[] = [
  {
    path: 'home', label: 'Home', group: 'Compliance', screen: HomeScreen,
    summary: 'What needs attention today, and the next step of setting up.',
  },
  {
    path: 'screening', label: 'Screening', group: 'Compliance', screen: ScreeningScreen,
    summary: 'Screen a person against the sanctions and watchlists on this computer.',
  },
  {
    path: 'rescreen', label: 'Batch rescreen', group: 'Compliance', screen: BatchScreen,
    summary: 'Rescreen a whole customer file against the current lists and see what changed.',
  },
  {
    path: 'review', label: 'Risk review', group: 'Compliance', screen: ReviewScreen,
    summary: 'Work through what changed in a batch rescreen: risk increases, decreases and new matches, with the reasons behind each.',
  },
  {
    path: 'approvals', label: 'Approvals', group: 'Compliance', screen: ApprovalsScreen, act: 'review.approve',
    summary: 'Cleared strong sanctions matches waiting for a second person: approve them, or send them back with a note.',
  },
  {
    path: 'verifications', label: 'Verifications', group: 'Verification', screen: VerificationsScreen,
    summary: 'Liveness, age, identity and compliance checks made with your API keys.',
  },
  {
    path: 'hosted', label: 'Hosted sessions', group: 'Verification', screen: HostedScreen,
    summary: 'Verification pages this service hosts for your customers to complete on their phones.',
  },
  {
    path: 'age-gate', label: 'Age gate', group: 'Verification', screen: AgeGateScreen,
    summary: 'The age check on your online store: its settings, a live preview and the script tag to paste.',
  },
  {
    path: 'reports', label: 'Reports', group: 'Insights', screen: ReportsScreen,
    summary: 'Volumes, pass rates, risk and regulatory coverage over a date range.',
  },
  {
    path: 'exports', label: 'Exports', group: 'Insights', screen: ExportsScreen,
    summary: 'PDF and CSV exports of your reports, kept for 24 hours.',
  },
  {
    path: 'team', label: 'Team', group: 'Organization', screen: TeamScreen,
    summary: 'Members of your organization, their roles and pending invitations.',
  },
  {
    path: 'keys', label: 'API keys', group: 'Organization', screen: ApiKeysScreen,
    summary: 'Keys your backend uses to call this service, per environment and product scope.',
  },
  {
    path: 'api-reference', label: 'API reference', group: 'Organization', screen: ApiReferenceScreen,
    summary: 'Every endpoint of this service, its authentication and schemas, with "Try it out" on a test key.',
  },
  {
    path: 'webhooks', label: 'Webhooks', group: 'Organization', screen: WebhooksScreen,
    summary: 'Endpoints that receive verification events, per environment.',
  },
  {
    path: 'plan', label: 'Plan & credits', group: 'Organization', screen: PlanScreen,
    summary: 'Your plan, its limits, your credit balance and every credit movement.',
  },
  {
    path: 'audit', label: 'Audit log', group: 'Organization', screen: AuditScreen, act: 'audit.read',
    summary: 'Who screened, ran batches, decided dispositions and changed keys, lists, plan and settings, and when.',
  },
  {
    path: 'settings', label: 'Settings', group: 'Organization', screen: SettingsScreen,
    summary: 'How your organization reviews: four-eyes approval of cleared sanctions matches.',
  },
];

export const HOME = 'home';

export function findRoute(path: string): RouteDef | undefined {
  return ROUTES.find((r) => r.path === path);
}
