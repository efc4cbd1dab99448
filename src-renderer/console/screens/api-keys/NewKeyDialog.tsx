// Shows a just-created key and secret, once. They live only in this dialog's props: closing it
// drops them, and no store or storage ever sees them.
import type { CreatedKey } from '../../../../src-shared/contracts/accounts';
import { Alert } from '../../components/Alert';
import { CopyField } from '../../components/CopyField';
import { Dialog } from '../../components/Dialog';

export function NewKeyDialog({ created, onClose }: { created: CreatedKey; onClose: () => void }) {
  const { key } = created;
  return (
    <Dialog
      title="Your new API key"
      onClose={onClose}
      testId="new-key-dialog"
      footer={
        <button type="button" className="btn btn-primary" onClick={onClose} data-testid="new-key-done">
          I have stored them, close
        </button>
      }
    >
      <Alert tone="warning" title="Copy the key and secret now.">
        You will not see them again. If you lose them, revoke this key and create a new one.
      </Alert>
      <p className="muted">
        <strong className="text-body">{key.name}</strong> · {key.env === 'test' ? 'Test' : 'Live'} · scopes {key.scopes.join(', ')}
        {key.demo ? ' · demo' : ''}
      </p>
      <CopyField label="API key" value={created.api_key} testId="new-key-value" autoFocus />
      <CopyField label="Secret" value={created.secret} testId="new-key-secret" />
      <p className="field-hint">
        Your backend sends the key in the <code>X-API-Key</code> header. Keep the secret on your backend only: it validates hosted
        session tokens. Never put either in a web page or mobile app.
      </p>
    </Dialog>
  );
}
