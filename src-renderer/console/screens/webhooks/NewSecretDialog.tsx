// Shows a new endpoint's signing secret, once. It lives only in this dialog's props: closing it
// drops it, and no store or storage ever sees it.
import type { CreatedWebhook } from '../../../../src-shared/contracts/webhooks';
import { Alert } from '../../components/Alert';
import { CopyField } from '../../components/CopyField';
import { Dialog } from '../../components/Dialog';
import { SigningHelp } from './SigningHelp';

export function NewSecretDialog({ created, onClose, rotated = false }: { created: CreatedWebhook; onClose: () => void; rotated?: boolean }) {
  const { endpoint } = created;
  const until = endpoint.previous_secret_until ? new Date(endpoint.previous_secret_until).toLocaleString() : null;
  return (
    <Dialog
      title={rotated ? 'New signing secret' : 'Endpoint added'}
      onClose={onClose}
      testId="new-webhook-dialog"
      footer={
        <button type="button" className="btn btn-primary" onClick={onClose} data-testid="new-webhook-done">
          I have stored it, close
        </button>
      }
    >
      <Alert tone="warning" title="Copy the signing secret now.">
        You will not see it again. If you lose it, {rotated ? 'rotate it again once the overlap has ended' : 'remove this endpoint and add it again'}.
      </Alert>
      {rotated && until ? (
        <p data-testid="rotation-overlap">
          Until {until}, deliveries keep the old secret&apos;s signature in <code>X-Service-Signature</code> and carry this one&apos;s in{' '}
          <code>X-Service-Signature-Next</code>. After that, <code>X-Service-Signature</code> uses this secret. Switch your receiver before then.
        </p>
      ) : null}
      <p className="muted wh-break">
        <strong className="text-body">{endpoint.url}</strong> · {endpoint.env === 'test' ? 'Test' : 'Live'} · {endpoint.events.length}{' '}
        {endpoint.events.length === 1 ? 'event' : 'events'}
      </p>
      <CopyField label="Signing secret" value={created.secret} testId="new-webhook-secret" autoFocus />
      <div className="wh-help-box">
        <p className="wh-help-title">Your receiver checks each delivery with it:</p>
        <SigningHelp compact />
      </div>
    </Dialog>
  );
}
