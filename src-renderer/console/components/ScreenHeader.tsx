import type { ReactNode } from 'react';

interface ScreenHeaderProps {
  title: string;
  summary?: ReactNode;
  actions?: ReactNode;
}

/** Each screen's heading. The h1 takes focus after navigation so screen readers hear the change. */
export function ScreenHeader({ title, summary, actions }: ScreenHeaderProps) {
  return (
    <div className="screen-header">
      <div>
        <h1 tabIndex={-1} data-screen-title>
          {title}
        </h1>
        {summary ? <p className="screen-summary">{summary}</p> : null}
      </div>
      {actions ? <div className="screen-actions">{actions}</div> : null}
    </div>
  );
}
