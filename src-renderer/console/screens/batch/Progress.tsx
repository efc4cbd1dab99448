/** A labelled progress bar; the text beside it says the same thing in words. */
export function Progress({ label, value, text, testId, tone = 'accent' }: {
  label: string;
  /** 0–100 */
  value: number;
  text: string;
  testId?: string;
  tone?: 'accent' | 'muted';
}) {
  const v = Math.max(0, Math.min(100, value));
  return (
    <div className="bat-progress" data-testid={testId}>
      <div
        className={`bat-progress-track bat-progress-${tone}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(v)}
        aria-valuetext={text}
      >
        <div className="bat-progress-fill" style={{ width: `${v}%` }} />
      </div>
      <span className="bat-progress-text" data-testid={testId ? `${testId}-text` : undefined}>{text}</span>
    </div>
  );
}
