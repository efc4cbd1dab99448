// API keys: svk- + 32 and svsk- + 48 characters, stored only as SHA-256 hashes (they are
// random and long, so a slow hash adds nothing). The plaintext is returned once, at creation.
import { planAllows, planIncludes } from '../../../../src-shared/policy';
import { AppError } from '../../../../src-shared/errors';
import {
  PRODUCTS, TRIAL, type Environment, type Plan, type Product,
} from '../../../../src-shared/catalog';
import type { ApiKey } from '../../../../src-shared/contracts/accounts';
import type { Engine, Q } from '../../db/engine';
import type { Clock } from '../clock';
import { newId, nowIso, randomBase62, sha256Hex } from '../ids';
import { keysRepo, type KeyListRow, type KeyRow } from './repo';

export const API_KEY_RE = /^svk-[A-Za-z0-9]{32}$/;
export const SECRET_RE = /^svsk-[A-Za-z0-9]{48}$/;
const TRIAL_MS = TRIAL.days * 24 * 3600_000;

export interface ResolvedKey {
  id: string;
  orgId: number;
  env: Environment;
  scopes: Product[];
  demo: boolean;
  createdAt: number;
}

export interface TrialState {
  active: boolean;
  endsAt: number;
  used: number;
}

function parseScopes(s: string): Product[] {
  return s.split(',').filter((x): x is Product => (PRODUCTS as readonly string[]).includes(x));
}

function resolved(row: KeyRow): ResolvedKey {
  return {
    id: row.id, orgId: row.org_id, env: row.env, scopes: parseScopes(row.scopes),
    demo: row.demo === 1, createdAt: Date.parse(row.created_at),
  };
}

export type KeyLookup =
  | { ok: true; key: ResolvedKey }
  | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' };

export function createKeys(engine: Engine, clock: Clock) {
  const repo = keysRepo;
  const { q } = engine;

  async function trial(row: Pick<KeyRow, 'id' | 'created_at'>, on: Q = q): Promise<TrialState> {
    const endsAt = Date.parse(row.created_at) + TRIAL_MS;
    const used = await repo.ageVerifications(on, row.id);
    return { active: clock.now() < endsAt && used < TRIAL.verifications, endsAt, used };
  }

  async function toApiKey(row: KeyListRow | KeyRow, plan: Plan, on: Q = q): Promise<ApiKey> {
    const scopes = parseScopes(row.scopes);
    const onTrial = scopes.includes('age') && !planIncludes(plan, 'age_without_trial');
    const t = onTrial ? await trial(row, on) : null;
    return {
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      env: row.env,
      scopes,
      demo: row.demo === 1,
      created_at: row.created_at,
      created_by: 'creator_email' in row ? row.creator_email : null,
      revoked_at: row.revoked_at,
      last_used_at: row.last_used_at,
      trial: t && {
        active: t.active, ends_at: nowIso(t.endsAt),
        verifications_used: t.used, verifications_limit: TRIAL.verifications,
      },
    };
  }

  return {
    /** Written on `tx` when the caller has a transaction (the act's audit row goes with it). */
    async create(input: {
      orgId: number; plan: Plan; name: string; env: Environment; scopes: Product[]; demo: boolean; createdBy: number | null;
    }, tx: Q = q): Promise<{ key: ApiKey; api_key: string; secret: string }> {
      const scopes = [...new Set(input.scopes)].sort((a, b) => PRODUCTS.indexOf(a) - PRODUCTS.indexOf(b));
      if (scopes.length === 0) throw new AppError('account_validation', { field: 'scopes', message: 'At least one scope is required' });
      // The plan rule itself lives in policy.planAllows; key creation answers it in the account shape.
      if (scopes.some((p) => planAllows(input.plan, p))) throw new AppError('compliance_scope_plan');
      const apiKey = `svk-${randomBase62(32)}`;
      const secret = `svsk-${randomBase62(48)}`;
      const row = {
        id: newId('key', 16),
        org_id: input.orgId,
        name: input.name,
        key_hash: sha256Hex(apiKey),
        secret_hash: sha256Hex(secret),
        prefix: apiKey.slice(0, 10),
        env: input.env,
        scopes: scopes.join(','),
        demo: input.demo ? 1 : 0,
        created_by: input.createdBy,
        created_at: nowIso(clock.now()),
      };
      await repo.insert(tx, row);
      return { key: await toApiKey((await repo.byId(tx, row.id))!, input.plan, tx), api_key: apiKey, secret };
    },

    async lookup(apiKey: string): Promise<KeyLookup> {
      if (!API_KEY_RE.test(apiKey)) return { ok: false, reason: 'malformed' };
      const row = await repo.byHash(q, sha256Hex(apiKey));
      if (!row) return { ok: false, reason: 'unknown' };
      if (row.revoked_at) return { ok: false, reason: 'revoked' };
      return { ok: true, key: resolved(row) };
    },

    async lookupSecret(secret: string): Promise<KeyLookup> {
      if (!SECRET_RE.test(secret)) return { ok: false, reason: 'malformed' };
      const row = await repo.bySecretHash(q, sha256Hex(secret));
      if (!row) return { ok: false, reason: 'unknown' };
      if (row.revoked_at) return { ok: false, reason: 'revoked' };
      return { ok: true, key: resolved(row) };
    },

    trial(key: ResolvedKey): Promise<TrialState> {
      return trial({ id: key.id, created_at: nowIso(key.createdAt) });
    },

    touch(keyId: string): Promise<void> {
      return repo.touch(q, keyId, nowIso(clock.now()));
    },

    get(id: string): Promise<KeyRow | undefined> {
      return repo.byId(q, id);
    },

    async list(orgId: number, plan: Plan, filter: { env?: Environment; createdBy?: number } = {}): Promise<ApiKey[]> {
      const rows = (await repo.list(q, orgId))
        .filter((r) => (!filter.env || r.env === filter.env) && (filter.createdBy === undefined || r.created_by === filter.createdBy));
      return Promise.all(rows.map((r) => toApiKey(r, plan)));
    },

    async view(id: string, plan: Plan): Promise<ApiKey | undefined> {
      const row = await repo.byId(q, id);
      return row && toApiKey(row, plan);
    },

    /** On `tx` when the caller has a transaction. True for the call that revoked it. */
    async revoke(id: string, tx: Q = q): Promise<boolean> {
      return (await repo.revoke(tx, id, nowIso(clock.now()))) > 0;
    },
  };
}
export type Keys = ReturnType<typeof createKeys>;
