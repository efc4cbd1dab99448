// The reporting and report-export APIs (account spec; issue 13), checked against the shared
// contracts like the rest of api/client.ts. Both the Reports and the Exports screens use them.
import type { Environment } from '../../../src-shared/catalog';
import {
  CancelledExport, CreatedExport, ExportJob, ExportList, LimitsEnvelope, OverviewEnvelope, RegulatoryCoverageEnvelope,
  RiskSummaryEnvelope, UsageEnvelope, V21FullEnvelope, V21VerificationEnvelope, VolumeEnvelope, WidgetPerformanceEnvelope,
  type ExportFormat, type Granularity, type ReportType,
} from '../../../src-shared/contracts/reports';
import { download, queryString, request } from './client';

export interface ReportRange {
  env: Environment;
  /** YYYY-MM-DD, inclusive. */
  from: string;
  to: string;
}

const report = (name: string, range: ReportRange, extra: Record<string, unknown> = {}) =>
  `/api/reports/${name}?${queryString({ env: range.env, from: range.from, to: range.to, ...extra })}`;

export const reportsApi = {
  limits: (signal?: AbortSignal) => request('GET', '/api/reports/limits', LimitsEnvelope, { signal }),
  overview: (r: ReportRange, signal?: AbortSignal) => request('GET', report('overview', r), OverviewEnvelope, { signal }),
  volume: (r: ReportRange, granularity: Granularity, signal?: AbortSignal) =>
    request('GET', report('volume', r, { granularity }), VolumeEnvelope, { signal }),
  usage: (r: ReportRange, signal?: AbortSignal) => request('GET', report('usage', r), UsageEnvelope, { signal }),
  riskSummary: (r: ReportRange, signal?: AbortSignal) => request('GET', report('risk-summary', r), RiskSummaryEnvelope, { signal }),
  widgetPerformance: (r: ReportRange, signal?: AbortSignal) =>
    request('GET', report('widget-performance', r), WidgetPerformanceEnvelope, { signal }),
  regulatoryCoverage: (r: ReportRange, signal?: AbortSignal) =>
    request('GET', report('regulatory-coverage', r), RegulatoryCoverageEnvelope, { signal }),
  v21Verification: (r: ReportRange, signal?: AbortSignal) => request('GET', report('v21/verification', r), V21VerificationEnvelope, { signal }),
  v21Full: (r: ReportRange, signal?: AbortSignal) => request('GET', report('v21/full', r), V21FullEnvelope, { signal }),
};

export interface CreateExport extends ReportRange {
  report_type: ReportType;
  format: ExportFormat;
}

const exportPath = (id: number, rest = '') => `/api/reports/exports/${encodeURIComponent(String(id))}${rest}`;

export const exportsApi = {
  create: (body: CreateExport) => request('POST', '/api/reports/exports', CreatedExport, { body }),
  list: (page: number, perPage: number, signal?: AbortSignal) =>
    request('GET', `/api/reports/exports?${queryString({ page, per_page: perPage })}`, ExportList, { signal }),
  get: (id: number, signal?: AbortSignal) => request('GET', exportPath(id), ExportJob, { signal }),
  cancel: (id: number) => request('DELETE', exportPath(id), CancelledExport),
  /** The path of a finished export's file (what the single-job view names `download_url`). */
  downloadPath: (id: number) => exportPath(id, '/download'),
  /** The file's bytes and its name from Content-Disposition (for the desktop shell's save dialog). */
  download: (id: number) => download(exportPath(id, '/download')),
};
