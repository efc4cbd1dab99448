// Ledger history for the report and export specs: the reports' own history generator
// (core/reports/history.ts, the demo's) writes about `rows` ledger rows over `days` days into the
// test's database through a second connection, as the CLI does while the service runs. Two named
// test keys come first so usage by key has names. Run it before the first report is asked for:
// the service's report cache only learns of ledger changes it made itself.
import { openDatabase } from '../../src-main/service/db/open';
import { createAudit } from '../../src-main/service/core/audit/audit';
import { sqliteEngine } from '../../src-main/service/db/engine';
import { loadInstallSecret } from '../../src-main/service/core/install-secret';
import { generateHistory } from '../../src-main/service/core/reports/history';
import type { Disposition } from '../../src-shared/contracts/review';
import type { Service } from './service';

export async function seedHistory(service: Service, { rows = 1200, days = 90, seed = 13 } = {}): Promise<{ from: string; to: string }> {
  await service.cli('keys', 'create', '--env', 'test', '--scopes', 'human,age,identity', '--name', 'Checkout backend');
  await service.cli('keys', 'create', '--env', 'test', '--scopes', 'human,age', '--name', 'Age widget');
  const db = openDatabase(service.dataDir);
  try {
    const org = db.prepare('SELECT id FROM organizations ORDER BY id LIMIT 1').get() as { id: number };
    const made = generateHistory(db, { orgId: org.id, rows, days, env: 'test', seed });
    return { from: made.from, to: made.to };
  } finally {
    db.close();
  }
}

/**
 * Review decisions on the first `count` screenings with a hit, written as the review code writes
 * them (audit rows through the audit module, on the install's chain), each some minutes after its
 * screening's result: escalated, cleared, needs info, and a clearing waiting for approval, in turn.
 */
export async function seedDecisions(service: Service, count = 12): Promise<void> {
  const db = openDatabase(service.dataDir);
  try {
    const owner = db.prepare("SELECT id, org_id FROM users WHERE role = 'owner' ORDER BY id LIMIT 1").get() as { id: number; org_id: number };
    let now = 0;
    const engine = sqliteEngine(db);
    const audit = createAudit(engine, { now: () => now }, await loadInstallSecret(engine), { byId: async () => undefined, ofOrg: async () => [] });
    const screened = db.prepare(
      `SELECT id, coalesce(completed_at, created_at) AS result_at FROM verifications
       WHERE org_id = ? AND product IN ('screen', 'rescreen') AND hit_categories IS NOT NULL AND hit_categories != '' ORDER BY created_at, id LIMIT ?`,
    ).all(owner.org_id, count) as { id: string; result_at: string }[];
    const turns: (Disposition | 'awaiting')[] = ['escalated', 'cleared_false_positive', 'needs_info', 'awaiting'];
    for (const [i, s] of screened.entries()) {
      now = Date.parse(s.result_at) + (i + 1) * 37 * 60_000;
      const turn = turns[i % turns.length]!;
      const common = { orgId: owner.org_id, actor: { kind: 'user' as const, userId: owner.id, role: 'owner' as const }, batchId: 'bat_seeded', rowNumber: i + 1, screeningId: s.id };
      if (turn === 'awaiting') await audit.record({ ...common, action: 'clearance.requested', disposition: 'cleared_false_positive', reasonCode: 'different_dob', clearanceId: `clr_seeded_${i}` });
      else await audit.record({ ...common, action: 'disposition.set', disposition: turn, ...(turn === 'cleared_false_positive' ? { reasonCode: 'different_dob' as const } : {}) });
    }
  } finally {
    db.close();
  }
}
