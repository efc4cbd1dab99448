// Report exports on both engines, as a queue several instances share (issue 40). Jobs drained by
// three instances at once each run once; a job whose instance died (its lease not renewed) is
// taken back by another instance once the lease ran out and finishes there, and the dead
// instance's late write is refused; exports queued at once by one organisation through three
// instances stop at the unfinished limit.
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../db/engine';
import { ENGINES, testEngines, together } from '../../test/engines';
import { accountsRepo, type OrgRow, type UserRow } from '../accounts/repo';
import { ManualClock } from '../clock';
import { createExports, LEASE_MS, MAX_UNFINISHED, type ExportDeps } from './exports';

const engines = testEngines();
const BODY = { report_type: 'overview', format: 'csv', env: 'live', from: '2026-11-01', to: '2026-11-30' };

async function owner(engine: Engine): Promise<{ org: OrgRow; user: UserRow }> {
  const org = await engine.q.insertInto('organizations').values({ name: 'Acme', plan: 'pro', created_at: '2026-12-01T08:00:00.000Z' }).returningAll().executeTakeFirstOrThrow();
  const user = await engine.q.insertInto('users').values({ org_id: org.id, email: 'o@example.test', name: 'O', password_hash: 'x', role: 'owner', created_at: '2026-12-01T08:00:00.000Z' })
    .returningAll().executeTakeFirstOrThrow();
  return { org: org as OrgRow, user: user as UserRow };
}

/** An instance's export queue: its renders counted in `runs` (job ids), each held until `gate` opens when given. */
function instance(engine: Engine, clock: ManualClock, runs: number[], gate?: Promise<void>, name = 'X') {
  const deps: ExportDeps = {
    bundle: () => ({}),
    branding: async () => ({ name: 'Acme', logo_png: null }),
    runner: {
      async render(input) {
        runs.push(input.exportId);
        await gate;
        return new TextEncoder().encode(`export ${input.exportId} by ${name}`);
      },
      mode: () => 'in-process',
      stop: async () => {},
    },
    lockOrg: accountsRepo(engine.dialect).lockOrg,
  };
  return createExports(engine, clock, deps);
}

describe.each(ENGINES)('report exports on $dialect', ({ dialect, skip }) => {
  const why = skip ? ` (skipped: ${skip})` : '';
  const many = dialect === 'postgres' ? 'three instances' : 'one instance';

  it.skipIf(skip)(`jobs drained by ${many} at once each run once and succeed${why}`, async () => {
    const t = await engines.open(dialect);
    const clock = new ManualClock(Date.parse('2026-12-04T09:00:00.000Z'));
    const { org, user } = await owner(t.engine);
    const first = instance(t.engine, clock, []);
    const ids: number[] = [];
    for (let i = 0; i < 9; i++) ids.push((await t.engine.transaction((tx) => first.create(user, org, BODY, true, tx))).id);
    const runs: number[] = [];
    const queues = engines.instances(t, 3, 3).map((e) => instance(e, clock, runs));
    await Promise.all(queues.map((x) => x.drain()));
    expect([...runs].sort((a, b) => a - b)).toEqual(ids);
    for (const id of ids) expect(await first.get(org, id)).toMatchObject({ status: 'succeeded', download_url: `/api/reports/exports/${id}/download` });
    const file = await t.engine.transaction((tx) => first.download(org, ids[0]!, tx));
    expect(new TextDecoder().decode(file.bytes)).toBe(`export ${ids[0]} by X`);
  });

  it.skipIf(skip)(`a job whose instance stopped renewing its lease is taken back and finished by another; the first one's late write is refused${why}`, async () => {
    const t = await engines.open(dialect);
    const clock = new ManualClock(Date.parse('2026-12-04T09:00:00.000Z'));
    const { org, user } = await owner(t.engine);
    const [ea, eb = ea] = engines.instances(t, 2, 2);
    const gate = () => {
      let open!: () => void;
      return { closed: new Promise<void>((r) => (open = r)), open: () => open() };
    };
    const [gateA, gateB] = [gate(), gate()];
    const runsA: number[] = [];
    const a = instance(ea!, clock, runsA, gateA.closed, 'A');
    const id = (await t.engine.transaction((tx) => a.create(user, org, BODY, true, tx))).id;
    const drainingA = a.drain();
    await expect.poll(() => runsA).toEqual([id]);
    // A is stuck in its render; its lease (renewed on a real timer) is not renewed on the test's clock.
    const runsB: number[] = [];
    const b = instance(eb!, clock, runsB, gateB.closed, 'B');
    await b.drain();
    expect(runsB).toEqual([]); // the lease holds: the job is A's
    clock.advance(LEASE_MS + 1);
    const drainingB = b.drain();
    await expect.poll(() => runsB).toEqual([id]);
    const job = () => t.engine.q.selectFrom('report_exports').select(['status', 'attempts', 'download_count']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(await job()).toEqual({ status: 'running', attempts: 2, download_count: 0 });
    // A comes back while B works: its claim (attempt 1) is no longer the job's, so it writes nothing.
    gateA.open();
    await drainingA;
    expect(await job()).toEqual({ status: 'running', attempts: 2, download_count: 0 });
    gateB.open();
    await drainingB;
    expect(new TextDecoder().decode((await t.engine.transaction((tx) => b.download(org, id, tx))).bytes)).toBe(`export ${id} by B`);
    expect(await job()).toEqual({ status: 'succeeded', attempts: 2, download_count: 1 });
  });

  it.skipIf(skip)(`exports queued at once through ${many} stop at the organisation's unfinished limit${why}`, async () => {
    const t = await engines.open(dialect);
    const clock = new ManualClock(Date.parse('2026-12-04T09:00:00.000Z'));
    const { org, user } = await owner(t.engine);
    const seed = instance(t.engine, clock, []);
    for (let i = 0; i < MAX_UNFINISHED - 1; i++) await t.engine.transaction((tx) => seed.create(user, org, BODY, true, tx));
    const pools = engines.instances(t, 3, 3);
    const racing = dialect === 'postgres' ? together(pools, 6, { commitsWaitMs: 100 }) : pools;
    const made = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => {
      const engine = racing[i % racing.length]!;
      return engine.transaction((tx) => instance(engine, clock, []).create(user, org, BODY, true, tx));
    }));
    expect(made.filter((m) => m.status === 'fulfilled')).toHaveLength(1);
    expect(made.filter((m) => m.status === 'rejected').map((m) => (m as PromiseRejectedResult).reason.code)).toEqual(Array(5).fill('export_queue_full'));
    expect((await seed.list(org, 1, 50)).total).toBe(MAX_UNFINISHED);
  });
});
