// Which encoding a customer's file was read in (src-shared/csv-text.ts), for every CSV import of
// the console. Known for sure (a byte order mark, valid UTF-8), it is one line; guessed (not UTF-8,
// or UTF-16 without a mark) or chosen by the analyst, it is a notice with a choice to read the
// file another way. Plain ASCII reads the same every way: nothing is said.
import { useId } from 'react';
import { ENCODING_LABEL, TEXT_ENCODINGS, type EncodingGuess, type TextEncodingName } from '../../../src-shared/csv-text';
import { Alert } from './Alert';

/** The choices, named by the Excel "Save as" type that writes each. */
const CHOICE_LABEL: Record<TextEncodingName, string> = {
  'utf-8': 'UTF-8 (Excel “CSV UTF-8”)',
  'windows-1252': 'Windows-1252 (Excel “CSV”; also Latin-1)',
  'utf-16le': 'UTF-16 LE (Excel “Unicode Text”)',
  'utf-16be': 'UTF-16 BE',
};

/** The notice's title: Windows-1252 is named by the program that writes it. */
function readAs(encoding: TextEncodingName): string {
  return `Read as ${ENCODING_LABEL[encoding]}${encoding === 'windows-1252' ? ' (Excel)' : ''}`;
}

function why(encoding: TextEncodingName, detected: EncodingGuess): string {
  if (encoding !== detected.encoding) {
    return `You chose ${ENCODING_LABEL[encoding]}; the file looked like ${ENCODING_LABEL[detected.encoding]}. ` +
      'Check the names: a name with a letter that could not be read is left out, never screened as it is.';
  }
  if (detected.evidence === 'nul_pattern') {
    return 'The file does not say how it is encoded, but its bytes are laid out as UTF-16 text, as Excel’s “Unicode Text” writes it. ' +
      'Check the names; if they look wrong, read the file another way.';
  }
  return 'The file is not UTF-8, so it was read as Windows-1252: what Excel’s “CSV (Comma delimited)” writes on Windows in Western Europe ' +
    'and the Americas, and a superset of Latin-1 (ISO-8859-1). Check the names; if letters look wrong, read the file another way. ' +
    'Letters Windows-1252 has no byte for (ł, Ș, Cyrillic, Greek…) were saved by Excel as “?”: save the file as “CSV UTF-8” to keep them.';
}

interface EncodingNoticeProps {
  encoding: TextEncodingName;
  detected: EncodingGuess;
  onChoose: (encoding: TextEncodingName) => void;
  disabled?: boolean;
  testId: string;
}

export function EncodingNotice({ encoding, detected, onChoose, disabled = false, testId }: EncodingNoticeProps) {
  const selectId = useId();
  const chosen = encoding !== detected.encoding;
  const attrs = { 'data-encoding': encoding, 'data-detected': detected.encoding, 'data-guessed': detected.guessed };
  if (!detected.guessed && !chosen) {
    if (detected.evidence === 'ascii' || detected.evidence === 'empty') return null;
    return (
      <p className="muted enc-line" data-testid={testId} {...attrs}>
        Read as {ENCODING_LABEL[encoding]} ({detected.evidence === 'bom' ? 'the file says so at its start' : 'every character in it is valid UTF-8'}).
      </p>
    );
  }
  return (
    <div className="enc-notice" data-testid={testId} {...attrs}>
      <Alert tone="warning" title={readAs(encoding)}>
        <p className="enc-why">{why(encoding, detected)}</p>
        <div className="enc-choice">
          <label htmlFor={selectId}>Read the file as</label>
          <select
            id={selectId}
            value={encoding}
            disabled={disabled}
            onChange={(e) => onChoose(e.currentTarget.value as TextEncodingName)}
            data-testid={`${testId}-choice`}
          >
            {TEXT_ENCODINGS.map((e) => (
              <option key={e} value={e}>
                {CHOICE_LABEL[e]}
                {e === detected.encoding ? ' · detected' : ''}
              </option>
            ))}
          </select>
        </div>
      </Alert>
    </div>
  );
}
