// A read-mostly table on @tanstack/react-table that follows the WAI-ARIA grid pattern: the grid
// is one tab stop, arrow keys move between cells, Home/End go to the row's ends, Ctrl+Home/End
// to the first/last cell. A cell holding a control (a button, a link) focuses that control.
import {
  flexRender, getCoreRowModel, useReactTable, type ColumnDef,
} from '@tanstack/react-table';
import {
  useCallback, useLayoutEffect, useRef, useState, type FocusEvent, type KeyboardEvent, type ReactNode,
} from 'react';

export interface DataGridColumnMeta {
  /** Right-align numbers so digits line up. */
  numeric?: boolean;
  /** Keep the column narrow and on one line. */
  nowrap?: boolean;
}

interface DataGridProps<T> {
  label: string;
  data: T[];
  columns: ColumnDef<T>[];
  getRowId: (row: T) => string;
  empty: ReactNode;
  testId?: string;
  rowTestId?: string;
  /** Rows in the whole data set when `data` is one page of it (for aria-rowcount). */
  totalRows?: number;
  /** Index of data[0] in the whole data set (for aria-rowindex). */
  firstRowIndex?: number;
  rowClassName?: (row: T) => string | undefined;
}

interface Cell {
  row: number;
  col: number;
}

const CONTROL = 'button, a[href], input, select, textarea, [data-grid-focus]';
const PAGE = 10;

function focusTarget(cell: HTMLElement): HTMLElement {
  return cell.querySelector<HTMLElement>(CONTROL) ?? cell;
}

export function DataGrid<T>({
  label, data, columns, getRowId, empty, testId, rowTestId, totalRows, firstRowIndex = 0, rowClassName,
}: DataGridProps<T>) {
  const table = useReactTable({ data, columns, getCoreRowModel: getCoreRowModel(), getRowId: (r) => getRowId(r) });
  const ref = useRef<HTMLTableElement>(null);
  const [active, setActive] = useState<Cell>({ row: 0, col: 0 });
  const rows = table.getRowModel().rows;
  const colCount = table.getVisibleLeafColumns().length;
  // Row 0 is the header row.
  const rowCount = rows.length + 1;
  const clamped: Cell = {
    row: Math.min(active.row, rowCount - 1),
    col: Math.min(active.col, Math.max(0, colCount - 1)),
  };

  const cellAt = useCallback((c: Cell): HTMLElement | null => {
    return ref.current?.querySelector<HTMLElement>(`[data-cell="${c.row}:${c.col}"]`) ?? null;
  }, []);

  // Roving tabindex: exactly one element in the grid is in the tab order.
  useLayoutEffect(() => {
    const grid = ref.current;
    if (!grid) return;
    grid.querySelectorAll<HTMLElement>('[data-cell]').forEach((cell) => {
      cell.tabIndex = -1;
      cell.querySelectorAll<HTMLElement>(CONTROL).forEach((el) => (el.tabIndex = -1));
    });
    const cell = cellAt(clamped);
    if (cell) focusTarget(cell).tabIndex = 0;
  });

  const move = (next: Cell) => {
    const target: Cell = {
      row: Math.max(0, Math.min(rowCount - 1, next.row)),
      col: Math.max(0, Math.min(colCount - 1, next.col)),
    };
    setActive(target);
    const cell = cellAt(target);
    if (cell) focusTarget(cell).focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTableElement>) => {
    // Keys typed into a control inside a cell (none yet, but inputs may come) stay with it.
    const t = e.target as HTMLElement;
    if (t.matches('input, select, textarea')) return;
    const { row, col } = clamped;
    const keys: Record<string, Cell | undefined> = {
      ArrowDown: { row: row + 1, col },
      ArrowUp: { row: row - 1, col },
      ArrowRight: { row, col: col + 1 },
      ArrowLeft: { row, col: col - 1 },
      PageDown: { row: row + PAGE, col },
      PageUp: { row: row - PAGE, col },
      Home: e.ctrlKey ? { row: 0, col: 0 } : { row, col: 0 },
      End: e.ctrlKey ? { row: rowCount - 1, col: colCount - 1 } : { row, col: colCount - 1 },
    };
    const next = keys[e.key];
    if (!next) return;
    e.preventDefault();
    move(next);
  };

  // Clicking or tabbing into a cell makes it the active one.
  const onFocus = (e: FocusEvent<HTMLTableElement>) => {
    const cell = (e.target as HTMLElement).closest<HTMLElement>('[data-cell]');
    const [r, c] = (cell?.dataset.cell ?? '').split(':').map(Number);
    if (r === undefined || c === undefined || Number.isNaN(r) || Number.isNaN(c)) return;
    if (r !== clamped.row || c !== clamped.col) setActive({ row: r, col: c });
  };

  return (
    <div className="grid-wrap">
      <table
        ref={ref}
        role="grid"
        className="grid"
        aria-label={label}
        aria-rowcount={(totalRows ?? rows.length) + 1}
        aria-colcount={colCount}
        onKeyDown={onKeyDown}
        onFocus={onFocus}
        data-testid={testId}
      >
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} role="row" aria-rowindex={1}>
              {group.headers.map((header, c) => {
                const meta = header.column.columnDef.meta as DataGridColumnMeta | undefined;
                return (
                  <th
                    key={header.id}
                    role="columnheader"
                    scope="col"
                    data-cell={`0:${c}`}
                    aria-colindex={c + 1}
                    className={meta?.numeric ? 'numeric' : undefined}
                  >
                    {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr
              key={row.id}
              role="row"
              aria-rowindex={firstRowIndex + r + 2}
              data-testid={rowTestId}
              data-row-id={row.id}
              className={rowClassName?.(row.original)}
            >
              {row.getVisibleCells().map((cell, c) => {
                const meta = cell.column.columnDef.meta as DataGridColumnMeta | undefined;
                const cls = [meta?.numeric ? 'numeric' : '', meta?.nowrap ? 'nowrap' : ''].filter(Boolean).join(' ');
                return (
                  <td
                    key={cell.id}
                    role="gridcell"
                    data-cell={`${r + 1}:${c}`}
                    data-column={cell.column.id}
                    aria-colindex={c + 1}
                    className={cls || undefined}
                  >
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 ? <div className="grid-empty" data-testid={testId ? `${testId}-empty` : undefined}>{empty}</div> : null}
    </div>
  );
}
