// Published flows: an organisation's hosted-session settings under a public slug (16 random
// bytes, base64url) that is made once and never changes, so a printed QR code or a link on a
// website keeps working while the settings are edited. The slug names the flow, it is not a
// credential: anyone with it may start a session, which is the point of publishing. Each start
// makes an ordinary hosted session (core/hosted/sessions.ts) that names its flow.
import { randomBytes } from 'node:crypto';
import type { Environment } from '../../../../src-shared/catalog';
import type { Engine, Q } from '../../db/engine';
import type { Clock } from '../clock';
import { newId, nowIso } from '../ids';
import type { HostedProduct } from './sessions';
import { publishedFlowsRepo } from './flows-repo';

export interface FlowRow {
  id: string;
  slug: string;
  org_id: number;
  env: Environment;
  name: string;
  product: HostedProduct;
  redirect_url: string | null;
  failure_redirect_url: string | null;
  page_title: string | null;
  success_message: string | null;
  failure_message: string | null;
  min_age: number | null;
  enabled: 0 | 1;
  created_at: string;
  updated_at: string;
}

/** A flow with how many sessions it started and how many of those were completed. */
export type FlowWithCounts = FlowRow & { started: number; completed: number };

export interface FlowSettings {
  name: string;
  product: HostedProduct;
  redirectUrl?: string | undefined;
  failureRedirectUrl?: string | undefined;
  pageTitle?: string | undefined;
  successMessage?: string | undefined;
  failureMessage?: string | undefined;
  minAge?: number | undefined;
}

const columns = (s: FlowSettings) => ({
  name: s.name, product: s.product, redirect_url: s.redirectUrl || null, failure_redirect_url: s.failureRedirectUrl || null,
  page_title: s.pageTitle ?? null, success_message: s.successMessage ?? null, failure_message: s.failureMessage ?? null,
  // The minimum age means something to age flows only.
  min_age: s.product === 'age' ? (s.minAge ?? null) : null,
});

export function createPublishedFlows(engine: Engine, clock: Clock) {
  const repo = publishedFlowsRepo;
  const { q } = engine;
  const now = () => nowIso(clock.now());

  return {
    /** `tx`: the transaction that also writes the act's audit row. */
    async create(owner: { orgId: number; env: Environment }, s: FlowSettings, tx: Q = q): Promise<FlowWithCounts> {
      const id = newId('pf');
      const at = now();
      await repo.insert(tx, { id, slug: randomBytes(16).toString('base64url'), org_id: owner.orgId, env: owner.env, ...columns(s), enabled: 1, created_at: at, updated_at: at });
      return (await repo.byId(tx, id))!;
    },
    /** Replaces the settings; the slug (the URL) stays. Undefined when the organisation has no such flow. */
    async update(id: string, orgId: number, s: FlowSettings, tx: Q = q): Promise<FlowWithCounts | undefined> {
      return (await repo.update(tx, id, orgId, { ...columns(s), updated_at: now() })) ? repo.byId(tx, id) : undefined;
    },
    async setEnabled(id: string, orgId: number, enabled: boolean, tx: Q = q): Promise<FlowWithCounts | undefined> {
      return (await repo.update(tx, id, orgId, { enabled: enabled ? 1 : 0, updated_at: now() })) ? repo.byId(tx, id) : undefined;
    },
    /** The organisation's flow by id (another organisation's is undefined). */
    async byId(id: string, orgId: number, tx: Q = q): Promise<FlowWithCounts | undefined> {
      const row = await repo.byId(tx, id);
      return row && row.org_id === orgId ? row : undefined;
    },
    /** The flow a public URL names (any state), or undefined. */
    bySlug: async (slug: string) => (slug.length >= 16 && slug.length <= 64 ? repo.bySlug(q, slug) : undefined),
    list: (orgId: number, env: Environment, limit = 200) => repo.list(q, orgId, env, limit),
  };
}
export type PublishedFlows = ReturnType<typeof createPublishedFlows>;
