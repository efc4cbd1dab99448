// "?" anywhere in the console (outside a text field or an open dialog) lists the keyboard
// shortcuts: the ones every screen has, the tables' keyboard model (components/DataGrid.tsx) and
// Risk review's own keys. Esc closes it.
import { useEffect, useState, type ReactNode } from 'react';
import { Dialog } from '../components/Dialog';

interface Group {
  title: string;
  keys: [ReactNode, string][];
}

const GROUPS: Group[] = [
  {
    title: 'Everywhere',
    keys: [
      [<kbd key="q">?</kbd>, 'This list of shortcuts'],
      [<kbd key="esc">Esc</kbd>, 'Close a dialog or an open detail'],
      [<><kbd>Tab</kbd> / <kbd>Shift</kbd>+<kbd>Tab</kbd></>, 'Next / previous control'],
    ],
  },
  {
    title: 'Tables',
    keys: [
      [<><kbd>↑</kbd> <kbd>↓</kbd> <kbd>←</kbd> <kbd>→</kbd></>, 'Move between cells (a table is one Tab stop)'],
      [<><kbd>Page Up</kbd> / <kbd>Page Down</kbd></>, 'Ten rows up / down'],
      [<><kbd>Home</kbd> / <kbd>End</kbd></>, 'First / last cell of the row'],
      [<><kbd>Ctrl</kbd>+<kbd>Home</kbd> / <kbd>Ctrl</kbd>+<kbd>End</kbd></>, 'First / last cell of the table'],
      [<kbd key="enter">Enter</kbd>, 'Open the row, where a table has something to open'],
    ],
  },
  {
    title: 'Risk review',
    keys: [
      [<><kbd>J</kbd> / <kbd>K</kbd></>, 'Next / previous result'],
      [<><kbd>Enter</kbd> or <kbd>O</kbd></>, 'Open or close the match explanation'],
      [<kbd key="c">C</kbd>, 'Cleared (false positive), with single-key actions on'],
      [<kbd key="e">E</kbd>, 'Escalated, with single-key actions on'],
      [<kbd key="n">N</kbd>, 'Needs info, with single-key actions on'],
      [<kbd key="u">U</kbd>, 'Undo the last decision, with single-key actions on'],
    ],
  },
];

function typing(t: EventTarget | null): boolean {
  return t instanceof HTMLElement && (t.matches('input, select, textarea') || t.isContentEditable);
}

export function ShortcutsHelp() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      // Another dialog is open: "?" belongs to it.
      if (document.querySelector('dialog[open]')) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  if (!open) return null;
  return (
    <Dialog
      title="Keyboard shortcuts" size="medium" onClose={() => setOpen(false)} testId="shortcuts-help"
      footer={<button type="button" className="btn" onClick={() => setOpen(false)} data-autofocus="">Close</button>}
    >
      <div className="shortcuts">
        {GROUPS.map((g) => (
          <section key={g.title} aria-label={g.title} data-testid={`shortcuts-${g.title.toLowerCase().replace(/\s+/g, '-')}`}>
            <h3>{g.title}</h3>
            <dl>
              {g.keys.map(([keys, what]) => (
                <div key={what} className="shortcut">
                  <dt>{keys}</dt>
                  <dd>{what}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Dialog>
  );
}
