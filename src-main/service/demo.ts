// `npm run demo`: an offline test-mode organisation with an owner, keys and credits, so every
// screen has something to show. Later capabilities add their own demo data here.
import { randomBytes } from 'node:crypto';
import type { Services } from './compose';
import { generateHistory } from './core/reports/history';

export interface DemoInfo {
  email: string;
  password: string;
  keys: { name: string; api_key: string; secret: string; env: string; scopes: string[]; demo: boolean }[];
  /**
   * Writes 90 days of test-mode history (about 25,000 ledger rows, ~1 s) so every report and chart
   * has something to show: called once the service listens, so the demo starts in about a second.
   */
  history(): void;
}

export async function seedDemo(s: Services): Promise<DemoInfo> {
  const email = 'owner@demo.example';
  const password = `demo-${randomBytes(6).toString('hex')}`;
  const { org, user } = await s.accounts.setup({ organization: 'Demo Compliance Ltd', name: 'Demo Owner', email, password, plan: 'pro' });
  await s.credits.grant(org.id, 5000, 'Demo credits');
  const specs = [
    { name: 'Test key (all products)', env: 'test', scopes: ['human', 'age', 'identity', 'compliance'], demo: false },
    { name: 'Demo key (simulated)', env: 'test', scopes: ['human', 'age', 'identity', 'compliance'], demo: true },
  ] as const;
  const keys = [];
  for (const k of specs) {
    const c = await s.keys.create({ orgId: org.id, plan: org.plan, name: k.name, env: k.env, scopes: [...k.scopes], demo: k.demo, createdBy: user.id });
    keys.push({ name: k.name, api_key: c.api_key, secret: c.secret, env: k.env, scopes: [...k.scopes], demo: k.demo });
  }
  const history = () => {
    generateHistory(s.db, { orgId: org.id, rows: 25_000, env: 'test', days: 90, endMs: s.clock.now(), seed: 13 });
    s.reports.invalidate(org.id);
  };
  return { email, password, keys, history };
}
