import { useState } from 'react';
import type { WebhookEndpoint } from '../../../../src-shared/contracts/webhooks';
import { errorText } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Dialog } from '../../components/Dialog';
import { webhooksApi } from './webhooks-api';

interface RemoveEndpointDialogProps {
  endpoint: WebhookEndpoint;
  onClose: () => void;
  onRemoved: (endpoint: WebhookEndpoint) => void;
}

export function RemoveEndpointDialog({ endpoint, onClose, onRemoved }: RemoveEndpointDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await webhooksApi.remove(endpoint.id);
      onRemoved(endpoint);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };

  return (
    <Dialog
      title="Remove this endpoint?"
      role="alertdialog"
      size="small"
      onClose={onClose}
      busy={busy}
      testId="remove-webhook-dialog"
      description={
        <p className="wh-break">
          <strong data-testid="remove-webhook-url">{endpoint.url}</strong> ({endpoint.env === 'test' ? 'test' : 'live'}) will stop
          receiving events at once, including retries still waiting. This cannot be undone.
        </p>
      }
      footer={
        <>
          <button type="button" className="btn" onClick={onClose} disabled={busy} data-autofocus="">
            Keep endpoint
          </button>
          <button type="button" className="btn btn-danger" onClick={() => void remove()} disabled={busy} data-testid="confirm-remove-webhook">
            {busy ? 'Removing…' : 'Remove endpoint'}
          </button>
        </>
      }
    >
      {error ? <Alert testId="remove-webhook-error">{error}</Alert> : null}
    </Dialog>
  );
}
