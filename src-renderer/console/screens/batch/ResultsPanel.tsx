// Every answered row of the run, virtualised: 100,000 rows scroll like 100. Row, name, risk and
// change sort (the grid's table model; the file's order until a header is clicked).
import { useState } from 'react';
import { useBatch, type BatchEntry } from '../../stores/batch';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { formatNumber } from '../../components/format';
import { byName, byRisk, byRiskChange, byRow } from '../../components/batch/compare';
import { fullName } from '../../components/batch/labels';
import { ChangeCell, FlagsCell, RiskCell, TopMatchCell } from '../../components/batch/result-cells';

const COLUMNS: GridColumn<BatchEntry>[] = [
  { id: 'row', header: 'Row', width: '76px', numeric: true, compare: byRow, cell: (e) => <span data-testid="result-row">{e.input.row}</span> },
  {
    id: 'reference', header: 'Reference', width: 'minmax(0, 1fr)',
    cell: (e) => <span className="bat-ellipsis mono" title={e.input.client_reference_id}>{e.input.client_reference_id || '—'}</span>,
  },
  {
    id: 'name', header: 'Name', width: 'minmax(0, 1.4fr)', compare: byName,
    cell: (e) => <span className="bat-ellipsis cell-strong" data-testid="result-name">{fullName(e.input)}</span>,
  },
  { id: 'risk', header: 'Risk', width: '128px', compare: byRisk, firstSort: 'descending', cell: (e) => <RiskCell entry={e} /> },
  { id: 'change', header: 'Risk change', width: '168px', compare: byRiskChange, firstSort: 'descending', cell: (e) => <ChangeCell entry={e} /> },
  { id: 'flags', header: 'Flags', width: 'minmax(0, 1.4fr)', cell: (e) => <FlagsCell entry={e} /> },
  { id: 'match', header: 'Top match', width: 'minmax(0, 1.8fr)', cell: (e) => <TopMatchCell entry={e} /> },
];

export function ResultsPanel() {
  const entries = useBatch((s) => s.entries);
  const run = useBatch((s) => s.run);
  const [active, setActive] = useState(0);
  if (!run) return null;

  return (
    <section className="panel" aria-labelledby="batch-results-heading" data-testid="batch-results">
      <div className="panel-header">
        <h2 id="batch-results-heading">Results</h2>
        <span className="muted" data-testid="batch-results-count">
          {formatNumber(entries.length)} of {formatNumber(run.total)} {run.total === 1 ? 'row' : 'rows'}
        </span>
      </div>
      <DataGrid
        label="Batch rescreen results"
        rows={entries}
        columns={COLUMNS}
        getRowKey={(e) => e.input.row}
        activeIndex={active}
        onActiveIndexChange={setActive}
        testId="batch-results-grid"
        rowTestId="batch-result-row"
        rowAttributes={(e) => ({ 'data-row': e.input.row, 'data-change': e.result?.risk_change ?? 'error' })}
        empty={run.status === 'starting' || run.status === 'running' ? 'Waiting for the first results…' : 'No rows were screened.'}
      />
    </section>
  );
}
