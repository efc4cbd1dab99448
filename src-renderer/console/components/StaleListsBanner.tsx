// A calm notice on the screening (with its lists) and batch screens when a loaded list is older
// than the organisation's window for its kind: one line per list (which list, of when, how old),
// a link to the page with the import steps (UpdatingListsPage), and Dismiss, which hides it for
// this browser session until another list goes out of date. Nothing shows otherwise.
import { useState } from 'react';
import type { ListsStatus } from '../../../src-shared/contracts/lists';
import { href } from '../app/router';
import { useLists } from '../stores/lists';
import { partialDateLabel } from '../../../src-shared/dates';
import { ageText, STALE_DISMISSED_KEY, staleKey, staleLists, type StaleList } from './stale-lists';

/** "published 3 May 2024, 622 days old (older than 14 days)": the list's calendar date as the Lists panel writes it. */
export function StaleLine({ l }: { l: StaleList }) {
  return (
    <>
      <strong className="stale-notice-name" title={l.title}>{l.title}</strong>: {l.dated.label} <span title={l.dated.date ?? ''}>{l.dated.date ? partialDateLabel(l.dated.date) : 'on an unknown day'}</span>, {ageText(l.age_days)} (older than {l.window_days} days)
    </>
  );
}

function readDismissed(): string | null {
  try {
    return sessionStorage.getItem(STALE_DISMISSED_KEY);
  } catch {
    return null;
  }
}

export function StaleListsNotice({ data, dismissed = null, onDismiss }: { data: ListsStatus | undefined; dismissed?: string | null; onDismiss?: (key: string) => void }) {
  const stale = staleLists(data);
  if (stale.length === 0) return null;
  const key = staleKey(stale);
  if (dismissed === key) return null;
  return (
    <div className="stale-notice" role="status" data-testid="stale-lists">
      <span className="stale-notice-label">{stale.length === 1 ? 'Out of date' : `${stale.length} lists out of date`}</span>
      <ul className="stale-notice-lists">
        {stale.map((l) => (
          <li key={l.source} data-testid={`stale-list-${l.source}`}>
            <StaleLine l={l} />
          </li>
        ))}
      </ul>
      <span className="stale-notice-actions">
        <a href={href('screening/update-lists')} data-testid="stale-lists-how">How to update</a>
        {onDismiss ? (
          <button type="button" className="link-button" onClick={() => onDismiss(key)} data-testid="stale-lists-dismiss" aria-label="Dismiss the out-of-date lists notice for this session">
            Dismiss
          </button>
        ) : null}
      </span>
    </div>
  );
}

/** The notice over the shared lists store (stores/lists.ts), dismissible for the browser session. */
export function StaleListsBanner() {
  const lists = useLists();
  const [dismissed, setDismissed] = useState(readDismissed);
  const dismiss = (key: string) => {
    try {
      sessionStorage.setItem(STALE_DISMISSED_KEY, key);
    } catch {
      // Storage refused: dismissed until this screen is left.
    }
    setDismissed(key);
  };
  return <StaleListsNotice data={lists.data} dismissed={dismissed} onDismiss={dismiss} />;
}
