import { useState } from 'react';
import type { ApiKey } from '../../../../src-shared/contracts/accounts';
import { api, errorText } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Dialog } from '../../components/Dialog';

interface RevokeKeyDialogProps {
  apiKey: ApiKey;
  onClose: () => void;
  onRevoked: (key: ApiKey) => void;
}

export function RevokeKeyDialog({ apiKey, onClose, onRevoked }: RevokeKeyDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const revoke = async () => {
    setBusy(true);
    setError(null);
    try {
      onRevoked((await api.revokeKey(apiKey.id)).key);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={`Revoke “${apiKey.name}”?`}
      role="alertdialog"
      size="small"
      onClose={onClose}
      busy={busy}
      testId="revoke-key-dialog"
      description={
        <p>
          Requests that use <strong>{apiKey.name}</strong> (<code className="mono">{apiKey.prefix}…</code>,{' '}
          {apiKey.env === 'test' ? 'test' : 'live'}) will be refused at once. This cannot be undone.
        </p>
      }
      footer={
        <>
          <button type="button" className="btn" onClick={onClose} disabled={busy} data-autofocus="">
            Keep key
          </button>
          <button type="button" className="btn btn-danger" onClick={() => void revoke()} disabled={busy} data-testid="confirm-revoke">
            {busy ? 'Revoking…' : 'Revoke key'}
          </button>
        </>
      }
    >
      {error ? <Alert testId="revoke-key-error">{error}</Alert> : null}
    </Dialog>
  );
}
