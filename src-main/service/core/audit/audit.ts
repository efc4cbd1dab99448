// The analysts' audit trail: an append-only, hash-chained log of what people did (screened, ran
// a batch, set a disposition, imported a list, managed keys, changed the plan or settings).
// It holds ids, codes, counts and hashes; a client reference only as an HMAC under a key derived
// from the install secret, so a reference can be looked up but not read back.
import { createHmac } from 'node:crypto';
import type { Environment, Role } from '../../../../src-shared/catalog';
import type { AuditAction, AuditEntry, AuditPage, AuditSetting, AuditVerification } from '../../../../src-shared/contracts/audit';
import type { Contradiction, Disposition, ReasonCode } from '../../../../src-shared/contracts/review';
import type { Engine, Q } from '../../db/engine';
import type { UserRow } from '../accounts/repo';
import type { Clock } from '../clock';
import { nowIso } from '../ids';
import type { InstallSecret } from '../install-secret';
import { GENESIS, rowHash, verifyRows, type AuditRow } from './chain';
import { auditRepo, type AuditFilter } from './repo';
import { requestSource } from './request-source';

/** A person, the admin CLI, or the service itself (an abandoned batch expiring, the on-site server back after a restart, a failed sign-in). */
export type AuditActorRef = { kind: 'user'; userId: number; role: Role } | { kind: 'cli' } | { kind: 'system' };
export const SYSTEM: AuditActorRef = { kind: 'system' };

export interface AuditEvent {
  orgId: number;
  actor: AuditActorRef;
  action: AuditAction;
  env?: Environment;
  screeningId?: string;
  batchId?: string;
  rowNumber?: number;
  entities?: readonly { entity_id: string; record_hash: string }[];
  disposition?: Disposition | null;
  reasonCode?: ReasonCode | null;
  hasNote?: boolean;
  clearanceId?: string;
  approverUserId?: number;
  keyId?: string;
  listId?: string;
  setting?: AuditSetting;
  from?: string;
  to?: string;
  counts?: { total?: number; done?: number; failed?: number };
  riskScore?: number;
  targetUserId?: number;
  /** A team invitation (its invitee has no user id yet). */
  invitationId?: number;
  /** A clearing whose reason contradicts the evidence, overridden with a note (issue 23). */
  overrideContradiction?: Contradiction;
  /** The object the act was about: an endpoint, session, flow, store, export or verification id (never a URL). */
  objectId?: string;
  /** Only its HMAC is written. */
  clientReference?: string;
  /** An HMAC made earlier with `clientRefHmac` (a pending clearance keeps it). */
  clientRefHmac?: string;
}

export function actorOf(user: Pick<UserRow, 'id' | 'role'>): AuditActorRef {
  return { kind: 'user', userId: user.id, role: user.role };
}

const CHAIN_KEY = 'audit-chain/v1';
const CLIENT_REF_KEY = 'client-reference/v1';

function parseList(v: string | number | null): string[] {
  if (typeof v !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

const str = (v: string | number | null): string | null => (v === null ? null : String(v));
const int = (v: string | number | null): number | null => (v === null ? null : Number(v));

/**
 * Transactions that append take turns for the chain, across instances: each reads the last row
 * and writes the next under this lock, held to its commit (see Engine.exclusive).
 */
const CHAIN_LOCK = 4_310_201;

export function createAudit(engine: Engine, clock: Clock, secret: InstallSecret, users: { byId: (id: number) => Promise<UserRow | undefined>; ofOrg: (orgId: number) => Promise<UserRow[]> }) {
  const repo = auditRepo;

  function clientRefHmac(reference: string): string {
    return createHmac('sha256', secret.derive(CLIENT_REF_KEY)).update(reference).digest('hex');
  }

  /**
   * Appends `e` in the caller's transaction `tx` (the act it records commits with it, or neither
   * does), or in a transaction of its own. The next seq and the previous hash are read and written
   * under the chain's lock: other requests, other instances and the CLI append too.
   */
  function append(e: AuditEvent, tx?: Q): Promise<AuditRow> {
    const write = async (tx: Q): Promise<AuditRow> => {
      await engine.exclusive(tx, CHAIN_LOCK);
      const last = await repo.last(tx);
      const prev = last?.hash ?? GENESIS;
      const seq = (last?.seq ?? 0) + 1;
      const fields = {
        seq,
        at: nowIso(clock.now()),
        org_id: e.orgId,
        actor_kind: e.actor.kind,
        actor_id: e.actor.kind === 'user' ? String(e.actor.userId) : null,
        actor_role: e.actor.kind === 'user' ? e.actor.role : null,
        action: e.action,
        env: e.env ?? null,
        screening_id: e.screeningId ?? null,
        batch_id: e.batchId ?? null,
        row_number: e.rowNumber ?? null,
        entity_ids: e.entities ? JSON.stringify(e.entities.map((m) => m.entity_id)) : null,
        record_hashes: e.entities ? JSON.stringify(e.entities.map((m) => m.record_hash)) : null,
        disposition: e.disposition ?? null,
        reason_code: e.reasonCode ?? null,
        has_note: e.hasNote === undefined ? null : e.hasNote ? 1 : 0,
        clearance_id: e.clearanceId ?? null,
        approver_user_id: e.approverUserId ?? null,
        key_id: e.keyId ?? null,
        list_id: e.listId ?? null,
        setting: e.setting ?? null,
        from_value: e.from ?? null,
        to_value: e.to ?? null,
        count_total: e.counts?.total ?? null,
        count_done: e.counts?.done ?? null,
        count_failed: e.counts?.failed ?? null,
        risk_score: e.riskScore ?? null,
        target_user_id: e.targetUserId ?? null,
        client_ref_hmac: e.clientReference ? clientRefHmac(e.clientReference) : (e.clientRefHmac ?? null),
        invitation_id: e.invitationId ?? null,
        override_contradiction: e.overrideContradiction ?? null,
        object_id: e.objectId ?? null,
        // The acting person's address (their desk), known for the request that wrote the row.
        source_address: e.actor.kind === 'user' ? requestSource() : null,
      };
      const row: AuditRow = { ...fields, prev_hash: prev, hash: rowHash(secret.derive(CHAIN_KEY), prev, fields) };
      await repo.insert(tx, row);
      await repo.setHead(tx, seq, row.hash);
      return row;
    };
    return tx ? write(tx) : engine.transaction(write);
  }

  function toEntry(r: AuditRow, emails: Map<number, string>): AuditEntry {
    const person = (id: number | null) => (id === null ? null : { user_id: id, email: emails.get(id) ?? null });
    const actorId = r.actor_kind === 'user' && r.actor_id !== null ? Number(r.actor_id) : null;
    return {
      seq: r.seq,
      at: String(r.at),
      actor: {
        kind: r.actor_kind === 'cli' || r.actor_kind === 'system' ? r.actor_kind : 'user',
        user_id: actorId,
        email: actorId === null ? null : person(actorId)?.email ?? null,
        role: (str(r.actor_role) as Role | null),
      },
      action: r.action as AuditAction,
      env: str(r.env) as Environment | null,
      screening_id: str(r.screening_id),
      batch_id: str(r.batch_id),
      row_number: int(r.row_number),
      entity_ids: parseList(r.entity_ids),
      record_hashes: parseList(r.record_hashes),
      disposition: str(r.disposition) as Disposition | null,
      reason_code: str(r.reason_code) as ReasonCode | null,
      has_note: r.has_note === null ? null : r.has_note === 1,
      clearance_id: str(r.clearance_id),
      approver: person(int(r.approver_user_id)),
      key_id: str(r.key_id),
      list_id: str(r.list_id),
      setting: str(r.setting),
      from_value: str(r.from_value),
      to_value: str(r.to_value),
      count_total: int(r.count_total),
      count_done: int(r.count_done),
      count_failed: int(r.count_failed),
      risk_score: int(r.risk_score),
      target: person(int(r.target_user_id)),
      client_ref_hmac: str(r.client_ref_hmac),
      invitation_id: int(r.invitation_id),
      override_contradiction: (str(r.override_contradiction) as Contradiction | null),
      object_id: str(r.object_id),
      source_address: str(r.source_address),
      prev_hash: r.prev_hash,
      hash: r.hash,
    };
  }

  return {
    record: append,

    /** Runs `work` and the audit rows it appends on its `tx` in one transaction: both happen or neither. */
    atomically<T>(work: (tx: Q) => Promise<T>): Promise<T> {
      return engine.transaction(work);
    },

    clientRefHmac,

    async page(orgId: number, q: { action?: AuditAction; actor?: string; from?: string; to?: string; client_reference?: string; page: number; per_page: number }): Promise<AuditPage> {
      const filter: AuditFilter = {
        ...(q.action ? { action: q.action } : {}),
        ...(q.actor ? { actor: q.actor } : {}),
        ...(q.from ? { from: new Date(q.from).toISOString() } : {}),
        ...(q.to ? { to: new Date(q.to).toISOString() } : {}),
        ...(q.client_reference ? { clientRefHmac: clientRefHmac(q.client_reference) } : {}),
      };
      const team = await users.ofOrg(orgId);
      const emails = new Map(team.map((u) => [u.id, u.email]));
      const total = await repo.count(engine.q, orgId, filter);
      const rows = await repo.page(engine.q, orgId, filter, q.per_page, (q.page - 1) * q.per_page);
      // A person named by a row who has since joined another organisation: looked up once each.
      const named = rows.flatMap((r) => [r.actor_kind === 'user' && r.actor_id !== null ? Number(r.actor_id) : null, int(r.approver_user_id), int(r.target_user_id)]);
      for (const id of new Set(named)) {
        if (id === null || emails.has(id)) continue;
        const u = await users.byId(id);
        if (u) emails.set(id, u.email);
      }
      return {
        entries: rows.map((r) => toEntry(r, emails)),
        total,
        page: q.page,
        pages: Math.max(1, Math.ceil(total / q.per_page)),
        actors: team.map((u) => ({ user_id: u.id, email: u.email, role: u.role })),
      };
    },

    /** Walks the whole chain: intact, or the first row that is not what the service wrote. */
    verify(): Promise<AuditVerification> {
      // One snapshot, so rows appended meanwhile cannot look like a broken end.
      const key = secret.derive(CHAIN_KEY);
      return engine.snapshot(async (tx) => verifyRows(repo.walk(tx), key, await repo.head(tx)));
    },
  };
}
export type Audit = ReturnType<typeof createAudit>;
