// An own list's CSV as the analyst's spreadsheet saved it: read here first, so the dialog can say
// which encoding it was read in (src-shared/csv-text.ts, as the batch import does) and let them
// choose another; what is uploaded is the text as they accepted it, in UTF-8.
import { readTextFile, workbookFormat, type EncodingGuess, type TextEncodingName } from '../../../../../src-shared/csv-text';

export const WORKBOOK_ERROR = 'This is an Excel workbook, not a CSV file. In Excel, choose Save As and “CSV UTF-8 (Comma delimited)”, then choose that file.';

export type ListFileReading =
  | { ok: true; encoding: TextEncodingName; detected: EncodingGuess; text: string }
  /** A workbook (.xlsx, .xls) is not text: nothing can be read from it here. */
  | { ok: false; error: string };

/** The file's text in the chosen encoding (the detected one when null), and how it was read. */
export async function readListFile(file: File, chosen: TextEncodingName | null): Promise<ListFileReading> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (workbookFormat(bytes)) return { ok: false, error: WORKBOOK_ERROR };
  return { ok: true, ...readTextFile(bytes, chosen) };
}
