// API key management for the console. Owners and admins manage every key of the
// organisation; members only their own (account spec, "Manage API keys").
import { CreatedKey, CreateKeyRequest, KeyList, KeyListQuery, RevokedKey } from '../../../../src-shared/contracts/accounts';
import { AppError } from '../../../../src-shared/errors';
import type { SessionContext } from '../../core/accounts/accounts';
import { createKey, revokeKey } from '../../core/app/keys';
import { actorOf } from '../../core/audit/audit';
import type { Router } from '../router';
import { may } from '../../../../src-shared/policy';

function managesAll(s: SessionContext): boolean {
  return may(s.user.role, 'keys.manage_all');
}

export function keyRoutes({ route, services }: Router): void {
  const { keys } = services;
  const TAGS = ['keys'];

  route({
    method: 'GET', path: '/api/keys', auth: { kind: 'session' }, tags: TAGS,
    summary: 'API keys (owners and admins: all; members: their own)',
    request: { query: KeyListQuery },
    responses: { 200: KeyList },
    handler: async (c, input) => {
      const s = c.get('session');
      const q = input.query();
      const list = await keys.list(s.org.id, s.org.plan, {
        ...(q.env ? { env: q.env } : {}),
        ...(managesAll(s) ? {} : { createdBy: s.user.id }),
      });
      return c.json<KeyList>({ keys: list });
    },
  });

  route({
    method: 'POST', path: '/api/keys', auth: { kind: 'session' }, tags: TAGS,
    summary: 'Create an API key (the key and secret are shown once)',
    request: { body: CreateKeyRequest },
    responses: { 201: CreatedKey },
    handler: async (c, input) => {
      const s = c.get('session');
      const body = await input.body();
      const created = await createKey(services, s.org.id, actorOf(s.user), {
        plan: s.org.plan, name: body.name, env: body.env, scopes: body.scopes, demo: body.demo, createdBy: s.user.id,
      });
      services.logger.info('api_key_created', { key_id: created.key.id, user_id: s.user.id });
      return c.json<CreatedKey>(created, 201);
    },
  });

  route({
    method: 'POST', path: '/api/keys/:id/revoke', auth: { kind: 'session' }, tags: TAGS,
    summary: 'Revoke an API key',
    responses: { 200: RevokedKey },
    handler: async (c) => {
      const s = c.get('session');
      const row = await keys.get(c.req.param('id') ?? '');
      if (!row || row.org_id !== s.org.id) throw new AppError('key_not_found');
      if (!managesAll(s) && row.created_by !== s.user.id) throw new AppError('permission_denied');
      await revokeKey(services, s.org.id, actorOf(s.user), row);
      services.logger.info('api_key_revoked', { key_id: row.id, user_id: s.user.id });
      const key = await keys.view(row.id, s.org.plan);
      if (!key) throw new AppError('key_not_found');
      return c.json<RevokedKey>({ key });
    },
  });
}
