// Organisations, people, sessions and the team on both engines. With three instances on one
// PostgreSQL (three pools, as three services behind a load balancer): the first run makes one
// organisation however many instances are asked at once; a session begun on one instance works
// on the others and ends everywhere when it ends on one; invitations sent at once through
// different instances never take the team past its plan.
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../db/engine';
import { accountsAndAudit, ENGINES, testEngines, together } from '../../test/engines';
import { ManualClock } from '../clock';
import { createTeam } from './team';

const clock = new ManualClock(Date.parse('2026-12-04T09:00:00.000Z'));
const engines = testEngines();

/** One service's account modules on `engine`. */
function service(engine: Engine) {
  const { accounts, audit } = accountsAndAudit(engine, clock);
  return { accounts, audit, team: createTeam(engine, clock, accounts, audit) };
}

const OWNER = { organization: 'Acme', name: 'Olga Owner', email: 'olga@acme.test', password: 'owner password 1' };

describe.each(ENGINES)('accounts and the team on $dialect', ({ dialect, skip }) => {
  const why = skip ? ` (skipped: ${skip})` : '';
  const many = dialect === 'postgres' ? 'three instances' : 'one instance';

  it.skipIf(skip)(`the first run asked through ${many} at once makes one organisation${why}`, async () => {
    const t = await engines.open(dialect);
    const services = engines.instances(t, 3, 3).map(service);
    const runs = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => services[i % services.length]!.accounts.setup({ ...OWNER, email: `owner${i}@acme.test` })));
    expect(runs.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(runs.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(Array(5).fill('already_set_up'));
    const orgs = await t.engine.q.selectFrom('organizations').select('id').execute();
    expect(orgs).toHaveLength(1);
  });

  it.skipIf(skip)(`a session begun on one instance works on ${many}, and ends everywhere${why}`, async () => {
    const t = await engines.open(dialect);
    const [a, b = a, c = a] = engines.instances(t, 3, 2).map(service);
    await a!.accounts.setup(OWNER);
    const s = await a!.accounts.login(OWNER.email, OWNER.password);
    for (const x of [a, b, c]) expect((await x!.accounts.resolveSession(s.token))?.user.email).toBe(OWNER.email);
    await expect(b!.accounts.login(OWNER.email, 'not the password')).rejects.toMatchObject({ code: 'invalid_login' });
    const ended = (await b!.accounts.resolveSession(s.token))!;
    await b!.accounts.logout(ended.tokenHash);
    for (const x of [a, b, c]) expect(await x!.accounts.resolveSession(s.token)).toBeNull();
  });

  it.skipIf(skip)(`invitations sent at once through ${many} never take the team past its plan${why}`, async () => {
    const t = await engines.open(dialect);
    const instances = engines.instances(t, 3, 4);
    const services = instances.map(service);
    // Starter: 3 people. The owner and one member: room for one more.
    const { org, user: owner } = await services[0]!.accounts.setup({ ...OWNER, plan: 'starter' } as typeof OWNER & { plan: 'starter' });
    await services[0]!.accounts.addUser({ orgId: org.id, email: 'mo@acme.test', name: 'Mo', password: 'member password', role: 'member' });
    const racing = dialect === 'postgres' ? together(instances, 9).map(service) : services;
    const sent = await Promise.allSettled(Array.from({ length: 9 }, (_, i) =>
      racing[i % racing.length]!.team.invite(owner, org, { email: `new${i}@acme.test`, role: 'member' })));
    expect(sent.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(new Set(sent.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code))).toEqual(new Set(['team_full']));
    expect((await services.at(-1)!.team.invitations(org)).total).toBe(1);
    // Each invitation is in the audit log once, on one chain.
    expect(await services.at(-1)!.audit.verify()).toMatchObject({ ok: true, rows: 1 });
  });
});
