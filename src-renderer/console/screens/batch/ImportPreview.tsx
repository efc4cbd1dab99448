// The first rows of the import as they will be screened: names as the file was read (its
// encoding) and dates of birth as sent (YYYY-MM-DD, with the day spelled out so a swapped day
// and month shows). In this window only, like the rows themselves.
import { useMemo } from 'react';
import { isoDayLabel } from '../../../../src-shared/dates';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { formatNumber } from '../../components/format';
import { fullName } from '../../components/batch/labels';
import { useBatch, type ImportedRow } from '../../stores/batch';

const SHOWN = 5;

const COLUMNS: GridColumn<ImportedRow>[] = [
  { id: 'row', header: 'Row', width: '64px', numeric: true, nowrap: true, cell: (r) => formatNumber(r.row) },
  { id: 'name', header: 'Name', width: 'minmax(0, 2fr)', cell: (r) => <span className="cell-strong" data-testid="preview-name">{fullName(r)}</span> },
  {
    id: 'dob', header: 'Date of birth screened', width: 'minmax(0, 1.4fr)', nowrap: true,
    cell: (r) => (r.date_of_birth ? (
      <span data-testid="preview-dob" data-dob={r.date_of_birth}>
        <span className="mono">{r.date_of_birth}</span> <span className="muted">· {isoDayLabel(r.date_of_birth)}</span>
      </span>
    ) : <span className="muted">—</span>),
  },
  { id: 'country', header: 'Country', width: '96px', nowrap: true, cell: (r) => r.country || <span className="muted">—</span> },
];

export function ImportPreview() {
  const rows = useBatch((s) => s.rows);
  const shown = useMemo(() => rows.slice(0, SHOWN), [rows]);
  if (shown.length === 0) return null;
  return (
    <div className="bat-preview" data-testid="batch-preview">
      <h3 className="bat-label">First rows as they will be screened</h3>
      <div className="bat-issues-table">
        <DataGrid
          label="First rows as they will be screened"
          rows={shown}
          columns={COLUMNS}
          getRowKey={(r) => r.row}
          testId="batch-preview-table"
          rowTestId="batch-preview-row"
          empty="No rows."
        />
      </div>
    </div>
  );
}
