// "Discard unsaved dispositions?" before anything that replaces the results: they exist
// nowhere but in this window until the results are saved. The hook owns the question and its
// dialog; a screen renders `dialog` and wraps replacing actions in `guard`.
import { useState, type ReactNode } from 'react';
import { useBatch } from '../../stores/batch';
import { DiscardDialog } from './DiscardDialog';

export function useDiscardGuard(save: () => Promise<unknown>): { guard: (action: string, go: () => void) => void; dialog: ReactNode } {
  const [pending, setPending] = useState<{ action: string; go: () => void } | null>(null);
  const dispositions = useBatch((s) => s.dispositions.size);
  const guard = (action: string, go: () => void) => {
    const s = useBatch.getState();
    if (s.unsaved && s.dispositions.size > 0) setPending({ action, go });
    else go();
  };
  const close = () => setPending(null);
  const dialog = pending ? (
    <DiscardDialog
      dispositions={dispositions}
      action={pending.action}
      onClose={close}
      onSave={() => {
        close();
        void save();
      }}
      onDiscard={() => {
        close();
        pending.go();
      }}
    />
  ) : null;
  return { guard, dialog };
}
