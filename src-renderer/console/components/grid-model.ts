// The table model behind the console's one grid (DataGrid.tsx): the screens' column lists
// (GridColumn, kept readable in their *-columns.tsx files) mapped to @tanstack/react-table
// column definitions, and the options every grid's table is built with. No React here, so the
// bench (scripts/bench-grid.ts) builds the very same model headless.
//
// The table memoises its row model on the rows array and caches each row's values: a screen
// hands it a new array (and a new object for a changed row) whenever rows change, never the
// same array changed in place. Sort comparators and filters read only the row they are given.
import {
  columnFilteringFeature, constructRow, createSortedRowModel, makeObjectMap, memo, rowSortingFeature, tableFeatures,
  tableMemo, type CellData, type ColumnDef, type ColumnFiltersState, type OnChangeFn, type Row, type RowData, type RowModel,
  type SortingState, type Table, type TableFeatures, type TableOptions,
} from '@tanstack/react-table';
import type { ReactNode } from 'react';

/**
 * The core row model, keeping the row it built for each row object that is still at the same
 * index: a new rows array with a paint's answers appended, or with one row decided, builds table
 * rows for the new objects only, not for all 100,000 again (react-table's own core model builds
 * every row anew for each new array). A row's cached values stay right because the objects are
 * never changed in place.
 */
export function createKeptCoreRowModel<TFeatures extends TableFeatures, TData extends RowData>() {
  return (table: Table<TFeatures, TData>): (() => RowModel<TFeatures, TData>) => {
    let kept = new WeakMap<TData, Row<TFeatures, TData>>();
    return tableMemo({
      feature: 'coreRowModelsFeature',
      table,
      fnName: 'table.getCoreRowModel',
      memoDeps: () => [table.options.data],
      fn: () => {
        const data = table.options.data;
        const next = new WeakMap<TData, Row<TFeatures, TData>>();
        const rows: Row<TFeatures, TData>[] = new Array(data.length);
        const rowsById = makeObjectMap<Row<TFeatures, TData>>();
        for (let i = 0; i < data.length; i++) {
          const original = data[i]!;
          let row = kept.get(original);
          if (row === undefined || row.index !== i) row = constructRow(table, table.getRowId(original, i), original, i, 0);
          next.set(original, row);
          rows[i] = row;
          rowsById[row.id] = row;
        }
        kept = next;
        return { rows, flatRows: rows, rowsById };
      },
    });
  };
}

/**
 * The column filters as one pass over the rows, keeping those every filter passes. react-table's
 * own filtered model also writes two fresh per-row records of filter results on every pass,
 * filtered or not (what facets read), which a 100,000-row batch would pay at every paint; the
 * grid reads no per-row filter state. Filters are the columns' own functions (toColumnDef).
 */
type Filtering = { columnFilteringFeature: typeof columnFilteringFeature };

export function createLeanFilteredRowModel<TData extends RowData>() {
  return (table: Table<Filtering, TData>): (() => RowModel<Filtering, TData>) => memo({
    memoDeps: () => [table.getPreFilteredRowModel(), table.atoms.columnFilters?.get()],
    fn: () => {
      const model = table.getPreFilteredRowModel();
      const active = (table.atoms.columnFilters?.get() ?? []).flatMap((f) => {
        const fn = table.getColumn(f.id)?.columnDef.filterFn;
        return typeof fn === 'function' ? [{ id: f.id, fn, value: f.value }] : [];
      });
      if (active.length === 0) return model;
      const rows = model.rows.filter((row) => active.every((f) => f.fn(row, f.id, f.value)));
      return { rows, flatRows: rows, rowsById: model.rowsById };
    },
  });
}

/** The table features every grid uses (react-table registers only what a table names). */
export const GRID_FEATURES = tableFeatures({
  rowSortingFeature,
  columnFilteringFeature,
  coreRowModel: createKeptCoreRowModel(),
  filteredRowModel: createLeanFilteredRowModel(),
  sortedRowModel: createSortedRowModel(),
});
export type GridFeatures = typeof GRID_FEATURES;

export interface GridColumnLayout {
  /** A CSS grid track, e.g. `72px` or `minmax(0, 2fr)`; by default an equal share. */
  width?: string;
  /** Right-align numbers so digits line up. */
  numeric?: boolean;
  /** Keep the cell on one line. */
  nowrap?: boolean;
}

declare module '@tanstack/react-table' {
  // The cell layout travels with the column definition (react-table's place for a column's extras).
  // eslint-disable-next-line @typescript-eslint/no-unused-vars, @typescript-eslint/no-empty-object-type
  interface ColumnMeta<in out TFeatures extends TableFeatures, in out TData extends RowData, TValue extends CellData = CellData> extends GridColumnLayout {}
}

export type SortDirection = 'ascending' | 'descending';

export interface GridColumn<T> extends GridColumnLayout {
  id: string;
  header: ReactNode;
  /** `index` is the row's place in the rows given to the grid. */
  cell: (row: T, index: number) => ReactNode;
  /**
   * Makes the column sortable: how two rows compare in ascending order. Ties keep the order of
   * the rows given. The header becomes a button carrying aria-sort.
   */
  compare?: (a: T, b: T) => number;
  /** The direction of the first click on the header (ascending unless said). */
  firstSort?: SortDirection;
  /** Makes the column filterable: whether a row passes the filter value set for this column. */
  filter?: (row: T, value: string) => boolean;
}

export interface GridModelOptions<T> {
  rows: readonly T[];
  columns: readonly GridColumn<T>[];
  getRowKey: (row: T) => string | number;
  /** The sort, when the screen holds it; otherwise the grid keeps its own, starting unsorted. */
  sorting?: SortingState;
  onSortingChange?: OnChangeFn<SortingState>;
  /** Filter values by column id; an empty string filters nothing. */
  filters?: Readonly<Record<string, string>>;
  /**
   * The rows are in the order the service sent them (one page of a ledger sorted by the
   * service): the sort is shown and asked for, never applied to the page.
   */
  manualSorting?: boolean;
}

/**
 * What react-table holds of a grid's row: react-table takes records or arrays, and every grid's rows
 * are objects, while screens (the charts' data tables) may stay generic over their row type.
 */
export type GridRow<T> = T & RowData;
export type GridColumnDef<T> = ColumnDef<GridFeatures, GridRow<T>, unknown>;

export function toColumnDef<T>(c: GridColumn<T>): GridColumnDef<T> {
  const base: GridColumnDef<T> = {
    id: c.id,
    header: () => c.header,
    cell: ({ row }) => c.cell(row.original, row.index),
    meta: { width: c.width, numeric: c.numeric, nowrap: c.nowrap },
  };
  const { compare, filter } = c;
  if (!compare && !filter) return { ...base, enableSorting: false, enableColumnFilter: false };
  return {
    ...base,
    // Sorting and filtering read the whole row (the comparator and the filter pick what they need).
    accessorFn: (row: GridRow<T>) => row,
    enableSorting: compare !== undefined,
    sortDescFirst: c.firstSort === 'descending',
    ...(compare ? { sortFn: (a, b) => compare(a.original, b.original) } : {}),
    enableColumnFilter: filter !== undefined,
    ...(filter ? { filterFn: (row, _id, value) => typeof value === 'string' && filter(row.original, value) } : {}),
  };
}

/** Column filters from the screen's values: one entry per column with a non-empty value. */
export function toColumnFilters(filters: Readonly<Record<string, string>> | undefined): ColumnFiltersState {
  if (!filters) return [];
  return Object.entries(filters).filter(([, value]) => value !== '').map(([id, value]) => ({ id, value }));
}

/** What every grid's table is built with, apart from its state and features (the React hook or the bench supply those). */
export function gridTableOptions<T>(
  o: Pick<GridModelOptions<T>, 'rows' | 'getRowKey' | 'manualSorting'>, columns: readonly GridColumnDef<T>[],
): Omit<TableOptions<GridFeatures, GridRow<T>>, 'features'> {
  return {
    // Every grid's rows are objects (see GridRow).
    data: o.rows as readonly GridRow<T>[],
    columns,
    getRowId: (row) => String(o.getRowKey(row)),
    manualSorting: o.manualSorting ?? false,
    // One sort at a time, toggled between its two directions (as the grid always did).
    enableMultiSort: false,
    enableSortingRemoval: false,
  };
}
