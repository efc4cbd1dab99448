// The console's one table: a virtualised WAI-ARIA grid over a @tanstack/react-table model. Only
// the rows in view are in the DOM (a batch of 100,000 rows scrolls like one of 10), each keeping
// its place in the whole list through aria-rowindex. The table model (grid-model.ts) sorts and
// filters: a sortable header is a button carrying aria-sort. One keyboard model for every table:
// the grid is one tab stop (roving tabindex), arrow keys move between cells, Page Up/Down move ten
// rows, Home/End go to the row's ends and Ctrl+Home/End to the first/last cell; Enter on a cell
// (not on a control in it) opens the row when the table has something to open. A cell holding a
// control (a button, a link) focuses that control. Rows can open a detail region below their cells
// (the review's match explanation); rows are measured, so open rows push the others down.
//
// A screen hands the grid its rows and columns, or (when it needs the shown order itself, like
// the review's J/K) builds the model with useGridModel and hands the grid that.
import { useTable, type ColumnFiltersState, type Row, type Table } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type FocusEvent, type KeyboardEvent,
  type ReactNode,
} from 'react';
import {
  GRID_FEATURES, gridTableOptions, toColumnDef, toColumnFilters, type GridColumn, type GridColumnLayout, type GridFeatures,
  type GridModelOptions, type GridRow,
} from './grid-model';

export type { GridColumn, GridColumnLayout, GridModelOptions, SortDirection } from './grid-model';
export type { SortingState } from '@tanstack/react-table';

/** A grid's table model and the rows it shows, in the order shown. */
export interface GridModel<T> {
  table: Table<GridFeatures, GridRow<T>>;
  rows: readonly T[];
}

const NO_ROWS: readonly never[] = [];
const NO_COLUMNS: readonly GridColumn<never>[] = [];

/** The table model of a grid: its rows sorted and filtered by the columns' comparators and filters. */
export function useGridModel<T>(o: GridModelOptions<T>): GridModel<T> {
  const { columns } = o;
  const defs = useMemo(() => columns.map((c) => toColumnDef(c)), [columns]);
  // A new filter array only when a value changed: the filtered row model is recomputed on it.
  const filterKey = JSON.stringify(toColumnFilters(o.filters));
  const columnFilters = useMemo(() => JSON.parse(filterKey) as ColumnFiltersState, [filterKey]);
  const table = useTable<GridFeatures, GridRow<T>>({
    features: GRID_FEATURES,
    ...gridTableOptions(o, defs),
    state: { columnFilters, ...(o.sorting ? { sorting: o.sorting } : {}) },
    ...(o.onSortingChange ? { onSortingChange: o.onSortingChange } : {}),
  });
  const model = table.getRowModel();
  const rows = useMemo(() => model.rows.map((r) => r.original), [model]);
  return { table, rows };
}

interface GridViewProps<T> {
  label: string;
  empty: ReactNode;
  testId?: string;
  rowTestId?: string;
  estimateRowHeight?: number;
  /** Height of the scrolling body in px; shorter lists take only the room they need. */
  maxHeight?: number;
  /** Rows in the whole data set when `rows` is one page of it (for aria-rowcount). */
  totalRows?: number;
  /** Index of rows[0] in the whole data set (for aria-rowindex). */
  firstRowIndex?: number;
  /** The data row that holds the grid's tab stop; uncontrolled when left out. */
  activeIndex?: number;
  onActiveIndexChange?: (index: number) => void;
  /** Bump to move keyboard focus to the active row (after J/K, say). */
  focusSignal?: number;
  /** Enter on a row's cell. */
  onOpenRow?: (row: T, index: number) => void;
  isExpanded?: (row: T) => boolean;
  renderExpanded?: (row: T, index: number) => ReactNode;
  rowClassName?: (row: T, index: number) => string | undefined;
  rowAttributes?: (row: T, index: number) => Record<string, string | number | boolean | undefined>;
}

/** Either the rows and columns (the grid builds its model) or a model the screen built. */
type DataGridProps<T> = GridViewProps<T> & (
  | (GridModelOptions<T> & { model?: undefined })
  | { model: GridModel<T>; rows?: undefined; columns?: undefined; getRowKey?: undefined }
);

interface Cell {
  /** 0 is the header row; data row i is i + 1. */
  row: number;
  col: number;
}

const CONTROL = 'button, a[href], input, select, textarea, [data-grid-focus]';
const PAGE = 10;
const DEFAULT_WIDTH = 'minmax(0, 1fr)';

/** Text the grid cuts short with an ellipsis: a one-line cell, or a part of a cell kept to one line. */
const TRUNCATABLE = '.dg-cell.nowrap, .bat-ellipsis, .bat-match-meta';

/**
 * A mouse over (or focus on) text the grid cut short shows it whole as a tooltip; the whole text
 * is in the page either way, so assistive technology reads it all. Tooltips the cell set itself stay.
 */
function showWholeText(target: EventTarget): void {
  if (!(target instanceof Element)) return;
  const el = target.closest<HTMLElement>(TRUNCATABLE);
  if (!el || (el.title && el.dataset.wholeText === undefined)) return;
  const text = el.textContent?.trim() ?? '';
  if (el.scrollWidth > el.clientWidth && text) {
    el.title = text;
    el.dataset.wholeText = '';
  } else if (el.dataset.wholeText !== undefined) {
    el.removeAttribute('title');
    delete el.dataset.wholeText;
  }
}

/**
 * A header's or cell's content, called as a function. Not flexRender: that mounts a function as a
 * component, and the screens' column definitions are new functions on every render, so every
 * cell would be unmounted and mounted again each time, losing the focus of a control in it.
 */
function render<C>(content: ((context: C) => ReactNode) | string | undefined, context: C): ReactNode {
  return typeof content === 'function' ? content(context) : content;
}

function focusTarget(cell: HTMLElement): HTMLElement {
  return cell.querySelector<HTMLElement>(CONTROL) ?? cell;
}

function cellClass(c: GridColumnLayout | undefined): string {
  return `dg-cell${c?.numeric ? ' numeric' : ''}${c?.nowrap ? ' nowrap' : ''}`;
}

export function DataGrid<T>(props: DataGridProps<T>) {
  // Hooks run in the same order either way: a grid handed a model builds an empty one of its own.
  const own = useGridModel<T>(props.model
    ? { rows: NO_ROWS, columns: NO_COLUMNS as readonly GridColumn<T>[], getRowKey: String }
    : { ...props, manualSorting: props.manualSorting ?? props.totalRows !== undefined });
  return <GridView {...props} model={props.model ?? own} />;
}

function GridView<T>({
  model, label, empty, testId, rowTestId, estimateRowHeight = 44, maxHeight = 520, totalRows, firstRowIndex = 0, activeIndex,
  onActiveIndexChange, focusSignal = 0, onOpenRow, isExpanded, renderExpanded, rowClassName, rowAttributes,
}: GridViewProps<T> & { model: GridModel<T> }) {
  const { table, rows } = model;
  const tableRows: readonly Row<GridFeatures, GridRow<T>>[] = table.getRowModel().rows;
  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  const gridRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const [ownActive, setOwnActive] = useState(0);
  const [col, setCol] = useState(0);
  // Tables the parent does not steer start on the header row, like a plain table.
  const [onHeader, setOnHeader] = useState(activeIndex === undefined);
  const pendingFocus = useRef(false);
  const setActiveIndex = onActiveIndexChange ?? setOwnActive;
  const count = rows.length;
  const colCount = headers.length;
  const activeRow = Math.max(0, Math.min(count - 1, activeIndex ?? ownActive));
  const activeCol = Math.max(0, Math.min(col, colCount - 1));
  const active: Cell = { row: onHeader || count === 0 ? 0 : activeRow + 1, col: activeCol };

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => bodyRef.current,
    estimateSize: () => estimateRowHeight,
    overscan: 8,
    getItemKey: (i) => tableRows[i]?.id ?? i,
  });
  const items = virtualizer.getVirtualItems();
  const total = virtualizer.getTotalSize();
  const template = headers.map((h) => h.column.columnDef.meta?.width ?? DEFAULT_WIDTH).join(' ');

  const cellAt = useCallback((c: Cell): HTMLElement | null => {
    return gridRef.current?.querySelector<HTMLElement>(`[data-cell="${c.row}:${c.col}"]`) ?? null;
  }, []);

  const reveal = useCallback((row: number) => {
    if (row > 0) virtualizer.scrollToIndex(row - 1, { align: 'auto' });
  }, [virtualizer]);

  // Roving tabindex: exactly one element of the grid is in the tab order. Runs after every
  // render on purpose: rows mount and unmount as the list scrolls.
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

  // The parent moved the active row (J/K) and wants focus to follow.
  const lastSignal = useRef(focusSignal);
  useEffect(() => {
    if (focusSignal === lastSignal.current) return;
    lastSignal.current = focusSignal;
    setOnHeader(false);
    pendingFocus.current = true;
    reveal(activeRow + 1);
    // Rendered already: focus now; otherwise the layout effect does it once the row mounts.
    const cell = cellAt({ row: activeRow + 1, col: activeCol });
    if (cell) {
      pendingFocus.current = false;
      focusTarget(cell).focus({ preventScroll: true });
    }
  }, [focusSignal, activeRow, activeCol, cellAt, reveal]);

  const move = (next: Cell) => {
    const target: Cell = {
      row: Math.max(0, Math.min(count, next.row)),
      col: Math.max(0, Math.min(colCount - 1, next.col)),
    };
    setCol(target.col);
    setOnHeader(target.row === 0);
    if (target.row > 0) setActiveIndex(target.row - 1);
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
    if (e.key === 'Enter') {
      // A control in the cell handles Enter itself (a button clicks).
      if (!onOpenRow || row === 0 || t.matches(CONTROL)) return;
      const data = rows[row - 1];
      if (data === undefined) return;
      e.preventDefault();
      onOpenRow(data, row - 1);
      return;
    }
    const keys: Record<string, Cell | undefined> = {
      ArrowDown: { row: row + 1, col: c },
      ArrowUp: { row: row - 1, col: c },
      ArrowRight: { row, col: c + 1 },
      ArrowLeft: { row, col: c - 1 },
      PageDown: { row: row + PAGE, col: c },
      PageUp: { row: Math.max(row > 0 ? 1 : 0, row - PAGE), col: c },
      Home: e.ctrlKey ? { row: 0, col: 0 } : { row, col: 0 },
      End: e.ctrlKey ? { row: count, col: colCount - 1 } : { row, col: colCount - 1 },
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
    if (r > 0 && r - 1 !== activeRow) setActiveIndex(r - 1);
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
      className="dg"
      aria-label={label}
      aria-rowcount={count === 0 ? 2 : (totalRows ?? count) + 1}
      aria-colcount={colCount}
      onKeyDown={onKeyDown}
      onFocus={(e) => {
        showWholeText(e.target);
        onFocus(e);
      }}
      onMouseOver={(e) => showWholeText(e.target)}
      data-testid={testId}
    >
      <div role="rowgroup" className="dg-head">
        <div role="row" aria-rowindex={1} className="dg-row dg-row-head" style={{ gridTemplateColumns: template }}>
          {headers.map((header, c) => {
            const { column } = header;
            const sorted = column.getIsSorted();
            const direction = sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none';
            const content = render(column.columnDef.header, header.getContext());
            return (
              <div
                key={header.id}
                role="columnheader"
                aria-colindex={c + 1}
                aria-sort={column.getCanSort() ? direction : undefined}
                data-cell={`0:${c}`}
                className={cellClass(column.columnDef.meta)}
              >
                {column.getCanSort() ? (
                  <button type="button" className="dg-sort" onClick={column.getToggleSortingHandler()} data-testid={`sort-${column.id}`}>
                    {content}
                    <span className="dg-sort-mark" aria-hidden="true">
                      {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : '↕'}
                    </span>
                  </button>
                ) : (
                  content
                )}
              </div>
            );
          })}
        </div>
      </div>
      <div
        ref={bodyRef}
        role="rowgroup"
        className="dg-body"
        style={{ height: bodyHeight }}
        tabIndex={activeRendered ? -1 : 0}
        onFocus={onBodyFocus}
      >
        <div className="dg-space" style={{ height: total }}>
          {items.map((item) => {
            const tableRow = tableRows[item.index];
            const row = rows[item.index];
            if (tableRow === undefined || row === undefined) return null;
            const open = isExpanded?.(row) ?? false;
            const style: CSSProperties = { transform: `translateY(${item.start}px)` };
            const extra = rowClassName?.(row, item.index);
            return (
              <div
                key={item.key.toString()}
                ref={virtualizer.measureElement}
                data-index={item.index}
                role="row"
                aria-rowindex={firstRowIndex + item.index + 2}
                aria-expanded={renderExpanded ? open : undefined}
                className={`dg-item${item.index === activeRow ? ' dg-active' : ''}${extra ? ` ${extra}` : ''}`}
                style={style}
                data-testid={rowTestId}
                data-row-id={tableRow.id}
                {...rowAttributes?.(row, item.index)}
                onMouseDown={() => {
                  if (item.index !== activeRow) setActiveIndex(item.index);
                }}
              >
                <div className="dg-row" style={{ gridTemplateColumns: template }}>
                  {tableRow.getAllCells().map((cell, c) => (
                    <div
                      key={cell.id}
                      role="gridcell"
                      aria-colindex={c + 1}
                      data-cell={`${item.index + 1}:${c}`}
                      data-column={cell.column.id}
                      className={cellClass(cell.column.columnDef.meta)}
                    >
                      {render(cell.column.columnDef.cell, cell.getContext())}
                    </div>
                  ))}
                </div>
                {open && renderExpanded ? (
                  <div role="gridcell" aria-colindex={1} aria-colspan={colCount} className="dg-detail" data-grid-detail="">
                    {renderExpanded(row, item.index)}
                  </div>
                ) : null}
              </div>
            );
          })}
        </div>
      </div>
      {/* A grid holds rows only (WAI-ARIA grid pattern): the empty message, and any button in it, is a row's one cell. */}
      {count === 0 ? (
        <div role="row" aria-rowindex={2}>
          <div role="gridcell" aria-colspan={colCount} className="dg-empty" data-testid={testId ? `${testId}-empty` : undefined}>{empty}</div>
        </div>
      ) : null}
    </div>
  );
}
