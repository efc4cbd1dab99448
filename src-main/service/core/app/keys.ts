// API keys created and revoked, in the console or by the admin CLI: each act and its audit row
// commit together. Each use case takes only the services it uses.
import type { Environment } from '../../../../src-shared/catalog';
import type { Audit, AuditActorRef } from '../audit/audit';
import type { Keys } from '../keys/keys';

interface KeyDeps { keys: Keys; audit: Audit }
export type NewKey = Omit<Parameters<Keys['create']>[0], 'orgId'>;

export function createKey(d: KeyDeps, orgId: number, actor: AuditActorRef, input: NewKey) {
  return d.audit.atomically(async (tx) => {
    const k = await d.keys.create({ orgId, ...input }, tx);
    await d.audit.record({ orgId, actor, action: 'key.created', keyId: k.key.id, env: k.key.env }, tx);
    return k;
  });
}

/** Revokes one of `orgId`'s keys; false when it was revoked already (the first revocation stands, recorded once). */
export function revokeKey(d: KeyDeps, orgId: number, actor: AuditActorRef, key: { id: string; env: Environment }): Promise<boolean> {
  return d.audit.atomically(async (tx) => {
    const done = await d.keys.revoke(key.id, tx);
    if (done) await d.audit.record({ orgId, actor, action: 'key.revoked', keyId: key.id, env: key.env }, tx);
    return done;
  });
}
