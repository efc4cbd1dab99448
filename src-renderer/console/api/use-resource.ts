// Loads one resource for a screen: aborts the previous request when its inputs change or the
// screen goes away, and keeps the last data while reloading so tables do not flash empty.
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from './client';

export interface Resource<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/** `deps` are the load's inputs (strings, numbers, booleans): a change of any of them loads again. */
export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly (string | number | boolean | null)[]): Resource<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const inputs = JSON.stringify(deps);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    loadRef
      .current(controller.signal)
      .then((value) => {
        if (controller.signal.aborted) return;
        setData(value);
        setError(null);
      })
      .catch((e: unknown) => {
        if (controller.signal.aborted) return;
        setError(errorText(e));
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
    // The caller's inputs decide when to load again; `load` itself changes every render.
  }, [inputs, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { data, error, loading, reload };
}
