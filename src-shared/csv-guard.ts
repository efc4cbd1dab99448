// The one formula guard for every CSV the product writes (report exports, the audit export, batch
// results) and the one way to take it off again (a saved results file imported back). A text cell
// a spreadsheet would run as a formula gets a leading apostrophe: one starting with = + - @, their
// full-width forms ＝ ＋ － ＠ (which spreadsheets in East Asian locales read as the ASCII ones),
// either of those after leading spaces (spreadsheets trim them), or a tab or carriage return.
// Numbers are not text: -3.2 is a value, and stays one.

/** A text cell a spreadsheet would run as a formula. */
export const FORMULA_START = /^(?:[\t\r]|[ \u00a0\u3000]*[=+\-@\uff1d\uff0b\uff0d\uff20])/;

/** The cell as written to a CSV: guarded with a leading apostrophe when it would run as a formula. */
export function guardCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A cell read back from a CSV this product wrote: the guard taken off, nothing else. */
export function unguardCell(value: string): string {
  return value.length > 1 && value[0] === "'" && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}
