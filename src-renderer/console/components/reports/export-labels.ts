// What the Exports screen says about a job: report names, status, size, and when its file goes.
import {
  EXPORT_FILE_HOURS, type ExportErrorCode, type ExportFormat, type ExportListItem, type ExportStatus, type ReportType,
} from '../../../../src-shared/contracts/reports';
import type { BadgeTone } from '../Badge';

export const REPORT_TYPE_LABEL: Record<ReportType, string> = {
  overview: 'Overview',
  volume: 'Volume',
  usage: 'Usage',
  'risk-summary': 'Risk summary',
  'widget-performance': 'Widget performance',
  full: 'Full report',
  'verification-v21': 'Verification analytics (V2.1)',
  'full-v21': 'Full analytics (V2.1)',
};

/** What each report holds, one line, shown under the choice. */
export const REPORT_TYPE_HINT: Record<ReportType, string> = {
  overview: 'Totals, pass rate, average confidence, by product and by status.',
  volume: 'Verifications per day with passes and failures.',
  usage: 'By product and by API key, and the credits consumed.',
  'risk-summary': 'Confidence bands and failure reasons. Growth plan or higher.',
  'widget-performance': 'Per API key: volume, pass rate, confidence and latency. Growth plan or higher.',
  full: 'Every report your plan includes, in one file.',
  'verification-v21': 'Compliance effectiveness score, risk severity, period comparison, KPIs and health checks.',
  'full-v21': 'The V2.1 analytics with widget risk scores and, for owners, admins and billing, the credits snapshot.',
};

/** Reports that need the advanced-reports part of the plan (Growth or higher). */
export const ADVANCED_REPORT_TYPES: readonly ReportType[] = ['risk-summary', 'widget-performance'];

export const FORMAT_LABEL: Record<ExportFormat, string> = { pdf: 'PDF', csv: 'CSV' };

export const STATUS_LABEL: Record<ExportStatus, string> = {
  queued: 'Queued',
  running: 'Generating',
  succeeded: 'Ready',
  failed: 'Failed',
};

export const STATUS_TONE: Record<ExportStatus, BadgeTone> = {
  queued: 'neutral',
  running: 'info',
  succeeded: 'positive',
  failed: 'negative',
};

/** Why a failed export failed (the job view's `error_code`), as the list says it. */
export const FAILURE_TEXT: Record<ExportErrorCode, string> = {
  render_failed: 'The file could not be made',
  timeout: 'Making the file took too long',
  interrupted: 'The service stopped while making it',
  report_unavailable: 'The report could not be made for this range',
  insufficient_storage: 'The disk was full: free some space, then create it again',
};

export function isActive(status: ExportStatus): boolean {
  return status === 'queued' || status === 'running';
}

/** "12.4 KB"; null (not made yet) is a dash. */
export function formatBytes(bytes: number | null): string {
  if (bytes === null) return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * When a finished job's file is removed: the job view's `expires_at`, else (list rows) 24 hours
 * after the file was made, which is when the job completed. Null before success.
 */
export function expiryOf(job: Pick<ExportListItem, 'status' | 'completed_at'> & { expires_at?: string | null }): string | null {
  if (job.status !== 'succeeded') return null;
  if (job.expires_at) return job.expires_at;
  if (!job.completed_at) return null;
  const done = Date.parse(job.completed_at);
  return Number.isNaN(done) ? null : new Date(done + EXPORT_FILE_HOURS * 3_600_000).toISOString();
}

/** "expires in 23 h 12 min", "expires in 4 min", "expires in less than a minute", or "expired". */
export function expiryText(expiresAt: string, now: number): string {
  const left = Date.parse(expiresAt) - now;
  if (!(left > 0)) return 'expired';
  const minutes = Math.floor(left / 60_000);
  if (minutes < 1) return 'expires in less than a minute';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `expires in ${h} h ${m} min` : `expires in ${m} min`;
}

export function isExpired(expiresAt: string | null, now: number): boolean {
  return expiresAt !== null && !(Date.parse(expiresAt) - now > 0);
}
