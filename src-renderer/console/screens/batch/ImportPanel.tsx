// Step 1: choose (or drop) a CSV, watch it being read, see how it was read (its encoding, its
// dates) with the choice to read it another way, the first rows as they will be screened, and
// which rows cannot be sent and why.
import { useId, useMemo, useRef, useState, type DragEvent } from 'react';
import { Alert } from '../../components/Alert';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { EncodingNotice } from '../../components/EncodingNotice';
import { formatNumber } from '../../components/format';
import { useBatch, type ParseOptions, type RowIssue } from '../../stores/batch';
import { ColumnsHelp } from './ColumnsHelp';
import { DateOrderNotice } from './DateOrderNotice';
import { ImportPreview } from './ImportPreview';
import { Progress } from './Progress';

/** Issues shown on screen; the download has all of them. */
const SHOWN_ISSUES = 200;

type ShownIssue = RowIssue & { key: number };

const ISSUE_COLUMNS: GridColumn<ShownIssue>[] = [
  { id: 'row', header: 'Row', width: '80px', numeric: true, nowrap: true, cell: (row) => formatNumber(row.row) },
  { id: 'column', header: 'Column', width: 'minmax(0, 1fr)', nowrap: true, cell: (row) => <code>{row.column}</code> },
  { id: 'reason', header: 'Problem', width: 'minmax(0, 3fr)', cell: (row) => row.reason },
];

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

interface ImportPanelProps {
  locked: boolean;
  onFile: (file: File) => void;
  /** Read the same file again another way. */
  onReadAgain: (change: Partial<ParseOptions>) => void;
  onSaveIssues: () => void;
}

export function ImportPanel({ locked, onFile, onReadAgain, onSaveIssues }: ImportPanelProps) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const parse = useBatch((s) => s.parse);
  const validRows = useBatch((s) => s.rows.length);
  const issues = useBatch((s) => s.issues);
  const shownIssues = useMemo(() => issues.slice(0, SHOWN_ISSUES).map((i, key): ShownIssue => ({ ...i, key })), [issues]);

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    if (locked) return;
    const file = e.dataTransfer.files[0];
    if (file) onFile(file);
  };

  const reading = parse.status === 'parsing';
  const percent = parse.fileBytes > 0 ? Math.min(100, Math.round((parse.bytesRead / parse.fileBytes) * 100)) : 0;

  return (
    <section className="panel" aria-labelledby="batch-import-heading" data-testid="batch-import">
      <div className="panel-header">
        <h2 id="batch-import-heading">1. Import a customer file</h2>
        <span className="muted">CSV, one customer per row. Read on this computer; nothing is uploaded until you run.</span>
      </div>
      <div className="bat-body">
        <div
          className={`bat-drop${dragging ? ' bat-drop-over' : ''}${locked ? ' bat-drop-locked' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            if (!locked) setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="batch-drop"
        >
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            accept=".csv,.txt,.tsv,text/csv,text/plain,text/tab-separated-values"
            className="visually-hidden"
            // The "Choose file…" button is the control (a second, unnamed tab stop otherwise).
            tabIndex={-1}
            aria-hidden="true"
            disabled={locked}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              e.currentTarget.value = '';
              if (file) onFile(file);
            }}
            data-testid="batch-file-input"
          />
          <div className="bat-drop-text">
            <strong>{parse.fileName ? parse.fileName : 'Drop a CSV file here'}</strong>
            <span className="muted">
              {parse.fileName ? `${formatBytes(parse.fileBytes)} · drop another file or choose one to replace it` : 'or choose one from this computer'}
            </span>
          </div>
          <button type="button" className="btn" onClick={() => inputRef.current?.click()} disabled={locked} data-testid="batch-choose-file">
            {parse.fileName ? 'Choose another file…' : 'Choose file…'}
          </button>
        </div>

        {reading ? (
          <Progress
            label={`Reading ${parse.fileName}`}
            value={percent}
            text={`${formatNumber(parse.rowsRead)} rows read · ${percent}%`}
            testId="batch-parse-progress"
          />
        ) : null}

        {parse.text || (parse.dates && parse.status !== 'failed') ? (
          <div className="bat-notices">
            {parse.text ? (
              <EncodingNotice
                encoding={parse.text.encoding}
                detected={parse.text.detected}
                disabled={locked}
                onChoose={(encoding) => onReadAgain({ encoding: encoding === parse.text?.detected.encoding ? null : encoding })}
                testId="batch-encoding"
              />
            ) : null}
            {parse.dates && parse.status !== 'failed' ? (
              <DateOrderNotice dates={parse.dates} dayFirst={parse.options.dayFirst} disabled={locked} onDayFirst={(dayFirst) => onReadAgain({ dayFirst })} />
            ) : null}
          </div>
        ) : null}

        {parse.status === 'failed' && parse.error ? (
          <Alert testId="batch-parse-error" title="This file cannot be used.">{parse.error}</Alert>
        ) : null}

        {parse.status === 'done' || (reading && parse.rowsRead > 0) ? (
          <div className="bat-summary" data-testid="batch-validation" data-valid={validRows} data-invalid={parse.invalidRows}>
            <div className="bat-stat">
              <span className="bat-stat-value" data-testid="batch-rows-read">{formatNumber(parse.rowsRead)}</span>
              <span className="muted">rows read</span>
            </div>
            <div className="bat-stat">
              <span className="bat-stat-value bat-ok" data-testid="batch-rows-valid">{formatNumber(validRows)}</span>
              <span className="muted">ready to screen</span>
            </div>
            <div className="bat-stat">
              <span className={`bat-stat-value${parse.invalidRows > 0 ? ' bat-bad' : ''}`} data-testid="batch-rows-invalid">
                {formatNumber(parse.invalidRows)}
              </span>
              <span className="muted">{parse.invalidRows === 1 ? 'row with problems' : 'rows with problems'}</span>
            </div>
            {parse.fromResults ? (
              <p className="bat-summary-note" data-testid="batch-from-results">
                Saved results: their new risk is this run&rsquo;s previous result, and matches cleared as false positives stay cleared while
                their list record is unchanged.
              </p>
            ) : null}
            {parse.ignoredColumns.length > 0 ? (
              <p className="bat-summary-note muted" data-testid="batch-ignored-columns">
                Not used: {parse.ignoredColumns.map((c, i) => (
                  <span key={c}>{i > 0 ? ', ' : ''}<code>{c}</code></span>
                ))}
              </p>
            ) : null}
          </div>
        ) : null}

        <ImportPreview />

        {parse.status === 'done' && validRows === 0 && parse.rowsRead === 0 ? (
          <Alert tone="warning" testId="batch-no-rows">The file has a header but no customer rows.</Alert>
        ) : null}

        {issues.length > 0 ? (
          <div className="bat-issues" data-testid="batch-issues">
            <div className="bat-issues-head">
              <h3>Rows that will be left out</h3>
              <span className="muted">
                {issues.length > SHOWN_ISSUES ? `First ${SHOWN_ISSUES} of ${formatNumber(issues.length)} problems. ` : ''}
                The run screens the other rows; fix these in your file and import it again to include them.
              </span>
              <button type="button" className="btn btn-small" onClick={onSaveIssues} data-testid="batch-save-issues">
                Download error report
              </button>
            </div>
            <div className="bat-issues-table">
              <DataGrid
                label="Problems found in the file"
                rows={shownIssues}
                columns={ISSUE_COLUMNS}
                getRowKey={(i) => String(i.key)}
                testId="batch-issues-table"
                rowTestId="batch-issue-row"
                totalRows={issues.length}
                empty="No problems."
              />
            </div>
          </div>
        ) : null}

        <ColumnsHelp />
      </div>
    </section>
  );
}
