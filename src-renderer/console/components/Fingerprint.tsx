// A certificate's SHA-256 fingerprint as people compare it: in groups of eight bytes that never
// break inside, so it wraps between groups. The team and on-site servers show theirs; the desktop
// app's connect page shows what a team server presents beside what this computer pinned.
import './server-panel.css';

/** The fingerprint in groups of eight bytes that never break inside, so it wraps between groups. */
export function Fingerprint({ value, id, testId }: { value: string; id: string; testId: string }) {
  const bytes = value.split(':');
  const groups: string[] = [];
  for (let i = 0; i < bytes.length; i += 8) groups.push(bytes.slice(i, i + 8).join(':'));
  return (
    <code id={id} className="mono srv-fingerprint" data-testid={testId}>
      {groups.map((g, i) => (
        <span key={i} className="srv-fp-group">
          {g}
          {i < groups.length - 1 ? ':' : ''}
          {i < groups.length - 1 ? <wbr /> : null}
        </span>
      ))}
    </code>
  );
}
