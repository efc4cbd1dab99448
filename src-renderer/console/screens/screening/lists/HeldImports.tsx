// Official files held for confirmation (they would remove much of a list): what each changes,
// and, for owners and admins, Apply or Discard. Until then screening keeps the edition in use.
import { useState } from 'react';
import { errorText } from '../../../api/client';
import { Alert } from '../../../components/Alert';
import { formatDate } from '../../../components/format';
import { OFFICIAL_INFO } from './ImportOfficialDialog';
import { ListChangesView } from './ListChangesView';
import { listsApi, type OfficialImport, type OfficialSource } from './lists-api';

interface HeldImportsProps {
  held: readonly OfficialImport[];
  canManage: boolean;
  /** The file is in use now (its result), or was discarded (null). */
  onDone: (result: OfficialImport | null, message: string) => void;
}

export function HeldImports({ held, canManage, onDone }: HeldImportsProps) {
  const [busy, setBusy] = useState<OfficialSource | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (held.length === 0) return null;

  const act = async (h: OfficialImport, apply: boolean) => {
    if (busy) return;
    setBusy(h.source);
    setError(null);
    const label = OFFICIAL_INFO[h.source].label;
    try {
      if (apply) onDone(await listsApi.applyHeld(h.source), `${label}: the held file is in use now (${h.records} records).`);
      else {
        await listsApi.discardHeld(h.source);
        onDone(null, `${label}: the held file was discarded; the edition in use stays.`);
      }
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="lst-held" data-testid="held-imports">
      <h3 className="lst-label">Held for confirmation</h3>
      {error ? <Alert testId="held-error">{error}</Alert> : null}
      <ul className="lst-held-items">
        {held.map((h) => (
          <li key={h.source} data-testid="held-import" data-source={h.source}>
            <span className="scr-list-title">{OFFICIAL_INFO[h.source].label}: newer file held, not in use</span>
            <span className="muted lst-held-when">uploaded {h.held_at ? formatDate(h.held_at) : ''}</span>
            <p className="lst-held-reason" data-testid="held-import-reason">{h.reason}</p>
            <ListChangesView changes={h.changes} testId="held-import-changes" />
            {canManage ? (
              <div className="lst-held-actions">
                <button type="button" className="btn btn-small btn-danger" disabled={busy !== null} onClick={() => void act(h, true)} data-testid="held-import-apply">
                  {busy === h.source ? 'Working…' : 'Apply this file'}
                </button>
                <button type="button" className="btn btn-small" disabled={busy !== null} onClick={() => void act(h, false)} data-testid="held-import-discard">
                  Discard
                </button>
              </div>
            ) : (
              <p className="muted">An owner or admin applies or discards it.</p>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
