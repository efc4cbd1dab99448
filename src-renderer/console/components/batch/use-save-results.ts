// "Save results…" for the batch and review screens: the save dialog in the desktop app, a
// download in a browser. The dispositions count as saved once the file is written.
import { useState } from 'react';
import { errorText } from '../../api/client';
import { useBatch } from '../../stores/batch';
import { saveResults } from './results-csv';

export interface SaveNotice {
  tone: 'success' | 'error';
  text: string;
}

export function useSaveResults() {
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<SaveNotice | null>(null);

  const save = async (): Promise<boolean> => {
    const s = useBatch.getState();
    setSaving(true);
    setNotice(null);
    try {
      const result = await saveResults(s.parse.fileName, s.rows, s.entries, s.dispositions, { versions: s.run?.listVersions ?? [], asOf: s.run?.listsAsOf ?? null });
      if (!result.saved) return false;
      useBatch.getState().markSaved();
      const where = result.path ? `Saved to ${result.path}.` : 'Saved: the file is in your downloads.';
      setNotice({ tone: 'success', text: `${where} Import it next time to carry the dispositions over.` });
      return true;
    } catch (e) {
      setNotice({ tone: 'error', text: `Could not save the results: ${errorText(e)}` });
      return false;
    } finally {
      setSaving(false);
    }
  };

  return { save, saving, notice, clearNotice: () => setNotice(null) };
}
