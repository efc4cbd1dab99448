// Shows a new invitation's acceptance link, once. The link holds the token: it lives only in this
// dialog's props (the service keeps a hash), so closing the dialog drops it.
import type { CreatedInvitation } from '../../../../src-shared/contracts/team';
import { Alert } from '../../components/Alert';
import { CopyField } from '../../components/CopyField';
import { Dialog } from '../../components/Dialog';
import { formatDateTime } from '../../components/format';
import { ROLE_LABEL } from './team-rules';

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function InvitationLinkDialog({ created, onClose }: { created: CreatedInvitation; onClose: () => void }) {
  const { invite } = created;
  return (
    <Dialog
      title="Invitation created"
      onClose={onClose}
      testId="invite-link-dialog"
      footer={
        <button type="button" className="btn btn-primary" onClick={onClose} data-testid="invite-link-done">
          Done
        </button>
      }
    >
      <Alert tone="warning" title="Copy the link now: it is shown only once.">
        No e-mail is sent from this desktop install. Pass the link to <strong data-testid="invite-link-email">{invite.email}</strong> yourself.
        It works once, until <time dateTime={invite.expires_at} data-testid="invite-link-expires">{formatDateTime(invite.expires_at)}</time>.
      </Alert>
      <p className="muted tm-break">
        They join as <strong className="text-body" data-testid="invite-link-role">{ROLE_LABEL[invite.role].toLowerCase()}</strong>. The link
        opens the console on this computer (<code className="mono">{hostOf(created.accept_url)}</code>): the invitee opens it here, in a
        browser window where nobody is signed in, and creates the account for the invited address (or signs in with it).
      </p>
      <CopyField label="Acceptance link" value={created.accept_url} testId="invite-link" autoFocus />
    </Dialog>
  );
}
