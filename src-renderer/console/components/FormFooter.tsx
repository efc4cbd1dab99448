// The footer every form dialog shares: Cancel, and the submit button for the dialog's form
// (outside the <form>, so it is tied to it by `form`), disabled and relabelled while busy.
interface FormFooterProps {
  formId: string;
  busy: boolean;
  onCancel: () => void;
  submitLabel: string;
  busyLabel: string;
  submitTestId: string;
}

export function FormFooter({ formId, busy, onCancel, submitLabel, busyLabel, submitTestId }: FormFooterProps) {
  return (
    <>
      <button type="button" className="btn" onClick={onCancel} disabled={busy}>
        Cancel
      </button>
      <button type="submit" form={formId} className="btn btn-primary" disabled={busy} data-testid={submitTestId}>
        {busy ? busyLabel : submitLabel}
      </button>
    </>
  );
}

/** The footer of an import dialog once its result shows: do another, or done. */
export function AgainOrDoneFooter({ againLabel, onAgain, onDone, testIdPrefix }: { againLabel: string; onAgain: () => void; onDone: () => void; testIdPrefix: string }) {
  return (
    <>
      <button type="button" className="btn" onClick={onAgain} data-testid={`${testIdPrefix}-again`}>
        {againLabel}
      </button>
      <button type="button" className="btn btn-primary" onClick={onDone} data-testid={`${testIdPrefix}-done`} data-autofocus="">
        Done
      </button>
    </>
  );
}
