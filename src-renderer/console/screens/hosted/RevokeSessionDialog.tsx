// "Revoke this session?": an alertdialog like the other confirmations. Focus starts on keep; a
// failure (the session was completed or expired meanwhile: 410) shows in the dialog.
import { useState } from 'react';
import type { HostedSessionView } from '../../../../src-shared/contracts/hosted';
import { errorText } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Dialog } from '../../components/Dialog';
import { formatDateTime } from '../../components/format';
import { hostedApi } from './hosted-api';
import { PRODUCT_INFO } from './labels';

interface RevokeSessionDialogProps {
  session: HostedSessionView;
  onClose: () => void;
  onRevoked: (session: HostedSessionView) => void;
  /** The session could not be revoked (it closed meanwhile): the list should be read again. */
  onStale: () => void;
}

export function RevokeSessionDialog({ session, onClose, onRevoked, onStale }: RevokeSessionDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const revoke = async () => {
    setBusy(true);
    setError(null);
    try {
      onRevoked(await hostedApi.revoke(session.session_id));
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
      onStale();
    }
  };

  return (
    <Dialog
      title="Revoke this session?"
      role="alertdialog"
      size="small"
      onClose={onClose}
      busy={busy}
      testId="revoke-hosted-dialog"
      description={
        <p>
          The {PRODUCT_INFO[session.product].label.toLowerCase()} link
          {session.page_title ? <> “<strong>{session.page_title}</strong>”</> : null} made on{' '}
          <time dateTime={session.created_at}>{formatDateTime(session.created_at)}</time> ({session.environment}) stops working at once;
          someone who has it open is told it is no longer valid. This cannot be undone.
        </p>
      }
      footer={
        <>
          <button type="button" className="btn" onClick={onClose} disabled={busy} data-autofocus="">
            Keep session
          </button>
          <button type="button" className="btn btn-danger" onClick={() => void revoke()} disabled={busy} data-testid="confirm-revoke-hosted">
            {busy ? 'Revoking…' : 'Revoke session'}
          </button>
        </>
      }
    >
      {error ? <Alert testId="revoke-hosted-error">{error}</Alert> : null}
    </Dialog>
  );
}
