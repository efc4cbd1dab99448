import type { WebhookEndpoint } from '../../../../src-shared/contracts/webhooks';
import { ConfirmRemoveDialog } from '../../components/ConfirmRemoveDialog';
import { webhooksApi } from './webhooks-api';

interface RemoveEndpointDialogProps {
  endpoint: WebhookEndpoint;
  onClose: () => void;
  onRemoved: (endpoint: WebhookEndpoint) => void;
}

export function RemoveEndpointDialog({ endpoint, onClose, onRemoved }: RemoveEndpointDialogProps) {
  return (
    <ConfirmRemoveDialog
      title="Remove this endpoint?"
      testId="webhook"
      keepLabel="Keep endpoint"
      confirmLabel="Remove endpoint"
      onClose={onClose}
      onConfirm={async () => {
        await webhooksApi.remove(endpoint.id);
        onRemoved(endpoint);
      }}
      body={
        <p className="wh-break">
          <strong data-testid="remove-webhook-url">{endpoint.url}</strong> ({endpoint.env === 'test' ? 'test' : 'live'}) will stop
          receiving events at once, including retries still waiting. This cannot be undone.
        </p>
      }
    />
  );
}
