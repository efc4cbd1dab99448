// "Add your own list": a name and a CSV. The file is read here first and the dialog says which
// encoding it was read in, with a choice when that was a guess (list-file.ts); the service imports
// the rows it can and reports the others by row, column and reason (never the cell's value), which
// is what this dialog shows.
import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { EncodingGuess, TextEncodingName } from '../../../../../src-shared/csv-text';
import { errorText } from '../../../api/client';
import { Alert } from '../../../components/Alert';
import { DataGrid, type GridColumn } from '../../../components/DataGrid';
import { Dialog } from '../../../components/Dialog';
import { EncodingNotice } from '../../../components/EncodingNotice';
import { Field } from '../../../components/Field';
import { formatNumber } from '../../../components/format';
import { FilePicker } from './FilePicker';
import { readListFile } from './list-file';
import { listsApi, listSlug, type ListIssue, type UserList, type UserReport } from './lists-api';
import { LIST_COLUMNS, saveListTemplate } from './template';
import { AgainOrDoneFooter, FormFooter } from '../../../components/FormFooter';

type ShownIssue = ListIssue & { key: number };

const ISSUE_COLUMNS: GridColumn<ShownIssue>[] = [
  { id: 'row', header: 'Row', width: '80px', numeric: true, nowrap: true, cell: (row) => formatNumber(row.row) },
  {
    id: 'column', header: 'Column', width: 'minmax(0, 1fr)', nowrap: true,
    cell: (row) => (row.column ? <code>{row.column}</code> : <span className="muted">—</span>),
  },
  { id: 'reason', header: 'Problem', width: 'minmax(0, 3fr)', cell: (row) => row.reason },
];

const NAME_MAX = 80;

interface AddListDialogProps {
  existing: readonly UserList[];
  onClose: () => void;
  /** A list was stored: the panel and the form's list kinds reload. */
  onImported: (report: UserReport) => void;
}

interface Errors {
  name?: string | undefined;
  file?: string | undefined;
}

export function AddListDialog({ existing, onClose, onImported }: AddListDialogProps) {
  const formId = useId();
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  /** How the chosen file was read (shown), and the encoding the analyst chose instead of the detected one. */
  const [reading, setReading] = useState<{ encoding: TextEncodingName; detected: EncodingGuess; chosen: TextEncodingName | null } | null>(null);
  const inspection = useRef(0);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<{ name: string; report: UserReport } | null>(null);
  const [templateError, setTemplateError] = useState<string | null>(null);

  const slug = listSlug(name.trim());
  const replaces = slug ? existing.find((u) => u.slug === slug) : undefined;
  const done = report?.report.ok === true;

  /**
   * Reads the chosen file to show how it reads (the text is read again when it is imported). Read
   * again in another encoding, the notice stays until the new reading replaces it, keeping focus.
   */
  const inspect = async (f: File | null, chosen: TextEncodingName | null) => {
    const n = ++inspection.current;
    if (!f) {
      setReading(null);
      return;
    }
    try {
      const read = await readListFile(f, chosen);
      if (inspection.current !== n) return;
      if (read.ok) setReading({ encoding: read.encoding, detected: read.detected, chosen });
      else setErrors((x) => ({ ...x, file: read.error }));
    } catch {
      if (inspection.current === n) setErrors((x) => ({ ...x, file: 'The file could not be read.' }));
    }
  };

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const trimmed = name.trim();
    const next: Errors = {};
    if (!trimmed) next.name = 'Enter a name for the list.';
    else if (!listSlug(trimmed)) next.name = 'Use at least one letter or digit in the name.';
    if (!file) next.file = 'Choose the CSV file to import.';
    setErrors(next);
    setFailure(null);
    if (next.name || next.file || !file) return;
    setBusy(true);
    setReport(null);
    try {
      // Uploaded as the analyst accepted it: the text in the encoding shown, as UTF-8.
      const read = await readListFile(file, reading?.chosen ?? null);
      if (!read.ok) {
        setErrors({ file: read.error });
        return;
      }
      const result = await listsApi.importUserList(trimmed, new Blob([read.text], { type: 'text/csv' }));
      setReport({ name: trimmed, report: result });
      if (result.ok) onImported(result);
    } catch (err) {
      setFailure(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const again = () => {
    setName('');
    setFile(null);
    void inspect(null, null);
    setReport(null);
    setErrors({});
    setFailure(null);
  };

  const downloadTemplate = async () => {
    setTemplateError(null);
    try {
      await saveListTemplate();
    } catch (err) {
      setTemplateError(`Could not save the template: ${errorText(err)}`);
    }
  };

  return (
    <Dialog
      title="Add your own list"
      onClose={onClose}
      busy={busy}
      testId="add-user-list-dialog"
      footer={
        done ? (
          <AgainOrDoneFooter againLabel="Add another list" onAgain={again} onDone={onClose} testIdPrefix="add-user-list" />
        ) : (
          <FormFooter formId={formId} busy={busy} onCancel={onClose} submitLabel="Import list" busyLabel="Importing…" submitTestId="add-user-list-submit" />
        )
      }
      description={
        done ? undefined : (
          <p>
            PEP, RCA, wanted or internal lists, one person or organization per row. Rows with a problem are left out and listed here
            by row and column; the others are screened from then on.
          </p>
        )
      }
    >
      {done ? null : (
        <form id={formId} className="form" onSubmit={(e) => void submit(e)} noValidate>
          {failure ? <Alert testId="add-user-list-error" title="The list was not imported.">{failure}</Alert> : null}
          <Field
            label="List name" value={name} maxLength={NAME_MAX} required data-autofocus="" autoComplete="off" spellCheck={false}
            placeholder="e.g. Domestic PEPs" error={errors.name} testId="user-list-name" disabled={busy}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setErrors((x) => ({ ...x, name: undefined }));
            }}
            hint={
              replaces ? (
                <span className="text-warning" data-testid="user-list-replaces">
                  Replaces your list “{replaces.name}” ({formatNumber(replaces.rows)} {replaces.rows === 1 ? 'record' : 'records'}).
                </span>
              ) : (
                'Shown with every match from this list.'
              )
            }
          />
          <FilePicker
            label="CSV file" file={file} accept=".csv,.tsv,.txt,text/csv" error={errors.file} disabled={busy} testId="user-list-file"
            onFile={(f) => {
              setFile(f);
              setReading(null);
              setErrors((x) => ({ ...x, file: undefined }));
              void inspect(f, null);
            }}
            hint={
              <>
                A header row naming the columns, then one row per record; <code>;</code> separates several values in a cell.{' '}
                <button type="button" className="link-button" onClick={() => void downloadTemplate()} data-testid="user-list-template">
                  Download the template
                </button>
              </>
            }
          />
          {reading ? (
            <EncodingNotice
              encoding={reading.encoding}
              detected={reading.detected}
              disabled={busy}
              onChoose={(encoding) => {
                if (file) void inspect(file, encoding === reading.detected.encoding ? null : encoding);
              }}
              testId="user-list-encoding"
            />
          ) : null}
          {templateError ? <Alert testId="user-list-template-error">{templateError}</Alert> : null}
          <details className="lst-help" data-testid="user-list-columns">
            <summary>Columns</summary>
            <dl className="lst-columns">
              {LIST_COLUMNS.map((c) => (
                <div key={c.name}>
                  <dt>
                    <code>{c.name}</code>
                    {c.required ? <span className="lst-required"> required</span> : null}
                  </dt>
                  <dd>{c.help}</dd>
                </div>
              ))}
            </dl>
            <p className="muted">
              <code>aliases</code>, <code>dob</code>, <code>country</code>, <code>id</code> and <code>program</code> take several
              values separated by <code>;</code>. Other columns are ignored. Row numbers count the header as row 1, as a spreadsheet does.
            </p>
          </details>
        </form>
      )}
      {report ? <ImportReport name={report.name} report={report.report} /> : null}
    </Dialog>
  );
}

/** "and 4,900 more problems": the service lists the first 100 of each kind and counts the rest. */
function More({ count, one, many, testId }: { count: number; one: string; many: string; testId: string }) {
  if (count <= 0) return null;
  return (
    <p className="muted" data-testid={testId} data-count={count}>
      and {formatNumber(count)} more {count === 1 ? one : many}
    </p>
  );
}

function ImportReport({ name, report }: { name: string; report: UserReport }) {
  const { rows, errors, warnings } = report;
  const shown = useMemo(() => errors.map((i, key): ShownIssue => ({ ...i, key })), [errors]);
  const moreErrors = report.errors_total - errors.length;
  return (
    <div className="lst-report" data-testid="user-list-report" data-ok={report.ok}>
      {report.ok ? (
        <Alert tone="success" testId="user-list-imported-alert" title={`“${name}” is imported.`}>
          Its records are screened from now on.
          {rows.rejected > 0 ? ' Fix the rows below in your file and import it again under the same name to include them.' : ''}
        </Alert>
      ) : (
        <Alert testId="user-list-failed" title="No row could be imported; nothing was saved.">
          Fix the problems below in your file and import it again.
        </Alert>
      )}
      <div className="lst-stats">
        <div className="lst-stat">
          <span className="lst-stat-value lst-ok" data-testid="user-list-imported" data-count={rows.imported}>{formatNumber(rows.imported)}</span>
          <span className="muted">imported</span>
        </div>
        <div className="lst-stat">
          <span className={`lst-stat-value${rows.rejected > 0 ? ' lst-bad' : ''}`} data-testid="user-list-rejected" data-count={rows.rejected}>
            {formatNumber(rows.rejected)}
          </span>
          <span className="muted">{rows.rejected === 1 ? 'row left out' : 'rows left out'}</span>
        </div>
        <div className="lst-stat">
          <span className="lst-stat-value">{formatNumber(rows.total)}</span>
          <span className="muted">rows read</span>
        </div>
      </div>
      {errors.length > 0 ? (
        <div className="lst-issues">
          <h3 className="lst-label">
            Problems{moreErrors > 0 ? ` (first ${formatNumber(errors.length)} of ${formatNumber(report.errors_total)})` : ''}
          </h3>
          <div className="lst-issues-table">
            <DataGrid
              label="Problems found in the file"
              rows={shown}
              columns={ISSUE_COLUMNS}
              getRowKey={(i) => String(i.key)}
              testId="user-list-errors"
              rowTestId="user-list-error-row"
              totalRows={errors.length}
              empty="No problems."
            />
          </div>
          <More count={moreErrors} one="problem" many="problems" testId="user-list-more-errors" />
        </div>
      ) : null}
      {warnings.length > 0 ? (
        <div className="lst-issues" data-testid="user-list-warnings">
          <h3 className="lst-label">Notes</h3>
          <ul className="lst-warnings">
            {warnings.map((w, i) => (
              <li key={i}>
                Row {formatNumber(w.row)}{w.column ? <>, <code>{w.column}</code></> : null}: {w.reason}
              </li>
            ))}
          </ul>
          <More count={report.warnings_total - warnings.length} one="note" many="notes" testId="user-list-more-warnings" />
        </div>
      ) : null}
    </div>
  );
}
