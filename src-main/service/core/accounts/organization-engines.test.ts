// An organisation's settings on both engines: its name, logo (bytes in, the same bytes out),
// list freshness windows, app schemes, hosted attempts, the liveness clip rule and the private
// hosts webhooks may reach, each change with its audit row and no row for a change to the same value.
import { describe, expect, it } from 'vitest';
import { accountsAndAudit, ENGINES, testEngines } from '../../test/engines';
import { loadSharp } from '../media/sharp';
import { ManualClock } from '../clock';
import { createOrganization } from './organization';

const clock = new ManualClock(Date.parse('2026-12-04T09:00:00.000Z'));
const engines = testEngines();
/** A small PNG, as a logo upload. */
const png = async () => (await loadSharp())({ create: { width: 4, height: 3, channels: 3, background: '#2a6' } }).png().toBuffer();

describe.each(ENGINES)('organisation settings on $dialect', ({ dialect, skip }) => {
  it.skipIf(skip)(`each setting is saved, read back and audited once${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const t = await engines.open(dialect);
    const { accounts, audit } = accountsAndAudit(t.engine, clock);
    const org = createOrganization(t.engine, clock, audit, '/nonexistent');
    const { org: o, user } = await accounts.setup({ organization: 'Acme', name: 'Olga', email: 'olga@acme.test', password: 'owner password 1' });

    expect(await org.settings(o.id)).toEqual({ name: 'Acme', logo: null });
    await org.rename(user, o.id, 'Acme Compliance Ltd');
    await org.rename(user, o.id, 'Acme Compliance Ltd');
    expect(await org.branding(o.id)).toEqual({ name: 'Acme Compliance Ltd', logo_png: null });

    expect(await org.listFreshness(o.id)).toEqual({ sanctions_stale_days: 14, pep_stale_days: 180 });
    expect(await org.setListFreshness(user, o.id, { sanctions_stale_days: 3 })).toEqual({ sanctions_stale_days: 3, pep_stale_days: 180 });

    expect(await org.setAppSchemes(user, o.id, ['zyqapp', 'vorthapp', 'zyqapp'])).toEqual({ app_schemes: ['vorthapp', 'zyqapp'] });
    expect(await org.setAppSchemes(user, o.id, [])).toEqual({ app_schemes: [] });

    expect(await org.setWebhookPrivateHosts(user, o.id, ['Receiver.Internal.Test'])).toEqual(['receiver.internal.test']);
    expect(await org.webhookPrivateHosts(o.id)).toEqual(['receiver.internal.test']);

    expect(await org.hostedAttempts(o.id)).toBe(3);
    expect(await t.engine.transaction((tx) => org.setHostedAttempts(o.id, 5, tx))).toBe(5);
    expect(await org.hostedAttempts(o.id)).toBe(5);
    expect(await org.requiresLivenessClip(o.id)).toBe(false);
    await t.engine.transaction((tx) => org.setRequiresLivenessClip(o.id, true, tx));
    expect(await org.requiresLivenessClip(o.id)).toBe(true);

    const withLogo = await org.setLogo(user, o.id, await png());
    expect(withLogo.logo).toMatchObject({ width: 4, height: 3 });
    expect(Buffer.from((await org.logo(o.id))!.png).equals(Buffer.from((await org.branding(o.id)).logo_png!))).toBe(true);
    await org.removeLogo(user, o.id);
    await org.removeLogo(user, o.id);
    expect(await org.logo(o.id)).toBeNull();

    const rows = (await audit.page(o.id, { page: 1, per_page: 50 })).entries.map((e) => [e.setting, e.from_value, e.to_value]).reverse();
    expect(rows).toEqual([
      ['organization_name', null, null],
      ['sanctions_stale_days', '14', '3'],
      ['app_schemes', '0', '2'],
      ['app_schemes', '2', '0'],
      ['webhook_private_hosts', '0', '1'],
      ['logo', 'none', 'replaced'],
      ['logo', 'set', 'removed'],
    ]);
    await expect(org.listFreshness(o.id + 1)).rejects.toMatchObject({ code: 'account_not_found' });
  });
});
