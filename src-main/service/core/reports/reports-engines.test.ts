// The reports on both engines: the same ledger (every product, outcome, key, confidence, latency,
// charge and list hit), written to SQLite and to PostgreSQL, and the same review decisions, read
// as the same figures by every V1 and V2.1 report, an export's bundle included. The rollups are
// kept by each engine's own triggers, so this also holds those triggers to one another.
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../db/engine';
import { accountsAndAudit, POSTGRES, testEngines } from '../../test/engines';
import { ManualClock } from '../clock';
import { createReportFlags } from './flags';
import { createReports } from './reports';

const engines = testEngines();
const END = Date.parse('2026-11-30T18:00:00.000Z');
const PRODUCTS = ['human', 'age', 'identity', 'compliance', 'screen', 'rescreen'] as const;
const STATUSES = ['PASS', 'FAIL', 'PASS', 'ERROR', 'PASS', 'FAIL'] as const;
const ERRORS = [null, 'face_mismatch', null, 'provider_unavailable', null, 'document_expired'] as const;
const HITS = ['', 'sanctions', '', 'pep', 'sanctions,pep', ''];

/** A deterministic ledger of `n` rows over the 30 days before END, two keys and the console. */
async function seed(engine: Engine): Promise<void> {
  const orgId = (await engine.q.insertInto('organizations').values({ name: 'Acme', plan: 'enterprise', created_at: '2026-10-01T00:00:00.000Z' }).returning('id').executeTakeFirstOrThrow()).id;
  await engine.q.insertInto('users').values({ org_id: orgId, email: 'o@example.test', name: 'O', password_hash: 'x', role: 'owner', created_at: '2026-10-01T00:00:00.000Z' }).execute();
  await engine.q.insertInto('api_keys').values(['a', 'b'].map((k) => ({
    id: `key_${k}`, org_id: orgId, name: `Key ${k.toUpperCase()}`, key_hash: `h${k}`, secret_hash: `s${k}`, prefix: `svk-${k}`, env: 'live' as const, scopes: 'human', created_at: '2026-10-01T00:00:00.000Z',
  }))).execute();
  const rows = Array.from({ length: 600 }, (_, i) => {
    const product = PRODUCTS[i % 6]!;
    const k = (i + Math.floor(i / 6)) % 6; // every outcome for every product
    const screening = product === 'screen' || product === 'rescreen' || product === 'compliance';
    const at = new Date(END - ((i * 3_611_000) % (30 * 86_400_000))).toISOString();
    return {
      id: `ver_${String(i).padStart(4, '0')}`, org_id: orgId, api_key_id: i % 3 === 0 ? null : i % 3 === 1 ? 'key_a' : 'key_b', product, env: 'live' as const,
      status: STATUSES[k]!, error_code: ERRORS[k]!, confidence: k === 3 ? null : Math.round((((i * 37) % 100) + 0.25) * 100) / 100,
      credits: k === 3 ? 0 : 10, billable: k === 3 ? 0 : 1, latency_ms: 200 + ((i * 131) % 5000), created_at: at, completed_at: at,
      hit_categories: screening ? HITS[i % 6]! : null,
    };
  });
  for (let i = 0; i < rows.length; i += 200) await engine.q.insertInto('verifications').values(rows.slice(i, i + 200)).execute();
  // Review decisions on some screenings: cleared, escalated, a clearance awaiting approval.
  const { audit } = accountsAndAudit(engine, new ManualClock(END));
  const screened = rows.filter((r) => r.product === 'screen' && r.hit_categories).slice(0, 12);
  for (const [j, r] of screened.entries()) {
    const actor = { kind: 'user' as const, userId: 1, role: 'owner' as const };
    if (j % 3 === 2) await audit.record({ orgId, actor, action: 'clearance.requested', screeningId: r.id, env: 'live', disposition: 'cleared_false_positive' });
    else await audit.record({ orgId, actor, action: 'disposition.set', screeningId: r.id, env: 'live', disposition: j % 3 === 0 ? 'cleared_false_positive' : 'escalated' });
  }
}

async function figures(engine: Engine): Promise<unknown> {
  const reports = createReports(engine, new ManualClock(END), { flags: createReportFlags({}, {}), balance: async () => 5000 });
  const who = { orgId: 1, plan: 'enterprise' as const, canViewCredits: true };
  const p = { env: 'live' as const, from: '2026-11-01', to: '2026-11-30', granularity: 'week' as const, limit: 100, page: 1, perPage: 100 };
  const v1 = Object.fromEntries(await Promise.all((['overview', 'volume', 'usage', 'risk-summary', 'widget-performance', 'regulatory-coverage'] as const)
    .map(async (r) => [r, (await reports.v1(r, who, p, { cache: false })).data] as const)));
  return { v1, bundle: await reports.bundle('full-v21', who, { env: 'live', from: '2026-11-01', to: '2026-11-30' }) };
}

describe('reports on both engines', () => {
  it.skipIf(!POSTGRES.url)(`read the same figures from the same ledger on PostgreSQL as on SQLite${POSTGRES.url ? '' : ` (skipped: ${POSTGRES.why})`}`, async () => {
    const [lite, pg] = [await engines.open('sqlite'), await engines.open('postgres')];
    await seed(lite.engine);
    await seed(pg.engine);
    const onSqlite = await figures(lite.engine);
    expect((onSqlite as { v1: { overview: { total_verifications: number } } }).v1.overview.total_verifications).toBeGreaterThan(0);
    expect(JSON.stringify(onSqlite)).toContain('awaiting_approval');
    expect(await figures(pg.engine)).toEqual(onSqlite);
  });
});
