// "Import newer official file": a newer edition of one of the shipped sanctions lists, in one of
// the formats its publisher issues. The service checks the file is that list and replaces the
// shipped edition with it; a file it does not recognise is refused with its reason.
import { useId, useState, type FormEvent } from 'react';
import { errorText } from '../../../api/client';
import { Alert } from '../../../components/Alert';
import { Dialog } from '../../../components/Dialog';
import { formatNumber } from '../../../components/format';
import { versionDate } from '../labels';
import { partialDateLabel } from '../../../../../src-shared/dates';
import type { LoadedList } from '../screening-api';
import { FilePicker } from './FilePicker';
import { ListChangesView } from './ListChangesView';
import { listsApi, OFFICIAL_SOURCES, type OfficialImport, type OfficialSource } from './lists-api';
import { AgainOrDoneFooter, FormFooter } from '../../../components/FormFooter';

export const OFFICIAL_INFO: Record<OfficialSource, { label: string; files: string; accept: string }> = {
  us_ofac_sdn: {
    label: 'OFAC SDN',
    files: 'SDN_ENHANCED.ZIP or SDN_ENHANCED.XML (names, aliases and addresses in one file), or sdn.csv.',
    accept: '.zip,.xml,.csv',
  },
  us_ofac_cons: {
    label: 'OFAC non-SDN (Consolidated)',
    files: 'CONS_ENHANCED.ZIP or CONS_ENHANCED.XML, or cons_prim.csv.',
    accept: '.zip,.xml,.csv',
  },
  us_csl: {
    label: 'US Consolidated Screening List',
    files: 'consolidated.csv from trade.gov, or the same file gzipped (consolidated.csv.gz).',
    accept: '.csv,.gz',
  },
  un_sc: {
    label: 'UN Security Council',
    files: 'consolidated.xml, the UN Security Council Consolidated List in XML.',
    accept: '.xml',
  },
  pep_us_congress: {
    label: 'US Congress (PEP)',
    files: 'legislators-current.yaml from the @unitedstates congress-legislators project.',
    accept: '.yaml,.yml',
  },
  pep_us_executive: {
    label: 'US Presidents and Vice Presidents (PEP)',
    files: 'executive.yaml from the @unitedstates congress-legislators project.',
    accept: '.yaml,.yml',
  },
  pep_wikidata_leaders: {
    label: 'Heads of state and government (PEP, Wikidata)',
    files: 'leaders_history.csv (former and current office holders) or leaders_current.csv (current only): iso3,country,role,person,person_qid,start,end,...',
    accept: '.csv',
  },
  uk_sanctions: {
    label: 'UK Sanctions List',
    files: 'The full UK Sanctions List file from gov.uk (FCDO; CSV, XLSX or ODS), or an OFSI Consolidated List (ConList). The short FCDO export (primary names only) is not enough on its own.',
    accept: '.ods,.xlsx,.csv',
  },
  au_dfat: {
    label: 'Australia DFAT Consolidated List',
    files: 'regulation8_consolidated.xlsx from dfat.gov.au.',
    accept: '.xlsx',
  },
};

interface ImportOfficialDialogProps {
  loaded: readonly LoadedList[];
  onClose: () => void;
  /** The file was stored and the service rebuilt its lists: the panel reloads. */
  onImported: (result: OfficialImport) => void;
}

interface Errors {
  source?: string | undefined;
  file?: string | undefined;
}

export function ImportOfficialDialog({ loaded, onClose, onImported }: ImportOfficialDialogProps) {
  const formId = useId();
  const selectId = useId();
  const [source, setSource] = useState<OfficialSource | ''>('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<OfficialImport | null>(null);

  const current = source ? loaded.find((l) => l.source === source) : undefined;

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const next: Errors = {};
    if (!source) next.source = 'Choose the list this file is a newer edition of.';
    if (!file) next.file = 'Choose the file to import.';
    setErrors(next);
    setRefusal(null);
    if (!source || !file) return;
    setBusy(true);
    try {
      const imported = await listsApi.importOfficial(source, file);
      setResult(imported);
      onImported(imported);
    } catch (err) {
      setRefusal(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const again = () => {
    setSource('');
    setFile(null);
    setResult(null);
    setErrors({});
    setRefusal(null);
  };

  return (
    <Dialog
      title="Import newer official file"
      onClose={onClose}
      busy={busy}
      testId="import-official-dialog"
      footer={
        result ? (
          <AgainOrDoneFooter againLabel="Import another file" onAgain={again} onDone={onClose} testIdPrefix="import-official" />
        ) : (
          <FormFooter formId={formId} busy={busy} onCancel={onClose} submitLabel="Import file" busyLabel="Importing…" submitTestId="import-official-submit" />
        )
      }
      description={
        result ? undefined : (
          <p>
            A newer edition downloaded from the publisher replaces the one shipped with the app, for every screening from then on.
            The service checks that the file is the list you choose before using it.
          </p>
        )
      }
    >
      {result?.held ? (
        <Alert tone="warning" testId="import-official-held" title={`${OFFICIAL_INFO[result.source as OfficialSource]?.label ?? result.source}: file held, not in use.`}>
          <p data-testid="import-official-held-reason">{result.reason}</p>
          <ListChangesView changes={result.changes} testId="import-official-changes" />
          <p>It waits under “Lists loaded”, where an owner or admin applies or discards it.</p>
        </Alert>
      ) : result ? (
        <Alert tone="success" testId="import-official-result" title={`${OFFICIAL_INFO[result.source as OfficialSource]?.label ?? result.source} is updated.`}>
          <span data-testid="import-official-summary" data-records={result.records} data-list-date={result.list_date ?? ''}>
            <span data-testid="import-official-records">{formatNumber(result.records)} records</span>,{' '}
            {result.list_date ? (
              <>
                list date <time dateTime={result.list_date} data-testid="import-official-date">{partialDateLabel(result.list_date)}</time>
              </>
            ) : (
              <span data-testid="import-official-date">retrieved today (the file states no date)</span>
            )}
            . Screening uses this file from now on.
          </span>
          <ListChangesView changes={result.changes} testId="import-official-changes" />
        </Alert>
      ) : (
        <form id={formId} className="form" onSubmit={(e) => void submit(e)} noValidate>
          {refusal ? (
            <Alert testId="import-official-error" title="The file was not imported.">
              <span data-testid="import-official-error-text">{refusal}</span>
            </Alert>
          ) : null}
          <div className={`field${errors.source ? ' field-invalid' : ''}`}>
            <label htmlFor={selectId}>List</label>
            <select
              id={selectId} className="scr-select" value={source} disabled={busy} data-autofocus=""
              aria-invalid={errors.source ? true : undefined}
              aria-describedby={errors.source ? `${selectId}-error` : current ? `${selectId}-hint` : undefined}
              onChange={(e) => {
                setSource(e.currentTarget.value as OfficialSource | '');
                setErrors((x) => ({ ...x, source: undefined }));
                setRefusal(null);
              }}
              data-testid="official-source"
            >
              <option value="">Choose a list…</option>
              {OFFICIAL_SOURCES.map((s) => (
                <option key={s} value={s}>
                  {OFFICIAL_INFO[s].label}
                </option>
              ))}
            </select>
            {current ? (
              <div id={`${selectId}-hint`} className="field-hint" data-testid="official-current">
                Loaded now: {versionDate(current)} · {formatNumber(current.counts.total)} records
              </div>
            ) : null}
            {errors.source ? (
              <div id={`${selectId}-error`} className="field-error" data-testid="official-source-error">
                {errors.source}
              </div>
            ) : null}
          </div>
          <FilePicker
            label="File" file={file} accept={source ? OFFICIAL_INFO[source].accept : undefined} error={errors.file} disabled={busy}
            testId="official-file"
            onFile={(f) => {
              setFile(f);
              setErrors((x) => ({ ...x, file: undefined }));
              setRefusal(null);
            }}
            hint={source ? `Accepted: ${OFFICIAL_INFO[source].files}` : 'Choose the list first to see which files it accepts.'}
          />
          {busy ? (
            <p className="muted lst-busy" role="status">
              <span className="scr-spinner" aria-hidden="true" /> Reading the file and rebuilding the lists. This takes a few seconds.
            </p>
          ) : null}
        </form>
      )}
    </Dialog>
  );
}
