// Publish or edit a flow: a name for the console and a hosted session's settings (no expiry: each
// visit's session lasts an hour). A new flow is published in the console's environment; an edit
// keeps the flow's URL, so a printed QR code or a link on a website keeps working.
import { useId, useState, type FormEvent } from 'react';
import type { Environment, Plan } from '../../../../src-shared/catalog';
import { PublishedFlowCreateRequest, type PublishedFlowView } from '../../../../src-shared/contracts/hosted';
import { Alert } from '../../components/Alert';
import { Badge } from '../../components/Badge';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { FormFooter } from '../../components/FormFooter';
import { flowsApi } from './hosted-api';
import { SETTINGS_RULE, SessionSettingsFields, useSessionSettings } from './SessionSettingsFields';

interface FlowDialogProps {
  env: Environment;
  plan: Plan;
  /** The flow being edited; absent to publish a new one. */
  flow?: PublishedFlowView | undefined;
  onClose: () => void;
  onSaved: (flow: PublishedFlowView, created: boolean) => void;
}

/** The form's fields in order (the first one refused gets focus) and what to say when one is refused. */
const RULE = {
  name: 'Enter a name of up to 80 characters.',
  ...SETTINGS_RULE,
};

export function FlowDialog({ env, plan, flow, onClose, onSaved }: FlowDialogProps) {
  const formId = useId();
  const editing = flow !== undefined;
  const flowEnv = flow?.environment ?? env;
  const settings = useSessionSettings(formId, RULE, flow);
  const [name, setName] = useState(flow?.name ?? '');
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const body: PublishedFlowCreateRequest = { name, ...settings.request(), env: flowEnv };
    // The service's own schema answers at once; the service checks again (and the redirects).
    if (!settings.accept(PublishedFlowCreateRequest.safeParse(body))) return;
    setBusy(true);
    try {
      if (flow) {
        const { env: _env, ...request } = body;
        onSaved(await flowsApi.update(flow.id, request), false);
      } else {
        onSaved(await flowsApi.create(body), true);
      }
    } catch (err) {
      setBusy(false);
      settings.refused(err);
    }
  };

  return (
    <Dialog
      title={editing ? 'Edit published flow' : 'Publish a flow'}
      onClose={onClose}
      busy={busy}
      testId="flow-dialog"
      footer={
        <FormFooter
          formId={formId} busy={busy} onCancel={onClose} submitLabel={editing ? 'Save changes' : 'Publish flow'}
          busyLabel={editing ? 'Saving…' : 'Publishing…'} submitTestId="flow-submit"
        />
      }
    >
      <form id={formId} className="form hs-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {settings.formError ? <Alert testId="flow-error">{settings.formError}</Alert> : null}

        <p className="hs-env-line" data-testid="flow-env">
          <Badge tone={flowEnv}>{flowEnv === 'test' ? 'Test' : 'Live'}</Badge>
          <span className="muted">
            {editing
              ? 'The link stays the same: people who open it from now on get the new settings. Sessions already started keep theirs.'
              : flowEnv === 'test'
                ? 'A test flow: its pages show a test banner and use no credits.'
                : 'A live flow: every completed check uses credits from your balance.'}
          </span>
        </p>

        <Field
          id={settings.id('name')} label="Name" value={name} maxLength={80} onChange={(e) => settings.edit('name', setName)(e.currentTarget.value)}
          error={settings.errors.name} testId="flow-name" placeholder="e.g. Front desk age check"
          hint="For you and your team; the person does not see it." data-autofocus=""
        />

        <SessionSettingsFields
          settings={settings} plan={plan} testIdPrefix="flow" onClose={onClose}
          redirectHint={
            <>
              https:// addresses, or your app’s own scheme once registered in Settings → App schemes (a deep link); http:// only for this
              computer, while you test. The address receives the session
              and its status only; your backend learns the result from the <code>verification.completed</code> webhook.
            </>
          }
        />
      </form>
    </Dialog>
  );
}
