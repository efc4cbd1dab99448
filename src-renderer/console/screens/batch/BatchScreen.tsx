// Batch rescreen: import a customer CSV (read and checked in a worker), rescreen every valid row
// in Test or Live with progress and cancel, browse the results, save them as a CSV through the
// save dialog. Rows and results live in memory only (stores/batch.ts). Owners and admins also see
// every open batch of the organisation and may end any (OpenBatchesPanel).
import { useState } from 'react';
import { errorText } from '../../api/client';
import { Alert } from '../../components/Alert';
import { ScreenHeader } from '../../components/ScreenHeader';
import { StaleListsBanner } from '../../components/StaleListsBanner';
import { useBatch } from '../../stores/batch';
import { templateCsv } from '../../components/batch/csv-columns';
import { ImportPanel } from './ImportPanel';
import { importFile, readAgain } from './parse-csv';
import { saveIssues, saveTemplate } from '../../components/batch/results-csv';
import { ResultsPanel } from './ResultsPanel';
import { isRunning } from './run-batch';
import { RunPanel } from './RunPanel';
import { OpenBatchesPanel } from './OpenBatchesPanel';
import { useSession } from '../../stores/session';
import { may } from '../../../../src-shared/policy';
import { useDiscardGuard } from '../../components/batch/use-discard-guard';
import { useSaveResults } from '../../components/batch/use-save-results';
import './batch.css';

export function BatchScreen() {
  const running = useBatch((s) => s.run !== null && ['starting', 'running', 'cancelling'].includes(s.run.status));
  const { save, saving, notice } = useSaveResults();
  const { guard, dialog: discardDialog } = useDiscardGuard(save);
  const [fileNotice, setFileNotice] = useState<string | null>(null);
  const user = useSession((s) => s.session?.user);

  const onFile = (file: File) => {
    if (isRunning()) return;
    guard('Import the new file', () => importFile(file));
  };

  const onReadAgain = (change: Parameters<typeof readAgain>[0]) => {
    if (isRunning()) return;
    guard('Read the file again', () => readAgain(change));
  };

  const download = async (what: () => Promise<unknown>) => {
    setFileNotice(null);
    try {
      await what();
    } catch (e) {
      setFileNotice(errorText(e));
    }
  };

  return (
    <>
      <ScreenHeader
        title="Batch rescreen"
        summary="Rescreen a whole customer file against the current lists and see what changed since the last screening. The file stays on this computer: results go back into a CSV you save, and the app keeps no copy."
        actions={
          <button type="button" className="btn" onClick={() => void download(() => saveTemplate(templateCsv()))} data-testid="batch-template">
            Download template
          </button>
        }
      />
      <StaleListsBanner />
      {fileNotice ? <Alert testId="batch-file-error">{fileNotice}</Alert> : null}
      {notice ? <Alert tone={notice.tone} testId="batch-save-notice">{notice.text}</Alert> : null}

      <ImportPanel
        locked={running}
        onFile={onFile}
        onReadAgain={onReadAgain}
        onSaveIssues={() => void download(() => {
          const s = useBatch.getState();
          return saveIssues(s.parse.fileName, s.issues);
        })}
      />
      <RunPanel guard={guard} onSave={() => void save()} saving={saving} />
      <ResultsPanel />
      {user && may(user.role, 'batches.manage_all') ? <OpenBatchesPanel viewerId={user.id} /> : null}

      {discardDialog}
    </>
  );
}
