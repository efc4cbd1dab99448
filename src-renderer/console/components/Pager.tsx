interface PagerProps {
  page: number;
  pages: number;
  total: number;
  /** Plural and singular, e.g. ['entries', 'entry']. */
  noun: readonly [string, string];
  onPage: (page: number) => void;
  disabled?: boolean;
}

export function Pager({ page, pages, total, noun, onPage, disabled }: PagerProps) {
  return (
    <nav className="pager" aria-label={`Pages of ${noun[0]}`} data-testid="pager">
      <span className="pager-total">
        {total.toLocaleString()} {total === 1 ? noun[1] : noun[0]}
      </span>
      <button type="button" className="btn btn-small" onClick={() => onPage(page - 1)} disabled={disabled || page <= 1} data-testid="pager-prev">
        Previous
      </button>
      <span aria-live="polite" data-testid="pager-position">
        Page {page} of {pages}
      </span>
      <button type="button" className="btn btn-small" onClick={() => onPage(page + 1)} disabled={disabled || page >= pages} data-testid="pager-next">
        Next
      </button>
    </nav>
  );
}
