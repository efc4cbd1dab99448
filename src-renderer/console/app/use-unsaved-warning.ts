// Reloading or closing the window drops the batch results: with dispositions not saved yet,
// the browser (or, in the desktop app, the shell) asks first.
import { useEffect } from 'react';
import { useBatch } from '../stores/batch';

export function useUnsavedWarning(): void {
  const unsaved = useBatch((s) => s.unsaved && s.dispositions.size > 0);
  useEffect(() => {
    if (!unsaved) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older Chromium (and Electron's will-prevent-unload) still look at returnValue.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [unsaved]);
}
