// A virtualised WAI-ARIA grid for result lists of any length (100,000 rows): only the rows in
// view are in the DOM, each keeping its place in the whole list through aria-rowindex, and the
// grid keeps the pattern of the console's DataGrid: one tab stop, arrow keys, Page Up/Down,
// Home/End, Ctrl+Home/End. Rows can open a detail region below their cells (the review's match
// explanation); their height is measured, so open rows push the others down.
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useCallback, useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type FocusEvent, type KeyboardEvent,
  type ReactNode,
} from 'react';

export interface VirtualColumn<T> {
  id: string;
  header: ReactNode;
  /** A CSS grid track, e.g. `72px` or `minmax(0, 2fr)`. */
  width: string;
  numeric?: boolean;
  cell: (row: T, index: number) => ReactNode;
  /** Sortable columns: the header becomes a button and carries aria-sort. */
  sort?: { direction: 'ascending' | 'descending' | 'none'; onSort: () => void };
}

interface VirtualGridProps<T> {
  label: string;
  rows: readonly T[];
  columns: readonly VirtualColumn<T>[];
  getRowKey: (row: T) => string | number;
  /** Re-render trigger for rows mutated in place. */
  version?: number;
  estimateRowHeight?: number;
  /** Height of the scrolling body in px; shorter lists take only the room they need. */
  maxHeight?: number;
  empty: ReactNode;
  testId?: string;
  rowTestId?: string;
  /** The data row that holds the grid's tab stop (controlled). */
  activeIndex: number;
  onActiveIndexChange: (index: number) => void;
  /** Bump to move keyboard focus to the active row (after J/K, say). */
  focusSignal?: number;
  isExpanded?: (row: T) => boolean;
  renderExpanded?: (row: T, index: number) => ReactNode;
  rowClassName?: (row: T, index: number) => string | undefined;
  rowAttributes?: (row: T, index: number) => Record<string, string | number | boolean | undefined>;
}

interface Cell {
  /** 0 is the header row; data row i is i + 1. */
  row: number;
  col: number;
}

const CONTROL = 'button, a[href], input, select, textarea, [data-grid-focus]';
const PAGE = 10;

export function VirtualGrid<T>({
  label, rows, columns, getRowKey, version = 0, estimateRowHeight = 44, maxHeight = 520, empty, testId, rowTestId,
  activeIndex, onActiveIndexChange, focusSignal = 0, isExpanded, renderExpanded, rowClassName, rowAttributes,
}: VirtualGridProps<T>) {
  const gridRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const [col, setCol] = useState(0);
  const [onHeader, setOnHeader] = useState(false);
  const pendingFocus = useRef(false);
  const count = rows.length;
  const activeRow = Math.max(0, Math.min(count - 1, activeIndex));
  const active: Cell = { row: onHeader || count === 0 ? 0 : activeRow + 1, col: Math.min(col, columns.length - 1) };

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => bodyRef.current,
    estimateSize: () => estimateRowHeight,
    overscan: 8,
    getItemKey: (i) => {
      const row = rows[i];
      return row === undefined ? i : getRowKey(row);
    },
  });
  const items = virtualizer.getVirtualItems();
  const total = virtualizer.getTotalSize();
  const template = columns.map((c) => c.width).join(' ');

  const cellAt = useCallback((c: Cell): HTMLElement | null => {
    return gridRef.current?.querySelector<HTMLElement>(`[data-cell="${c.row}:${c.col}"]`) ?? null;
  }, []);
  const focusTarget = (cell: HTMLElement) => cell.querySelector<HTMLElement>(CONTROL) ?? cell;

  // Roving tabindex: exactly one element of the grid is in the tab order.
  useLayoutEffect(() => {
    const grid = gridRef.current;
    if (!grid) return;
    grid.querySelectorAll<HTMLElement>('[data-cell]').forEach((cell) => {
      cell.tabIndex = -1;
      cell.querySelectorAll<HTMLElement>(CONTROL).forEach((el) => (el.tabIndex = -1));
    });
    const cell = cellAt(active);
    if (cell) focusTarget(cell).tabIndex = 0;
    if (pendingFocus.current && cell) {
      pendingFocus.current = false;
      focusTarget(cell).focus({ preventScroll: true });
    }
  });

  const reveal = (row: number) => {
    if (row > 0) virtualizer.scrollToIndex(row - 1, { align: 'auto' });
  };

  // The parent moved the active row (J/K) and wants focus to follow.
  const lastSignal = useRef(focusSignal);
  useEffect(() => {
    if (focusSignal === lastSignal.current) return;
    lastSignal.current = focusSignal;
    setOnHeader(false);
    pendingFocus.current = true;
    reveal(activeRow + 1);
    // Rendered already: focus now; otherwise the layout effect does it once the row mounts.
    const cell = cellAt({ row: activeRow + 1, col: active.col });
    if (cell) {
      pendingFocus.current = false;
      focusTarget(cell).focus({ preventScroll: true });
    }
  }, [focusSignal]);

  const move = (next: Cell) => {
    const target: Cell = {
      row: Math.max(0, Math.min(count, next.row)),
      col: Math.max(0, Math.min(columns.length - 1, next.col)),
    };
    setCol(target.col);
    setOnHeader(target.row === 0);
    if (target.row > 0) onActiveIndexChange(target.row - 1);
    reveal(target.row);
    const cell = cellAt(target);
    if (cell) focusTarget(cell).focus({ preventScroll: true });
    else pendingFocus.current = true;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const t = e.target as HTMLElement;
    if (t.matches('input, select, textarea')) return;
    // Keys inside an open detail region (its own buttons) are left to it.
    if (t.closest('[data-grid-detail]')) return;
    const { row, col: c } = active;
    const last = count;
    const keys: Record<string, Cell | undefined> = {
      ArrowDown: { row: row + 1, col: c },
      ArrowUp: { row: row - 1, col: c },
      ArrowRight: { row, col: c + 1 },
      ArrowLeft: { row, col: c - 1 },
      PageDown: { row: row + PAGE, col: c },
      PageUp: { row: Math.max(row > 0 ? 1 : 0, row - PAGE), col: c },
      Home: e.ctrlKey ? { row: 0, col: 0 } : { row, col: 0 },
      End: e.ctrlKey ? { row: last, col: columns.length - 1 } : { row, col: columns.length - 1 },
    };
    const next = keys[e.key];
    if (!next) return;
    e.preventDefault();
    move(next);
  };

  // Clicking or tabbing into a cell makes it the active one.
  const onFocus = (e: FocusEvent<HTMLDivElement>) => {
    const cell = (e.target as HTMLElement).closest<HTMLElement>('[data-cell]');
    const [r, c] = (cell?.dataset.cell ?? '').split(':').map(Number);
    if (r === undefined || c === undefined || Number.isNaN(r) || Number.isNaN(c)) return;
    if (c !== col) setCol(c);
    if ((r === 0) !== onHeader) setOnHeader(r === 0);
    if (r > 0 && r - 1 !== activeRow) onActiveIndexChange(r - 1);
  };

  // Tabbing in while the active row is scrolled away: bring it back and focus it.
  const onBodyFocus = (e: FocusEvent<HTMLDivElement>) => {
    if (e.target !== bodyRef.current || count === 0) return;
    pendingFocus.current = true;
    setOnHeader(false);
    reveal(activeRow + 1);
  };
  const activeRendered = onHeader || items.some((i) => i.index === activeRow);

  const bodyHeight = Math.min(maxHeight, Math.max(total, count === 0 ? 0 : estimateRowHeight));

  return (
    <div
      ref={gridRef}
      role="grid"
      className="vg"
      aria-label={label}
      aria-rowcount={count + 1}
      aria-colcount={columns.length}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
      data-testid={testId}
      data-version={version}
    >
      <div role="rowgroup" className="vg-head">
        <div role="row" aria-rowindex={1} className="vg-row vg-row-head" style={{ gridTemplateColumns: template }}>
          {columns.map((column, c) => (
            <div
              key={column.id}
              role="columnheader"
              aria-colindex={c + 1}
              aria-sort={column.sort ? column.sort.direction : undefined}
              data-cell={`0:${c}`}
              className={`vg-cell${column.numeric ? ' numeric' : ''}`}
            >
              {column.sort ? (
                <button type="button" className="vg-sort" onClick={column.sort.onSort} data-testid={`sort-${column.id}`}>
                  {column.header}
                  <span className="vg-sort-mark" aria-hidden="true">
                    {column.sort.direction === 'ascending' ? '▲' : column.sort.direction === 'descending' ? '▼' : '↕'}
                  </span>
                </button>
              ) : (
                column.header
              )}
            </div>
          ))}
        </div>
      </div>
      <div
        ref={bodyRef}
        role="rowgroup"
        className="vg-body"
        style={{ height: bodyHeight }}
        tabIndex={activeRendered ? -1 : 0}
        onFocus={onBodyFocus}
      >
        <div className="vg-space" style={{ height: total }}>
          {items.map((item) => {
            const row = rows[item.index];
            if (row === undefined) return null;
            const open = isExpanded?.(row) ?? false;
            const style: CSSProperties = { transform: `translateY(${item.start}px)` };
            const extra = rowClassName?.(row, item.index);
            return (
              <div
                key={item.key.toString()}
                ref={virtualizer.measureElement}
                data-index={item.index}
                role="row"
                aria-rowindex={item.index + 2}
                aria-expanded={renderExpanded ? open : undefined}
                className={`vg-item${item.index === activeRow ? ' vg-active' : ''}${extra ? ` ${extra}` : ''}`}
                style={style}
                data-testid={rowTestId}
                {...rowAttributes?.(row, item.index)}
                onMouseDown={() => {
                  if (item.index !== activeRow) onActiveIndexChange(item.index);
                }}
              >
                <div className="vg-row" style={{ gridTemplateColumns: template }}>
                  {columns.map((column, c) => (
                    <div
                      key={column.id}
                      role="gridcell"
                      aria-colindex={c + 1}
                      data-cell={`${item.index + 1}:${c}`}
                      data-column={column.id}
                      className={`vg-cell${column.numeric ? ' numeric' : ''}`}
                    >
                      {column.cell(row, item.index)}
                    </div>
                  ))}
                </div>
                {open && renderExpanded ? (
                  <div role="gridcell" aria-colindex={1} aria-colspan={columns.length} className="vg-detail" data-grid-detail="">
                    {renderExpanded(row, item.index)}
                  </div>
                ) : null}
              </div>
            );
          })}
        </div>
      </div>
      {count === 0 ? <div className="vg-empty" data-testid={testId ? `${testId}-empty` : undefined}>{empty}</div> : null}
    </div>
  );
}
