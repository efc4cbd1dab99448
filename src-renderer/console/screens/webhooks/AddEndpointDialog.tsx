// The add-endpoint form. The signing secret comes back once; the caller shows it and drops it.
import { useId, useState, type FormEvent } from 'react';
import type { Environment } from '../../../../src-shared/catalog';
import { WEBHOOK_EVENTS, WebhookUrl, type CreatedWebhook } from '../../../../src-shared/contracts/webhooks';
import { ApiError, errorText } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { EVENT_INFO, type SubscribableEvent } from './events';
import { webhooksApi } from './webhooks-api';
import { EnvironmentChoice } from '../../components/EnvironmentChoice';
import { FormFooter } from '../../components/FormFooter';

const URL_RULE = 'Use an https:// address. Plain http:// is allowed only to this computer (localhost, 127.0.0.1 or [::1]).';

interface AddEndpointDialogProps {
  env: Environment;
  onClose: () => void;
  onCreated: (created: CreatedWebhook) => void;
}

interface Errors {
  url?: string | undefined;
  events?: string | undefined;
  description?: string | undefined;
}

export function AddEndpointDialog({ env: initialEnv, onClose, onCreated }: AddEndpointDialogProps) {
  const formId = useId();
  const [url, setUrl] = useState('');
  const [env, setEnv] = useState<Environment>(initialEnv);
  const [events, setEvents] = useState<SubscribableEvent[]>([]);
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const allChosen = events.length === WEBHOOK_EVENTS.length;

  const toggleEvent = (event: SubscribableEvent, on: boolean) => {
    setEvents((current) => (on ? WEBHOOK_EVENTS.filter((e) => e === event || current.includes(e)) : current.filter((e) => e !== event)));
    setErrors((e) => ({ ...e, events: undefined }));
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const next: Errors = {};
    const trimmed = url.trim();
    // The same rule the service applies, so the answer comes at once; the service checks again.
    if (!trimmed) next.url = 'Enter the URL that should receive the events.';
    else if (!WebhookUrl.safeParse(trimmed).success) next.url = URL_RULE;
    if (events.length === 0) next.events = 'Choose at least one event.';
    setErrors(next);
    setFormError(null);
    if (next.url || next.events) return;
    setBusy(true);
    try {
      const desc = description.trim();
      onCreated(await webhooksApi.create({ url: trimmed, env, events, ...(desc ? { description: desc } : {}) }));
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 400) {
        // A receiver on a private network (loopback, link-local, private, this computer): the service says how to allow it.
        const privateHost = err.fields?.some((f) => f.field === 'url' && f.issue === 'private_destination') ?? false;
        const fieldErrors: Errors = {
          url: privateHost ? err.message : err.forField('url') ? URL_RULE : undefined,
          events: err.forField('events') ? 'Choose at least one event.' : undefined,
          description: err.forField('description') ? 'Keep the description under 200 characters.' : undefined,
        };
        setErrors(fieldErrors);
        if (fieldErrors.url || fieldErrors.events || fieldErrors.description) return;
      }
      setFormError(errorText(err));
    }
  };

  return (
    <Dialog
      title="Add webhook endpoint"
      onClose={onClose}
      busy={busy}
      testId="add-webhook-dialog"
      footer={
        <FormFooter formId={formId} busy={busy} onCancel={onClose} submitLabel="Add endpoint" busyLabel="Adding…" submitTestId="add-webhook-submit" />
      }
    >
      <form id={formId} className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {formError ? <Alert testId="add-webhook-error">{formError}</Alert> : null}
        <Field
          label="Endpoint URL" type="url" inputMode="url" value={url} onChange={(e) => setUrl(e.currentTarget.value)} maxLength={2048}
          placeholder="https://example.com/webhooks/compliance" error={errors.url} testId="webhook-url-input"
          hint="Events arrive here as signed POST requests. Use an https:// address (http:// works only for this computer, while you develop)." spellCheck={false} autoComplete="off" data-autofocus="" required
        />

        <EnvironmentChoice
          name="webhook-env" value={env} onChange={setEnv} testIdPrefix="webhook-env"
          hints={{ test: 'Events from test keys and test data.', live: 'Events about real customers.' }}
        />

        <fieldset className="fieldset" aria-describedby={errors.events ? `${formId}-events-error` : undefined}>
          <legend className="wh-legend">
            <span>Events</span>
            <button
              type="button" className="link-button wh-legend-action"
              onClick={() => {
                setEvents(allChosen ? [] : [...WEBHOOK_EVENTS]);
                setErrors((e) => ({ ...e, events: undefined }));
              }}
              data-testid="webhook-events-all"
            >
              {allChosen ? 'Clear all' : 'Select all'}
            </button>
          </legend>
          <div className="wh-events">
            {WEBHOOK_EVENTS.map((event) => (
              <label key={event} className="option">
                <input
                  type="checkbox" checked={events.includes(event)} onChange={(e) => toggleEvent(event, e.currentTarget.checked)}
                  data-testid={`webhook-event-${event}`}
                />
                <span>
                  <strong>{EVENT_INFO[event].label}</strong>
                  <code className="mono muted">{event}</code>
                  <span className="option-hint">{EVENT_INFO[event].description}</span>
                </span>
              </label>
            ))}
          </div>
          {errors.events ? (
            <div id={`${formId}-events-error`} className="field-error" data-testid="webhook-events-error">
              {errors.events}
            </div>
          ) : null}
        </fieldset>

        <Field
          label="Description (optional)" value={description} onChange={(e) => setDescription(e.currentTarget.value)} maxLength={200}
          placeholder="e.g. Case management system" error={errors.description} testId="webhook-description-input"
        />
      </form>
    </Dialog>
  );
}
