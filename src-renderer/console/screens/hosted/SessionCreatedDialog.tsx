// Shows a new session's URL and its QR code, once. The URL holds the session's token: it lives
// only in this dialog's props (the service keeps a hash), so closing the dialog drops it.
import type { Environment } from '../../../../src-shared/catalog';
import type { HostedGenerateResponse } from '../../../../src-shared/contracts/hosted';
import { Alert } from '../../components/Alert';
import { Badge } from '../../components/Badge';
import { CopyField } from '../../components/CopyField';
import { Dialog } from '../../components/Dialog';
import { LinkReachNotice } from '../../components/LinkReachNotice';
import { formatDateTime } from '../../components/format';
import { PRODUCT_INFO, type HostedProduct } from './labels';
import { QrCode } from './QrCode';

interface SessionCreatedDialogProps {
  created: HostedGenerateResponse;
  product: HostedProduct;
  env: Environment;
  onClose: () => void;
  /** Shows the on-site server (the dialog closes). */
  onOnsite: () => void;
}

export function SessionCreatedDialog({ created, product, env, onClose, onOnsite }: SessionCreatedDialogProps) {
  const expires = formatDateTime(created.expires_at);
  // A loopback link cannot be opened by another device: no QR code that cannot work (issue 26).
  const scannable = created.link_reach !== 'this_computer';
  return (
    <Dialog
      title="Hosted session ready"
      onClose={onClose}
      testId="hosted-created-dialog"
      footer={
        <button type="button" className="btn btn-primary" onClick={onClose} data-testid="hosted-created-done">
          Done
        </button>
      }
    >
      <Alert tone="warning" title="This link is shown once.">
        Only a hash of it is kept, so it cannot be shown again. {scannable ? 'Scan the code or copy the link now.' : 'Copy the link now.'} It expires on{' '}
        <time dateTime={created.expires_at} data-testid="hosted-created-expires">{expires}</time> and works for one check.
      </Alert>
      <LinkReachNotice reach={created.link_reach} kind="link" onOnsite={onOnsite} testId="hosted-link-reach" />
      <div className="hs-share">
        {scannable ? (
          <figure className="hs-qr-frame">
            <QrCode value={created.hosted_url} label={`QR code of the ${PRODUCT_INFO[product].label.toLowerCase()} verification link`} testId="hosted-qr" />
            <figcaption className="muted">Scan with the phone or tablet’s camera.</figcaption>
          </figure>
        ) : null}
        <div className="hs-share-text">
          <p className="hs-env-line">
            <Badge tone={env}>{env === 'test' ? 'Test' : 'Live'}</Badge>
            <strong className="text-body">{PRODUCT_INFO[product].label}</strong>
          </p>
          <p className="muted">{PRODUCT_INFO[product].description}</p>
          <p className="muted">
            {scannable ? 'The device must be able to open the link’s address. ' : ''}The person completes the check there; its state shows
            in the list.
          </p>
        </div>
      </div>
      <CopyField label="Verification link" value={created.hosted_url} testId="hosted-created-url" autoFocus />
      <p className="field-hint">
        Session <code className="mono" data-testid="hosted-created-id">{created.session_id}</code>. The id is not a credential: it names the
        session in the list and in the redirect.
      </p>
    </Dialog>
  );
}
