// The verification ledger on both engines: the same page for the same filter (newest first, the
// key's name, an id prefix or a client reference's HMAC), receipt numbers, and a waiting flow
// moved once.
import { describe, expect, it } from 'vitest';
import { ENGINES, testEngines } from '../../test/engines';
import { createLedger } from './ledger';
import { verificationRepo, type VerificationRow } from './repo';

const engines = testEngines();

const row = (id: string, at: string, over: Partial<VerificationRow> = {}): VerificationRow => ({
  id, org_id: 1, api_key_id: 'key_a', product: 'human', env: 'live', status: 'PASS', confidence: 90, credits: 1, billable: 1, error_code: null,
  latency_ms: 100, created_at: at, completed_at: at, ...over,
});

describe.each(ENGINES)('the ledger on $dialect', ({ dialect, skip }) => {
  it.skipIf(skip)(`pages, searches, numbers and completes as on the other engine${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const t = await engines.open(dialect);
    const { q } = t.engine;
    await q.insertInto('organizations').values({ name: 'Acme', plan: 'pro', created_at: 'x' }).execute();
    await q.insertInto('api_keys').values({ id: 'key_a', org_id: 1, name: 'Shop', key_hash: 'h', secret_hash: 's', prefix: 'p', env: 'live', scopes: '[]', created_at: 'x' }).execute();
    const rows = [
      row('ver_aa1', '2026-12-01T10:00:00.000Z'),
      row('ver_aa2', '2026-12-02T10:00:00.000Z', { status: 'FAIL', client_ref_hmac: 'f'.repeat(64) }),
      row('ver_ab1', '2026-12-03T10:00:00.000Z', { api_key_id: null, product: 'age', status: 'id_required' }),
      row('ver_b_1', '2026-12-04T10:00:00.000Z', { env: 'test' }),
    ];
    for (const r of rows) await verificationRepo.insert(q, r);
    const ledger = createLedger(t.engine, (ref) => (ref === 'ORDER-7' ? 'f'.repeat(64) : '0'.repeat(64)));
    const base = { env: 'live' as const, page: 1, per_page: 10 };
    const ids = async (extra: Record<string, unknown>) => (await ledger.page(1, { ...base, ...extra } as never)).entries.map((e) => e.verification_id);

    const all = await ledger.page(1, base as never);
    expect(all).toMatchObject({ total: 3, pages: 1, statuses: ['FAIL', 'PASS', 'id_required'] });
    expect(all.entries.map((e) => [e.verification_id, e.api_key_name])).toEqual([['ver_ab1', null], ['ver_aa2', 'Shop'], ['ver_aa1', 'Shop']]);
    expect(await ids({ search: 'ver_aa' })).toEqual(['ver_aa2', 'ver_aa1']);
    expect(await ids({ search: 'ORDER-7' })).toEqual(['ver_aa2']);
    expect(await ids({ key: 'console' })).toEqual(['ver_ab1']);
    expect(await ids({ status: 'PASS', product: 'human' })).toEqual(['ver_aa1']);
    expect(await ids({ from: '2026-12-02T00:00:00.000Z', to: '2026-12-03T00:00:00.000Z' })).toEqual(['ver_aa2']);
    expect((await ledger.page(1, { ...base, per_page: 2, page: 2 } as never)).entries.map((e) => e.verification_id)).toEqual(['ver_aa1']);

    const numbers = await Promise.all(rows.map((r) => ledger.numberOf(r.id)));
    expect(numbers.every((n) => Number.isInteger(n))).toBe(true);
    expect([...numbers].sort((a, b) => a! - b!)).toEqual(numbers);
    expect(await ledger.numberOf('ver_none')).toBeUndefined();

    const move = () => verificationRepo.complete(q, { id: 'ver_ab1', waiting: 'id_required', status: 'success', confidence: 80, error_code: null, completed_at: 'y', latency_ms: 50 });
    expect(await move()).toBe(true);
    expect(await move()).toBe(false);
    expect(await ledger.get('ver_ab1')).toMatchObject({ status: 'success', latency_ms: 150 });
    expect(await ledger.findForKey('ver_b_1', 1, 'live')).toBeUndefined();
    expect(await ledger.findForKey('ver_b_1', 1, 'test')).toMatchObject({ id: 'ver_b_1' });
  });
});
