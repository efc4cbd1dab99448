// The PostgreSQL schema is SQLite's, written for the other engine (db/postgres/baseline.ts): the
// same tables and columns with the same types, nullability, defaults, keys and indexes, checks that
// refuse the same values, and triggers that leave the same rows. A change to one engine's schema
// only fails here.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresEngine, type Q } from '../db/engine';
import { migratePostgres } from '../db/postgres/migrate';
import { latestVersion } from '../db/migrate';
import { openTestEngine, POSTGRES, type TestEngine } from './engines';
import { AUDIT_ACTIONS, AUDIT_SETTINGS } from '../../../src-shared/contracts/audit';

/** Tables whose SQLite rowid the code reads (the ledger's receipt number). */
const ROWID_READ = ['verifications'];
const TYPE: Record<string, string> = { INTEGER: 'bigint', TEXT: 'text', REAL: 'double precision', BLOB: 'bytea' };

describe.skipIf(!POSTGRES.url)(`PostgreSQL schema beside SQLite's${POSTGRES.url ? '' : ` (skipped: ${POSTGRES.why})`}`, () => {
  let lite: TestEngine;
  let pg: TestEngine;
  beforeAll(async () => {
    [lite, pg] = await Promise.all([openTestEngine('sqlite'), openTestEngine('postgres')]);
  });
  afterAll(async () => {
    await Promise.all([lite?.close(), pg?.close()]);
  });

  it('has the same tables, columns (type, nullability, default), primary keys and indexes', async () => {
    const db = lite.db!;
    const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all();
    const sqliteShape = tables.map(({ name }) => ({
      name,
      columns: db.prepare<[], { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(`PRAGMA table_info("${name}")`).all()
        .map((c) => `${c.name} ${TYPE[c.type]} ${c.notnull || c.pk ? 'not null' : 'null'}${c.dflt_value !== null ? ' default' : ''}`)
        // The implicit rowid the code reads, a column of that name on PostgreSQL.
        .concat(ROWID_READ.includes(name) ? ['rowid bigint not null'] : []),
      pk: db.prepare<[], { name: string; pk: number }>(`PRAGMA table_info("${name}")`).all().filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name),
    }));
    const indexes = db.prepare<[], { name: string; tbl_name: string }>("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").all()
      .map((i) => `${i.tbl_name}.${i.name}(${db.prepare<[], { name: string }>(`PRAGMA index_info("${i.name}")`).all().map((c) => c.name).join(',')})`);

    const q = pg.engine.q;
    const pgTables = (await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'schema_version' ORDER BY table_name`.execute(q)).rows;
    const pgShape = [];
    for (const { name } of pgTables) {
      const cols = (await sql<{ column_name: string; data_type: string; is_nullable: string; column_default: string | null; is_identity: string }>`
        SELECT column_name, data_type, is_nullable, column_default, is_identity FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name = ${name} ORDER BY ordinal_position`.execute(q)).rows;
      const pk = (await sql<{ column_name: string }>`
        SELECT a.attname AS column_name FROM pg_index i
        JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
        WHERE i.indrelid = ${name}::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)`.execute(q)).rows;
      pgShape.push({
        name,
        // SQLite's integer key is its rowid (no declared default); PostgreSQL's is an identity column.
        columns: cols.map((c) => `${c.column_name} ${c.data_type} ${c.is_nullable === 'NO' ? 'not null' : 'null'}${c.column_default !== null ? ' default' : ''}`),
        pk: pk.map((c) => c.column_name),
      });
    }
    const pgIndexes = (await sql<{ tbl: string; name: string; cols: string }>`
      SELECT t.relname AS tbl, c.relname AS name, string_agg(a.attname, ',' ORDER BY k.ord) AS cols
      FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
      WHERE n.nspname = 'public' AND NOT i.indisprimary AND NOT i.indisunique
      GROUP BY t.relname, c.relname ORDER BY c.relname`.execute(q)).rows.map((i) => `${i.tbl}.${i.name}(${i.cols})`);

    expect(pgShape).toEqual(sqliteShape);
    // Text compares byte by byte, as in SQLite, whatever the database's locale.
    const collated = (await sql<{ n: number }>`
      SELECT count(*) AS n FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type = 'text' AND table_name <> 'schema_version' AND collation_name IS DISTINCT FROM 'C'`.execute(q)).rows[0]!;
    expect(Number(collated.n)).toBe(0);
    expect(pgIndexes).toEqual(indexes);
  });

  it('refuses and accepts the same values in its checks', async () => {
    await seedOrg(lite.engine.q);
    await seedOrg(pg.engine.q);
    const cases: [string, (q: Q) => Promise<unknown>, boolean][] = [
      ['a lower-case app scheme', (q) => q.insertInto('organization_app_schemes').values({ org_id: 1, scheme: 'acme+pay.v2' }).execute(), true],
      ['an app scheme with a capital', (q) => q.insertInto('organization_app_schemes').values({ org_id: 1, scheme: 'Acme' }).execute(), false],
      ['an app scheme starting with a digit', (q) => q.insertInto('organization_app_schemes').values({ org_id: 1, scheme: '1acme' }).execute(), false],
      ['an https public URL', (q) => q.insertInto('public_url_setting').values({ id: 1, url: 'https://kyc.example', updated_at: 'x', updated_by: null }).execute(), true],
      ['an ftp public URL', (q) => q.insertInto('public_url_setting').values({ id: 1, url: 'ftp://kyc.example', updated_at: 'x', updated_by: null }).onConflict((c) => c.column('id').doNothing()).execute(), false],
      ['private hosts that are not a JSON array', (q) => q.updateTable('organizations').set({ webhook_private_hosts: '{"a":1}' }).where('id', '=', 1).execute(), false],
      ['private hosts as a JSON array', (q) => q.updateTable('organizations').set({ webhook_private_hosts: '["10.0.0.0/8"]' }).where('id', '=', 1).execute(), true],
      ['an unknown audit action', (q) => q.insertInto('audit_log').values(audit('screened.maybe')).execute(), false],
      ['a known audit action', (q) => q.insertInto('audit_log').values(audit('screened')).execute(), true],
      ['an unknown audited setting', (q) => q.insertInto('audit_log').values({ ...audit('settings.changed'), setting: 'favourite_colour' as never }).execute(), false],
      ['every audited setting', (q) => q.insertInto('audit_log').values(AUDIT_SETTINGS.map((setting) => ({ ...audit('settings.changed'), setting }))).execute(), true],
      ['every audit action', (q) => q.insertInto('audit_log').values(AUDIT_ACTIONS.map((action) => audit(action))).execute(), true],
      ['an unknown reason code', (q) => q.insertInto('audit_log').values({ ...audit('clearance.requested'), reason_code: 'felt_like_it' as never }).execute(), false],
      ['an unknown disposition', (q) => q.insertInto('audit_log').values({ ...audit('disposition.set'), disposition: 'shrugged' as never }).execute(), false],
      ['a plan not sold', (q) => q.updateTable('organizations').set({ plan: 'platinum' as never }).where('id', '=', 1).execute(), false],
      ['a flag of 2', (q) => q.updateTable('organizations').set({ four_eyes: 2 }).where('id', '=', 1).execute(), false],
    ];
    for (const [what, write, ok] of cases) {
      for (const { engine } of [lite, pg]) {
        const done = await write(engine.q).then(() => true, () => false);
        expect(`${engine.dialect}: ${what}: ${done ? 'accepted' : 'refused'}`).toBe(`${engine.dialect}: ${what}: ${ok ? 'accepted' : 'refused'}`);
      }
    }
  });

  it('keeps the report rollups, the credit checkpoint and the append-only logs by its triggers, as SQLite does', async () => {
    const out: Record<string, unknown>[] = [];
    for (const { engine } of [lite, pg]) {
      const q = engine.q;
      await q.insertInto('api_keys').values([key('k_live', 0), key('k_demo', 1)]).onConflict((c) => c.doNothing()).execute();
      await q.insertInto('audit_log').values(audit('screened')).execute();
      const confidences = [0.25, 2.5, 49.95, 50, 69.99, 70, 84.95, 85, 99.25, null];
      let i = 0;
      for (const confidence of confidences) {
        await q.insertInto('verifications').values(verification(`v_${i}`, confidence, i % 3 === 0 ? null : 'k_live', i % 2 ? 'sanctions' : null)).execute();
        i++;
      }
      await q.insertInto('verifications').values(verification('v_demo', 90, 'k_demo', null)).execute();
      await q.updateTable('verifications').set({ status: 'failed', confidence: 12.5 }).where('id', '=', 'v_1').execute();
      await q.deleteFrom('verifications').where('id', '=', 'v_2').execute();

      await q.insertInto('credit_entries').values([credit(100), credit(-7), credit(-3)]).execute();
      const refusals = await Promise.all([
        q.updateTable('audit_log').set({ at: 'y' }).execute().then(() => 'updated', (e: Error) => e.message),
        q.deleteFrom('audit_log').execute().then(() => 'deleted', (e: Error) => e.message),
        q.updateTable('credit_entries').set({ amount: 1000 }).execute().then(() => 'updated', (e: Error) => e.message),
        q.deleteFrom('credit_entries').execute().then(() => 'deleted', (e: Error) => e.message),
      ]);
      out.push({
        daily: await q.selectFrom('report_daily').selectAll().orderBy('day').orderBy('product').orderBy('api_key_id').orderBy('status').orderBy('hits').orderBy('error_code').execute(),
        confidence: await q.selectFrom('report_confidence').selectAll().orderBy('day').orderBy('conf10').execute(),
        balance: await q.selectFrom('credit_balances').select(['org_id', 'balance']).execute(),
        lastEntry: (await q.selectFrom('credit_balances').select('last_entry_id').executeTakeFirstOrThrow()).last_entry_id
          === (await q.selectFrom('credit_entries').select((e) => e.fn.max('id').as('m')).executeTakeFirstOrThrow()).m,
        refusals: refusals.map((m) => (/append-only/.test(m) ? 'append-only' : m)),
      });
    }
    expect(out[0]!.refusals).toEqual(['append-only', 'append-only', 'append-only', 'append-only']);
    expect((out[0]!.daily as unknown[]).length).toBeGreaterThan(3);
    expect(out[1]).toEqual(out[0]);
  });

  it('migrates once when several instances start together, and refuses a database from a newer version', async () => {
    const empty = await openTestEngine('postgres', { migrate: false });
    const instances = [0, 1, 2].map(() => postgresEngine(empty.url!, { max: 1 }));
    try {
      const results = await Promise.all(instances.map((e) => migratePostgres(e)));
      // One found the database empty; the others waited for it and found the work done.
      expect(results.map((r) => r.from).sort()).toEqual([0, latestVersion(), latestVersion()]);
      await sql`UPDATE schema_version SET version = ${latestVersion() + 1}`.execute(empty.engine.q);
      await expect(migratePostgres(instances[0]!)).rejects.toThrow(/newer than this app supports/);
    } finally {
      await Promise.all(instances.map((e) => e.close()));
      await empty.close();
    }
  });
});

async function seedOrg(q: Q): Promise<void> {
  await q.insertInto('organizations').values({ name: 'Acme', plan: 'pro', created_at: '2026-12-01T00:00:00.000Z' }).execute();
}

function audit(action: string) {
  return {
    at: '2026-12-01T00:00:00.000Z', org_id: 1, actor_kind: 'system' as const, actor_id: null, actor_role: null, action: action as 'screened', env: null,
    screening_id: null, batch_id: null, row_number: null, entity_ids: null, record_hashes: null, disposition: null, reason_code: null, has_note: null,
    clearance_id: null, approver_user_id: null, key_id: null, list_id: null, setting: null, from_value: null, to_value: null, count_total: null,
    count_done: null, count_failed: null, risk_score: null, target_user_id: null, client_ref_hmac: null, prev_hash: '0', hash: '1',
    invitation_id: null, override_contradiction: null, object_id: null, source_address: null,
  };
}

function key(id: string, demo: number) {
  return {
    id, org_id: 1, name: id, key_hash: `h_${id}`, secret_hash: `s_${id}`, prefix: id, env: 'live' as const, scopes: '[]', demo, created_by: null,
    created_at: '2026-12-01T00:00:00.000Z', revoked_at: null, last_used_at: null,
  };
}

function verification(id: string, confidence: number | null, apiKey: string | null, hits: string | null) {
  return {
    id, org_id: 1, api_key_id: apiKey, product: (confidence === null ? 'screen' : 'human') as 'human', env: 'live' as const, status: 'passed',
    confidence, credits: 2, billable: 1, error_code: null, latency_ms: confidence === null ? null : 120,
    created_at: `2026-12-0${1 + (id.length % 2)}T10:00:00.000Z`, completed_at: null, hit_categories: hits, client_ref_hmac: null, liveness_evidence: null,
  };
}

function credit(amount: number) {
  return { org_id: 1, amount, kind: (amount > 0 ? 'grant' : 'charge') as 'grant', product: null, verification_id: null, env: null, note: null, created_at: '2026-12-01T00:00:00.000Z' };
}
