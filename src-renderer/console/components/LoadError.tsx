import { Alert } from './Alert';

interface LoadErrorProps {
  /** The alert's title, e.g. "Could not load the keys." */
  title: string;
  error: string | null;
  onRetry: () => void;
  testId: string;
}

/** A failed load, said with its reason and a way to try again; nothing when there is no error. */
export function LoadError({ title, error, onRetry, testId }: LoadErrorProps) {
  if (!error) return null;
  return (
    <Alert testId={testId} title={title}>
      {error}{' '}
      <button type="button" className="link-button" onClick={onRetry}>
        Try again
      </button>
    </Alert>
  );
}
