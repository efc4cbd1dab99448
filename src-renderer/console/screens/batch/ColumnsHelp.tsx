// What goes in the file and what comes back: the same column list the template is made from.
import { CARRIED_OVER, INPUT_COLUMNS, OUTPUT_COLUMNS, type ColumnDoc } from '../../components/batch/csv-columns';

function Columns({ columns }: { columns: readonly ColumnDoc[] }) {
  return (
    <dl className="bat-columns">
      {columns.map((c) => (
        <div key={c.name}>
          <dt>
            <code>{c.name}</code>
            {c.required ? <span className="bat-required"> required</span> : null}
          </dt>
          <dd>{c.help}</dd>
        </div>
      ))}
    </dl>
  );
}

export function ColumnsHelp() {
  return (
    <details className="bat-help" data-testid="batch-columns-help">
      <summary>CSV columns</summary>
      <div className="bat-help-body">
        <p className="muted">
          The first line names the columns, in any order; other columns are ignored. Rows are numbered as in a spreadsheet: the header is
          row 1. Lists inside a cell are separated by <code>;</code>.
        </p>
        <p className="muted">
          From Excel, “CSV UTF-8” keeps every letter. “CSV (Comma delimited)” (Windows-1252, cells separated by commas or semicolons) and
          “Unicode Text” (UTF-16, tabs) are read too, and the import says how it read the file; “CSV (Comma delimited)” cannot hold
          letters such as ł or Ș, which Excel saves as “?”.
        </p>
        <h3 className="bat-label">Your file</h3>
        <Columns columns={INPUT_COLUMNS} />
        <h3 className="bat-label">Added to the saved results</h3>
        <Columns columns={OUTPUT_COLUMNS} />
        <p className="muted">{CARRIED_OVER}</p>
      </div>
    </details>
  );
}
