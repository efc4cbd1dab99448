// Report exports queued, downloaded and cancelled by people in the console: each act and its
// audit row commit together (the row names the export by id, environment and what it holds).
// Each use case takes only the services it uses.
import { seesCredits } from '../../../../src-shared/policy';
import type { CreateExport } from '../exports/exports';
import type { OrgRow, UserRow } from '../accounts/repo';
import { actorOf, type Audit } from '../audit/audit';
import type { Exports } from '../exports/exports';

interface ExportDeps { exports: Exports; audit: Audit }

/** What an export holds, for its audit rows: `overview/pdf` (codes, at most 26 characters). */
const what = (r: { report_type: string; format: string }) => `${r.report_type}/${r.format}`;

export async function queueExport(d: ExportDeps, user: UserRow, org: OrgRow, body: CreateExport) {
  const row = await d.audit.atomically(async (tx) => {
    // The credits section follows the maker's access now (src-shared/policy.ts), kept with the job.
    const row = await d.exports.create(user, org, body, seesCredits(user), tx);
    await d.audit.record({ orgId: org.id, actor: actorOf(user), action: 'export.created', env: row.env, objectId: String(row.id), to: what(row) }, tx);
    return row;
  });
  // Committed: the queue may take it now.
  d.exports.kick();
  return row;
}

export function downloadExport(d: ExportDeps, user: UserRow, org: OrgRow, id: number) {
  return d.audit.atomically(async (tx) => {
    const file = await d.exports.download(org, id, tx);
    await d.audit.record({ orgId: org.id, actor: actorOf(user), action: 'export.downloaded', env: file.env, objectId: String(id), to: what(file) }, tx);
    return file;
  });
}

export function cancelExport(d: ExportDeps, user: UserRow, org: OrgRow, id: number): Promise<void> {
  return d.audit.atomically(async (tx) => {
    const row = await d.exports.cancel(user, org, id, tx);
    await d.audit.record({ orgId: org.id, actor: actorOf(user), action: 'export.cancelled', env: row.env, objectId: String(id), to: what(row) }, tx);
  });
}
