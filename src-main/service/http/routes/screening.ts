// Stateless screening and rescreening (spec: /api/compliance/v1/screen and /rescreen), the
// console's own screening, and the lists screened against: routes over the use cases in
// core/app/screening.ts and core/app/lists.ts.
import { z } from 'zod';
import { ENVIRONMENTS } from '../../../../src-shared/catalog';
import { Message } from '../../../../src-shared/contracts/common';
import {
  ListsStatus, OfficialImport, OfficialListQuery, OfficialSourceParams, UserListQuery, UserListReport,
} from '../../../../src-shared/contracts/lists';
import { RescreenRequest, ScreeningResponse, ScreenRequest } from '../../../../src-shared/contracts/screening';
import { AppError } from '../../../../src-shared/errors';
import { orgPayer } from '../../core/app/call';
import { applyHeldImport, discardHeldImport, importOfficial, importOwnList, listsStatus, removeOwnList } from '../../core/app/lists';
import { consoleScreen, screenOf, screenSubject } from '../../core/app/screening';
import { callOf, reply } from '../call';
import type { Router } from '../router';

const AUTH = { kind: 'key', scope: 'compliance', category: 'verification', product: 'compliance' } as const;
const TAGS = ['screening'];

const EnvQuery = z.object({ env: z.enum(ENVIRONMENTS) });
const SlugParams = z.object({ slug: z.string() });

/** The answer when no file of the named list is held (or the name is no official list). */
const noneHeld = () => new AppError('list_not_found', { message: 'No file of this list is held for confirmation' });

/** The official source named in a held-import URL; not one is a list that holds nothing. */
function heldSource(param: string | undefined): OfficialSourceParams['source'] {
  const p = OfficialSourceParams.safeParse({ source: param });
  if (!p.success) throw noneHeld();
  return p.data.source;
}

export function screeningRoutes({ route, services }: Router): void {
  // The console's own screening: the same engine and billing, paid by the organisation
  // (free in test), for the analyst signed in. Nothing about the subject is kept.
  route({
    method: 'POST', path: '/api/console/screen', auth: { kind: 'session', product: 'compliance' }, tags: TAGS,
    summary: 'Screen an individual from the console (billed to the organisation; free in test)',
    request: { query: EnvQuery, body: ScreenRequest, invalid: { query: 'account_validation', body: 'invalid_subject' } },
    responses: { 200: ScreeningResponse },
    // In turn with other screens: see compose.ts (screenGate).
    handler: (c, input) => services.screenGate.run(async () => {
      const session = c.get('session');
      const { env } = input.query();
      const text = await input.text();
      const call = callOf(c, orgPayer(session.org.id, env));
      return reply(c, await consoleScreen(services, call, session, await input.body(), text));
    }),
  });

  // Importing lists: owners and admins.
  const LIST_ADMINS = { kind: 'session', act: 'lists.manage' } as const;
  const LIST_BYTES = 64 * 1024 * 1024;

  route({
    method: 'POST', path: '/api/screening/lists/official', auth: LIST_ADMINS, tags: TAGS,
    summary: 'Import a newer file of an official list (replaces the shipped one)',
    request: {
      query: OfficialListQuery,
      body: { contentType: 'application/octet-stream', description: 'The list file as published (CSV, XML or gzip), at most 64 MiB' },
      maxBytes: LIST_BYTES,
    },
    // 202: held until an owner or admin applies it (it would remove much of the list).
    responses: { 201: OfficialImport, 202: OfficialImport },
    handler: async (c, input) => {
      const q = input.query();
      const bytes = await input.bytes();
      const r = await importOfficial(services, { session: c.get('session') }, q.source, [{ name: q.filename, bytes }]);
      if (!r.ok) throw new AppError('account_validation', { field: 'file', message: `Not imported: ${r.reason}` });
      return c.json<OfficialImport>(r, r.held ? 202 : 201);
    },
  });

  route({
    method: 'POST', path: '/api/screening/lists/official/held/:source', auth: LIST_ADMINS, tags: TAGS,
    summary: 'Apply the official file held for confirmation: it replaces the edition in use',
    request: { params: OfficialSourceParams },
    responses: { 201: OfficialImport },
    handler: async (c) => {
      const r = await applyHeldImport(services, { session: c.get('session') }, heldSource(c.req.param('source')));
      if (!r) throw noneHeld();
      return c.json<OfficialImport>(r, 201);
    },
  });

  route({
    method: 'DELETE', path: '/api/screening/lists/official/held/:source', auth: LIST_ADMINS, tags: TAGS,
    summary: 'Discard the official file held for confirmation; the edition in use stays',
    request: { params: OfficialSourceParams },
    responses: { 200: Message },
    handler: async (c) => {
      if (!(await discardHeldImport(services, { session: c.get('session') }, heldSource(c.req.param('source'))))) throw noneHeld();
      return c.json<Message>({ message: 'Held file discarded' });
    },
  });

  route({
    method: 'POST', path: '/api/screening/lists/user', auth: LIST_ADMINS, tags: TAGS,
    summary: 'Import (or replace) one of the organisation\'s own lists from a CSV',
    request: {
      query: UserListQuery,
      // Browsers label .csv files text/csv, application/vnd.ms-excel (Windows) or text/plain.
      body: { contentType: 'text/csv', accept: ['text/plain', 'application/csv', 'application/vnd.ms-excel'], description: 'The list as CSV, at most 64 MiB' },
      maxBytes: LIST_BYTES,
    },
    responses: { 201: UserListReport, 400: UserListReport },
    handler: async (c, input) => {
      const q = input.query();
      const bytes = await input.bytes();
      const r = await importOwnList(services, { session: c.get('session') }, q.name, bytes);
      return c.json<UserListReport>(r, r.ok ? 201 : 400);
    },
  });

  route({
    method: 'DELETE', path: '/api/screening/lists/user/:slug', auth: LIST_ADMINS, tags: TAGS,
    summary: 'Remove one of the organisation\'s own lists',
    request: { params: SlugParams },
    responses: { 200: Message },
    handler: async (c) => {
      if (!(await removeOwnList(services, { session: c.get('session') }, c.req.param('slug') ?? ''))) throw new AppError('list_not_found');
      return c.json<Message>({ message: 'List removed' });
    },
  });

  route({
    method: 'GET', path: '/api/screening/lists', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The lists screened against, the index, and the organisation\'s own lists',
    responses: { 200: ListsStatus },
    handler: async (c) => c.json<ListsStatus>(await listsStatus(services, c.get('session').org.id)),
  });

  route({
    method: 'POST', path: '/api/compliance/v1/screen', auth: AUTH, tags: TAGS,
    summary: 'Screen an individual against sanctions, PEP, RCA and wanted lists (60 credits)',
    request: { body: ScreenRequest, invalid: 'invalid_subject' },
    responses: { 200: ScreeningResponse },
    // In turn with other screens: see compose.ts (screenGate).
    handler: (c, input) => services.screenGate.run(async () => {
      const text = await input.text();
      return reply(c, await screenSubject(services, callOf(c), 'screen', text, screenOf(await input.body())));
    }),
  });

  route({
    method: 'POST', path: '/api/compliance/v1/rescreen', auth: AUTH, tags: TAGS,
    summary: 'Rescreen an individual and compare with the previous result (30 credits)',
    request: { body: RescreenRequest, invalid: 'invalid_subject' },
    responses: { 200: ScreeningResponse },
    // In turn with other screens: see compose.ts (screenGate).
    handler: (c, input) => services.screenGate.run(async () => {
      const text = await input.text();
      const body = await input.body();
      return reply(c, await screenSubject(services, callOf(c), 'rescreen', text, {
        ...screenOf(body),
        rescreen: {
          previous_screening_id: body.previous_screening_id,
          reason: body.screening?.reason ?? 'periodic_rescreen',
          summary: body.previous_result_summary,
        },
      }));
    }),
  });
}
