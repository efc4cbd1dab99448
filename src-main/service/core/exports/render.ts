// One export's file from its report data: the PDF or the CSV. Pure (no database, no clock): the
// export worker thread runs exactly this.
import type { ExportFormat } from '../../../../src-shared/contracts/reports';
import { renderCsv } from './csv';
import { renderReportPdf, type ReportPdfInput } from './pdf';

export interface RenderInput extends ReportPdfInput {
  format: ExportFormat;
}

export const CONTENT_TYPES: Record<ExportFormat, string> = { pdf: 'application/pdf', csv: 'text/csv; charset=utf-8' };

/** A byte-order mark first, so that spreadsheet programs read the CSV as UTF-8. */
const BOM = '\uFEFF';

export async function renderExport(input: RenderInput): Promise<Uint8Array> {
  if (input.format === 'csv') return new TextEncoder().encode(BOM + renderCsv(input.bundle, input.lists));
  return renderReportPdf(input);
}
