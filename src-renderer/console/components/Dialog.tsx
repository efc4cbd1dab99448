// A modal built on the native <dialog>: the browser keeps focus inside, puts it in the top layer
// and turns Esc into a `cancel` event, which we route to onClose so React owns open/closed.
import { useEffect, useId, useRef, type ReactNode } from 'react';

interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  description?: ReactNode;
  /** alertdialog for confirmations that interrupt the user. */
  role?: 'dialog' | 'alertdialog';
  size?: 'small' | 'medium';
  testId?: string;
  /** While true (e.g. a request is in flight), Esc and the close button do nothing. */
  busy?: boolean;
}

export function Dialog({
  title, onClose, children, footer, description, role = 'dialog', size = 'medium', testId, busy = false,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const busyRef = useRef(busy);
  busyRef.current = busy;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    // Prefer the element the screen marked, over the first focusable one the browser picks.
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    const onCancel = (e: Event) => {
      e.preventDefault();
      if (!busyRef.current) onCloseRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      // The opener may be gone (a revoked key's button): fall back to the main region.
      if (previous?.isConnected) previous.focus();
      else document.getElementById('main')?.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={`dialog dialog-${size}`}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      aria-modal="true"
      data-testid={testId}
    >
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={() => !busy && onClose()} disabled={busy}>
          <span aria-hidden="true">×</span>
        </button>
      </header>
      <div className="dialog-body">
        {description ? <div id={descriptionId} className="dialog-description">{description}</div> : null}
        {children}
      </div>
      {footer ? <footer className="dialog-footer">{footer}</footer> : null}
    </dialog>
  );
}
