// Report exports (account spec, "Export job" and Endpoints; issue 13). Session-authenticated; the
// plan must include exports (Growth or higher) for every route. Exports are team activity: every
// member of the organisation sees and downloads the organisation's exports (spec rule 6); a queued
// export is cancelled by whoever made it, the owner or an admin. Other organisations' ids are 404.
import {
  CancelledExport, CreatedExport, CreateExportRequest, ExportJob, ExportList, ExportListQuery,
} from '../../../../src-shared/contracts/reports';
import { AppError } from '../../../../src-shared/errors';
import { cancelExport, downloadExport, queueExport } from '../../core/app/exports';
import type { Router } from '../router';

/** Path ids are integers; anything else names no export. */
function idOf(raw: string | undefined): number {
  if (!raw || !/^\d{1,12}$/.test(raw)) throw new AppError('export_not_found');
  return Number(raw);
}

export function exportRoutes({ route, services }: Router): void {
  const { exports } = services;
  const TAGS = ['reports'];

  route({
    method: 'POST', path: '/api/reports/exports', auth: { kind: 'session' }, tags: TAGS,
    summary: 'Queue a PDF or CSV export of a report (Growth or higher)',
    description: 'Poll `GET /api/reports/exports/{id}` until the status is `succeeded` or `failed`; the file can be downloaded for 24 hours.',
    request: { body: CreateExportRequest },
    responses: { 201: CreatedExport },
    handler: async (c, input) => {
      const s = c.get('session');
      const body = await input.body();
      const r = await queueExport(services, s.user, s.org, body);
      services.logger.info('export_created', { export_id: r.id, user_id: s.user.id });
      return c.json<CreatedExport>({
        id: r.id, report_type: r.report_type, format: r.format, status: r.status,
        params: { env: r.env, from: r.from_date, to: r.to_date }, created_at: r.created_at,
      }, 201);
    },
  });

  route({
    method: 'GET', path: '/api/reports/exports', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The organisation\'s exports, newest first',
    request: { query: ExportListQuery },
    responses: { 200: ExportList },
    handler: async (c, input) => {
      const q = input.query();
      return c.json<ExportList>(await exports.list(c.get('session').org, q.page, q.per_page));
    },
  });

  route({
    method: 'GET', path: '/api/reports/exports/:id', auth: { kind: 'session' }, tags: TAGS,
    summary: 'One export: its status, parameters and, while the file exists, its download URL',
    responses: { 200: ExportJob },
    handler: async (c) => c.json<ExportJob>(await exports.get(c.get('session').org, idOf(c.req.param('id')))),
  });

  route({
    method: 'GET', path: '/api/reports/exports/:id/download', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The export\'s file (PDF or CSV), for 24 hours after it was made',
    responses: { 200: { contentType: 'application/pdf', accept: ['text/csv'], description: 'The report as PDF or CSV' } },
    handler: async (c) => {
      const s = c.get('session');
      const id = idOf(c.req.param('id'));
      const f = await downloadExport(services, s.user, s.org, id);
      services.logger.info('export_downloaded', { user_id: s.user.id, bytes: f.bytes.byteLength });
      return c.body(f.bytes as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': f.contentType,
        'Content-Disposition': `attachment; filename=${f.filename}`,
        'Content-Length': String(f.bytes.byteLength),
      });
    },
  });

  route({
    method: 'DELETE', path: '/api/reports/exports/:id', auth: { kind: 'session' }, tags: TAGS,
    summary: 'Cancel a queued export (its maker, the owner or an admin); it is removed',
    responses: { 200: CancelledExport },
    handler: async (c) => {
      const s = c.get('session');
      const id = idOf(c.req.param('id'));
      await cancelExport(services, s.user, s.org, id);
      return c.json<CancelledExport>({ message: 'Export job cancelled', id });
    },
  });
}
