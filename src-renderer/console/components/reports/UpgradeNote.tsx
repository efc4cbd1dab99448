// What a plan below Growth is missing on the Reports and Exports screens, said plainly with the
// way to change it (the owner's Plan & credits screen), instead of a refused request.
import type { ReactNode } from 'react';
import { PLAN_INFO, type Plan } from '../../../../src-shared/catalog';
import { href } from '../../app/router';
import './reports.css';

interface UpgradeNoteProps {
  title: string;
  children: ReactNode;
  plan: Plan;
  canChangePlan: boolean;
  testId: string;
}

export function UpgradeNote({ title, children, plan, canChangePlan, testId }: UpgradeNoteProps) {
  return (
    <section className="panel upgrade-note" aria-label={title} data-testid={testId}>
      <h2>{title}</h2>
      <p>
        {children} Your organization is on the {PLAN_INFO[plan].label} plan.
      </p>
      <p className="muted">
        {canChangePlan ? (
          <a href={href('plan')} data-testid={`${testId}-link`}>Change the plan under Plan &amp; credits</a>
        ) : (
          'The organization’s owner can change the plan under Plan & credits.'
        )}
      </p>
    </section>
  );
}
