// API key management for the console. Owners and admins manage every key of the
// organisation; members only their own (account spec, "Manage API keys").
import { z } from 'zod';
import { ENVIRONMENTS } from '../../../../src-shared/catalog';
import { CreateKeyRequest, type CreatedKey, type KeyList } from '../../../../src-shared/contracts/accounts';
import { AppError } from '../../../../src-shared/errors';
import type { SessionContext } from '../../core/accounts/accounts';
import { actorOf } from '../../core/audit/audit';
import type { Router } from '../app';
import { parseJson, parseQuery } from '../validate';

const ListQuery = z.object({ env: z.enum(ENVIRONMENTS).optional() });

function managesAll(s: SessionContext): boolean {
  return s.user.role === 'owner' || s.user.role === 'admin';
}

export function keyRoutes({ route, services }: Router): void {
  const { keys } = services;
  const account = { error: 'account_validation' } as const;

  route('GET', '/api/keys', { kind: 'session' }, (c) => {
    const s = c.get('session');
    const q = parseQuery(c, ListQuery, account);
    const list = keys.list(s.org.id, s.org.plan, {
      ...(q.env ? { env: q.env } : {}),
      ...(managesAll(s) ? {} : { createdBy: s.user.id }),
    });
    return c.json<KeyList>({ keys: list });
  });

  route('POST', '/api/keys', { kind: 'session' }, async (c) => {
    const s = c.get('session');
    const body = await parseJson(c, CreateKeyRequest, account);
    const created = services.audit.atomically(() => {
      const k = keys.create({
        orgId: s.org.id, plan: s.org.plan, name: body.name, env: body.env, scopes: body.scopes,
        demo: body.demo, createdBy: s.user.id,
      });
      services.audit.record({ orgId: s.org.id, actor: actorOf(s.user), action: 'key.created', keyId: k.key.id, env: k.key.env });
      return k;
    });
    services.logger.info('api_key_created', { key_id: created.key.id, user_id: s.user.id });
    return c.json<CreatedKey>(created, 201);
  });

  route('POST', '/api/keys/:id/revoke', { kind: 'session' }, (c) => {
    const s = c.get('session');
    const row = keys.get(c.req.param('id') ?? '');
    if (!row || row.org_id !== s.org.id) throw new AppError('key_not_found');
    if (!managesAll(s) && row.created_by !== s.user.id) throw new AppError('permission_denied');
    services.audit.atomically(() => {
      // Revoking twice keeps the first revocation, and records only that one.
      if (keys.revoke(row.id)) services.audit.record({ orgId: s.org.id, actor: actorOf(s.user), action: 'key.revoked', keyId: row.id, env: row.env });
    });
    services.logger.info('api_key_revoked', { key_id: row.id, user_id: s.user.id });
    return c.json({ key: keys.view(row.id, s.org.plan) });
  });
}
