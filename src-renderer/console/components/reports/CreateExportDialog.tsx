// A new report export: which report, PDF or CSV, environment and range (within the plan). Used
// by the Exports screen and by the Reports screen's "Export" (opened on the range on screen).
import { useId, useState, type FormEvent } from 'react';
import type { Environment, Plan } from '../../../../src-shared/catalog';
import { EXPORT_FORMATS, REPORT_TYPES, type CreatedExport, type ExportFormat, type ReportType } from '../../../../src-shared/contracts/reports';
import { errorText } from '../../api/client';
import { exportsApi } from '../../api/reports';
import { Alert } from '../Alert';
import { Dialog } from '../Dialog';
import { EnvironmentChoice } from '../EnvironmentChoice';
import { FormFooter } from '../FormFooter';
import { RangePicker } from './RangePicker';
import { rangeProblem, type DayRange } from './range';
import { FORMAT_LABEL, REPORT_TYPE_HINT, REPORT_TYPE_LABEL } from './export-labels';

export interface ExportDraft extends DayRange {
  env: Environment;
  report_type: ReportType;
  format: ExportFormat;
}

interface CreateExportDialogProps {
  initial: ExportDraft;
  plan: Plan;
  maxDays: number;
  today: string;
  onClose: () => void;
  onCreated: (created: CreatedExport) => void;
}

const FORMAT_HINT: Record<ExportFormat, string> = {
  pdf: 'Charts, summary figures and breakdowns, ready to share.',
  csv: 'The data points only, for a spreadsheet.',
};

export function CreateExportDialog({ initial, plan, maxDays, today, onClose, onCreated }: CreateExportDialogProps) {
  const formId = useId();
  const [draft, setDraft] = useState<ExportDraft>(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const problem = rangeProblem(draft, plan, maxDays);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (problem) return;
    setBusy(true);
    setError(null);
    try {
      onCreated(await exportsApi.create(draft));
    } catch (err) {
      setBusy(false);
      setError(errorText(err));
    }
  };

  return (
    <Dialog
      title="New export"
      onClose={onClose}
      busy={busy}
      testId="create-export-dialog"
      description="The file is made in the background; it is kept for 24 hours after it is ready."
      footer={<FormFooter formId={formId} busy={busy} onCancel={onClose} submitLabel="Create export" busyLabel="Creating…" submitTestId="create-export-submit" />}
    >
      <form id={formId} className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {error ? <Alert testId="create-export-error" title="The export was not created.">{error}</Alert> : null}
        <div className="field">
          <label htmlFor={`${formId}-type`}>Report</label>
          <select
            id={`${formId}-type`}
            value={draft.report_type}
            onChange={(e) => setDraft({ ...draft, report_type: e.target.value as ReportType })}
            aria-describedby={`${formId}-type-hint`}
            data-testid="export-report-type"
            data-autofocus=""
          >
            {REPORT_TYPES.map((t) => (
              <option key={t} value={t}>{REPORT_TYPE_LABEL[t]}</option>
            ))}
          </select>
          <div id={`${formId}-type-hint`} className="field-hint">{REPORT_TYPE_HINT[draft.report_type]}</div>
        </div>
        <fieldset className="fieldset">
          <legend>Format</legend>
          <div className="segmented-options">
            {EXPORT_FORMATS.map((f) => (
              <label key={f} className="option">
                <input type="radio" name={`${formId}-format`} value={f} checked={draft.format === f} onChange={() => setDraft({ ...draft, format: f })} data-testid={`export-format-${f}`} />
                <span>
                  <strong>{FORMAT_LABEL[f]}</strong>
                  <span className="option-hint">{FORMAT_HINT[f]}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <EnvironmentChoice
          name={`${formId}-env`}
          value={draft.env}
          onChange={(env) => setDraft({ ...draft, env })}
          testIdPrefix="export-env"
          hints={{ test: 'Checks made with test keys.', live: 'Checks made with live keys.' }}
        />
        <fieldset className="fieldset">
          <legend>Date range</legend>
          <RangePicker
            value={draft}
            onChange={(range) => setDraft({ ...draft, ...range })}
            plan={plan}
            maxDays={maxDays}
            today={today}
            testId="export-range"
          />
        </fieldset>
      </form>
    </Dialog>
  );
}
