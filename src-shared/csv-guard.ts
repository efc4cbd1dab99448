// The one formula guard for every CSV the product writes (report exports, the audit export, batch
// results) and the one way to take it off again (a saved results file imported back). A text cell
// a spreadsheet would run as a formula gets a leading apostrophe: one starting with = + - @, the
// separators ; and | (a DDE or macro call in some spreadsheets and locales), a tab or a carriage
// return, or their full-width forms ＝ ＋ － ＠ ； ｜ (which spreadsheets in East Asian locales read
// as the ASCII ones), after any leading white space, zero-width or control characters (spreadsheets
// trim or ignore them: " =1", "\u200b=1" and "\u0001=1" run as "=1").
// Numbers are not text: -3.2 is a value, and stays one.

/**
 * A text cell a spreadsheet would run as a formula: past any white space, control, zero-width or
 * other format characters (\p{White_Space}, \p{Cc}, \p{Cf}), one of = + - @ ; | or their
 * full-width forms; or a tab or carriage return among those leading characters.
 */
export const FORMULA_START = /^(?:[\p{White_Space}\p{Cc}\p{Cf}]*[=+\-@;|\uff1d\uff0b\uff0d\uff20\uff1b\uff5c]|[\p{White_Space}\p{Cc}\p{Cf}]*[\t\r])/u;

/** The cell as written to a CSV: guarded with a leading apostrophe when it would run as a formula. */
export function guardCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A cell read back from a CSV this product wrote: the guard taken off, nothing else. */
export function unguardCell(value: string): string {
  return value.length > 1 && value[0] === "'" && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}
