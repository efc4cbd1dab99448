// What a KYC report needs, held in memory for a short window after the verification and never
// stored: the screening result and the identity checks of one KYC-plus verification. After the
// window (or a restart) generate_report answers 404 saying so. Bounded: the oldest entries go
// first when it is full.
import type { ListVersion } from '../../../../src-shared/contracts/screening';
import { isOfficialSource, SOURCE_INFO } from '../screening/lists/sources';
import type { KycReportInput, ReportList } from './report-pdf';

/** Reports can be made for 30 minutes after the verification (docs/decisions.md). */
export const REPORT_WINDOW_MS = 30 * 60_000;
const MAX_ENTRIES = 2000;

export type HeldReport = Omit<KycReportInput, 'generatedAt' | 'generatedBy' | 'organisation'>;

/**
 * The lists a screening answered, each with the title readers know it by: the loaded list's own
 * title (an official source's from SOURCE_INFO, a user list's name), else the official title, else
 * the source id. Everything the version carries is kept.
 */
export function reportLists(versions: readonly ListVersion[], catalog: readonly { source: string; title: string }[]): ReportList[] {
  return versions.map((v) => ({
    ...v,
    title: catalog.find((c) => c.source === v.source)?.title ?? (isOfficialSource(v.source) ? SOURCE_INFO[v.source].title : v.source),
  }));
}

interface Entry {
  orgId: number;
  env: string;
  expiresAt: number;
  report: HeldReport;
}

export function createReportStore(now: () => number) {
  const held = new Map<string, Entry>();
  const sweep = () => {
    const t = now();
    for (const [id, e] of held) if (e.expiresAt <= t) held.delete(id);
  };
  return {
    hold(id: string, orgId: number, env: string, report: HeldReport): void {
      sweep();
      while (held.size >= MAX_ENTRIES) held.delete(held.keys().next().value!);
      held.set(id, { orgId, env, expiresAt: now() + REPORT_WINDOW_MS, report });
    },
    /** The held report of this organisation and environment, or null (never held, expired, or another's). */
    take(id: string, orgId: number, env: string): HeldReport | null {
      sweep();
      const e = held.get(id);
      return e && e.orgId === orgId && e.env === env ? e.report : null;
    },
    size: () => (sweep(), held.size),
    clear: () => held.clear(),
  };
}
export type ReportStore = ReturnType<typeof createReportStore>;
