// What a newer official file changes against the edition in use (contracts/lists.ts ListChanges):
// counts, the programmes most changed, and the first names of each kind. Public list data.
import { Fragment } from 'react';
import { formatNumber } from '../../../components/format';
import type { ListChanges } from './lists-api';

const KINDS = [
  ['added', 'Added'],
  ['removed', 'Removed'],
  ['changed', 'Changed'],
] as const;

/** Programmes shown in the table; the rest are summed in its last row. */
const PROGRAMS_SHOWN = 8;

export function ListChangesView({ changes, testId }: { changes: ListChanges; testId: string }) {
  const shown = changes.by_program.slice(0, PROGRAMS_SHOWN);
  const none = changes.added + changes.removed + changes.changed === 0;
  return (
    <div className="lst-changes" data-testid={testId}>
      <p className="lst-changes-counts">
        {changes.before === null ? 'No edition was in use. ' : `${formatNumber(changes.before)} records in use → ${formatNumber(changes.after)} in this file: `}
        {none ? (
          <span data-testid={`${testId}-none`}>no record added, removed or changed.</span>
        ) : (
          KINDS.map(([k, label], i) => (
            <Fragment key={k}>
              {i > 0 ? ', ' : ''}
              <span data-testid={`${testId}-${k}`} data-count={changes[k]} className={k === 'removed' && changes.removed > 0 ? 'lst-changes-removed' : undefined}>
                {formatNumber(changes[k])} {label.toLowerCase()}
              </span>
            </Fragment>
          ))
        )}
      </p>
      {shown.length > 0 && !none ? (
        <table className="lst-changes-table" data-testid={`${testId}-programs`}>
          <caption className="visually-hidden">Changes by programme</caption>
          <thead>
            <tr>
              <th scope="col">Programme</th>
              {KINDS.map(([k, label]) => <th key={k} scope="col" className="num">{label}</th>)}
            </tr>
          </thead>
          <tbody>
            {shown.map((p) => (
              <tr key={p.program}>
                <th scope="row">{p.program}</th>
                {KINDS.map(([k]) => <td key={k} className="num">{p[k] ? formatNumber(p[k]) : '–'}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {KINDS.map(([k, label]) => {
        const list = changes.examples[k];
        if (list.length === 0) return null;
        return (
          <details key={k} className="lst-changes-names" data-testid={`${testId}-${k}-names`}>
            <summary>
              {label}: {list.length < changes[k] ? `the first ${list.length} of ${formatNumber(changes[k])}` : `${list.length}`}
            </summary>
            <ul>
              {list.map((r) => (
                <li key={r.id}>
                  {r.name || r.id}
                  {r.programs.length ? <span className="muted"> · {r.programs.join(', ')}</span> : null}
                </li>
              ))}
            </ul>
          </details>
        );
      })}
    </div>
  );
}
