// The new-session form. The session is made in the console's current environment; the URL comes
// back once and the caller shows it (with its QR code) and drops it.
import { useId, useState, type FormEvent } from 'react';
import type { Environment, Plan } from '../../../../src-shared/catalog';
import { HostedConsoleCreateRequest, type HostedGenerateResponse } from '../../../../src-shared/contracts/hosted';
import { Alert } from '../../components/Alert';
import { Badge } from '../../components/Badge';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { FormFooter } from '../../components/FormFooter';
import { hostedApi } from './hosted-api';
import type { HostedProduct } from './labels';
import { SETTINGS_RULE, SessionSettingsFields, numberOf, useSessionSettings } from './SessionSettingsFields';

interface CreateSessionDialogProps {
  env: Environment;
  plan: Plan;
  onClose: () => void;
  onCreated: (created: HostedGenerateResponse, product: HostedProduct) => void;
}

const { product: productRule, ...otherRules } = SETTINGS_RULE;
/** The form's fields in order (the first one refused gets focus) and what to say when one is refused. */
const RULE = {
  product: productRule,
  expires_in_hours: 'Enter a whole number of hours from 1 to 168 (one week).',
  ...otherRules,
};

export function CreateSessionDialog({ env, plan, onClose, onCreated }: CreateSessionDialogProps) {
  const formId = useId();
  const settings = useSessionSettings(formId, RULE);
  const [hours, setHours] = useState('24');
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const body: HostedConsoleCreateRequest = { ...settings.request(), env, expires_in_hours: numberOf(hours) };
    // The service's own schema answers at once; the service checks again (and the redirects).
    if (!settings.accept(HostedConsoleCreateRequest.safeParse(body))) return;
    setBusy(true);
    try {
      onCreated(await hostedApi.create(body), body.product);
    } catch (err) {
      setBusy(false);
      settings.refused(err);
    }
  };

  return (
    <Dialog
      title="New hosted session"
      onClose={onClose}
      busy={busy}
      testId="create-hosted-dialog"
      footer={
        <FormFooter formId={formId} busy={busy} onCancel={onClose} submitLabel="Create session" busyLabel="Creating…" submitTestId="create-hosted-submit" />
      }
    >
      <form id={formId} className="form hs-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {settings.formError ? <Alert testId="create-hosted-error">{settings.formError}</Alert> : null}

        <p className="hs-env-line" data-testid="hosted-env">
          <Badge tone={env}>{env === 'test' ? 'Test' : 'Live'}</Badge>
          <span className="muted">
            {env === 'test'
              ? 'A test session: the page shows a test banner and uses no credits.'
              : 'A live session: a completed check uses credits from your balance.'}{' '}
            The console’s environment switch decides which.
          </span>
        </p>

        <SessionSettingsFields
          settings={settings} plan={plan} testIdPrefix="hosted" autoFocusProduct onClose={onClose}
          besideAge={
            <Field
              id={settings.id('expires_in_hours')} label="Link expires after (hours)" type="number" inputMode="numeric" min={1} max={168}
              step={1} value={hours} onChange={(e) => settings.edit('expires_in_hours', setHours)(e.currentTarget.value)}
              error={settings.errors.expires_in_hours} testId="hosted-expiry" hint="1 to 168 hours (one week). The link works once."
              className="hs-narrow"
            />
          }
          redirectHint={
            <>
              https:// addresses, or your app’s own scheme once registered in Settings → App schemes (a deep link); http:// only for this
              computer, while you test. The address receives the session
              and its status only, never the result: your backend learns that from the <code>verification.completed</code> webhook.
              Without an address the person stays on the result page.
            </>
          }
        />
      </form>
    </Dialog>
  );
}
