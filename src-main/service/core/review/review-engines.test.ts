// Four-eyes clearances on both engines: a clearance waiting for approval is approved once however
// many approvers act at once, on however many instances (three on one PostgreSQL), and one sent
// back meanwhile is not approved after; the queue and its count agree.
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../db/engine';
import { accountsAndAudit, ENGINES, TEST_SECRET, testEngines, together } from '../../test/engines';
import type { SessionContext } from '../accounts/accounts';
import { ManualClock } from '../clock';
import { clearanceRepo } from './repo';
import { createReview } from './review';

const clock = new ManualClock(Date.parse('2026-12-04T09:00:00.000Z'));
const engines = testEngines();

function service(engine: Engine) {
  const { accounts, audit } = accountsAndAudit(engine, clock);
  return { accounts, audit, review: createReview(engine, clock, { accounts, audit, secret: TEST_SECRET }) };
}

/** An organisation with an analyst and two approvers, and one clearance of the analyst's waiting. */
async function waiting(engine: Engine) {
  const { accounts } = service(engine);
  const { org, user: owner } = await accounts.setup({ organization: 'Acme', name: 'Olga', email: 'olga@acme.test', password: 'owner password 1' });
  const admin = await accounts.addUser({ orgId: org.id, email: 'ada@acme.test', name: 'Ada', password: 'admin password 1', role: 'admin' });
  const analyst = await accounts.addUser({ orgId: org.id, email: 'ann@acme.test', name: 'Ann', password: 'member password', role: 'member' });
  await clearanceRepo.insert(engine.q, {
    id: 'clr_1', org_id: org.id, batch_id: 'bat_1', row_number: 1, screening_id: 'scr_1', entity_ids: '["e1"]', record_hashes: '["h1"]',
    reason_code: 'different_dob', has_note: 0, client_ref_hmac: null, requested_by: analyst.id, requested_at: '2026-12-04T08:00:00.000Z',
    override_contradiction: null, match_flags: null,
  });
  const as = (user: typeof owner): SessionContext => ({ user, org, tokenHash: 'x' });
  return { org, owner: as(owner), admin: as(admin), analyst: as(analyst) };
}

describe.each(ENGINES)('four-eyes clearances on $dialect', ({ dialect, skip }) => {
  const why = skip ? ` (skipped: ${skip})` : '';

  it.skipIf(skip)(`approved once by approvers acting at once through ${dialect === 'postgres' ? 'three instances' : 'one instance'}${why}`, async () => {
    const t = await engines.open(dialect);
    const w = await waiting(t.engine);
    const instances = engines.instances(t, 3, 3);
    const services = instances.map(service);
    // On PostgreSQL every approval has checked that the clearance waits before any commits.
    const racing = dialect === 'postgres' ? together(instances, 6).map(service) : services;
    expect(await services[0]!.review.queue(w.owner)).toMatchObject({ waiting: 1, clearances: [{ id: 'clr_1', requested_by: { email: 'ann@acme.test' } }] });
    const tries = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => racing[i % racing.length]!.review.approveInSession(i % 2 ? w.owner : w.admin, 'clr_1')));
    expect(tries.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(tries.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(Array(5).fill('conflict'));
    expect(await services.at(-1)!.review.pendingCount(w.org.id)).toBe(0);
    const approved = (await services.at(-1)!.audit.page(w.org.id, { action: 'clearance.approved', page: 1, per_page: 10 })).entries;
    expect(approved).toHaveLength(1);
    expect(await services.at(-1)!.review.outcomes(w.analyst, 'bat_1')).toMatchObject([{ id: 'clr_1', state: 'approved', note: null }]);
  });

  it.skipIf(skip)(`one sent back is not approved after, nor sent back twice${why}`, async () => {
    const t = await engines.open(dialect);
    const w = await waiting(t.engine);
    const { review } = service(t.engine);
    const back = await review.sendBack(w.owner, 'clr_1', 'Check the date of birth on the passport');
    expect(back).toMatchObject({ clearance: { state: 'sent_back', sent_back_by: 'olga@acme.test' }, note_kept: true });
    await expect(review.approveInSession(w.admin, 'clr_1')).rejects.toMatchObject({ code: 'conflict' });
    await expect(review.sendBack(w.admin, 'clr_1', 'again')).rejects.toMatchObject({ code: 'conflict' });
    await expect(review.approveInSession(w.analyst, 'clr_1')).rejects.toMatchObject({ code: 'conflict' });
  });
});
