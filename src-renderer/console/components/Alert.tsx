import type { ReactNode } from 'react';

interface AlertProps {
  tone?: 'error' | 'warning' | 'info' | 'success';
  children: ReactNode;
  testId?: string;
  title?: string;
}

/** Errors are announced at once (role=alert); other tones politely. */
export function Alert({ tone = 'error', children, testId, title }: AlertProps) {
  return (
    <div className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {title ? <strong className="alert-title">{title}</strong> : null}
      <div>{children}</div>
    </div>
  );
}
