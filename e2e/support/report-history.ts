// Ledger history for the report and export specs: the reports' own history generator
// (core/reports/history.ts, the demo's) writes about `rows` ledger rows over `days` days into the
// test's database through a second connection, as the CLI does while the service runs. Two named
// test keys come first so usage by key has names. Run it before the first report is asked for:
// the service's report cache only learns of ledger changes it made itself.
import { openDatabase } from '../../src-main/service/db/open';
import { generateHistory } from '../../src-main/service/core/reports/history';
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
