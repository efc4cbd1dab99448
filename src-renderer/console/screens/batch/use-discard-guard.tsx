// "Discard unsaved dispositions?" before anything that replaces the results: they exist
// nowhere but in this window until the results are saved.
import { useState } from 'react';
import { useBatch } from '../../stores/batch';

export function useDiscardGuard() {
  const [pending, setPending] = useState<{ action: string; go: () => void } | null>(null);
  const guard = (action: string, go: () => void) => {
    const s = useBatch.getState();
    if (s.unsaved && s.dispositions.size > 0) setPending({ action, go });
    else go();
  };
  return { pending, guard, close: () => setPending(null) };
}
