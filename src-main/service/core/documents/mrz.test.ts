// Finding and parsing the MRZ in what the text reader returned: the reader's known slips, given as
// text boxes the way the reader gives them.
import { describe, expect, it } from 'vitest';
import { HOLDERS, mrzLines } from '../../test/document-fixtures';
import { fillerKVariants, findMrz } from './mrz';
import type { TextBox } from './ocr';

/** One text box per line, stacked, each character read with certainty unless given. */
const boxes = (lines: string[], probs?: (line: string, i: number) => number[]): TextBox[] =>
  lines.map((text, i) => ({
    text, probs: probs?.(text, i) ?? [...text].map(() => 0.99),
    box: [[40, 700 + 40 * i], [1200, 700 + 40 * i], [1200, 730 + 40 * i], [40, 730 + 40 * i]],
  }));

describe('findMrz', () => {
  const erika = HOLDERS[1]!;
  const anna = HOLDERS[0]!;

  it('reads a TD3 zone with every check digit', () => {
    const m = findMrz(boxes(mrzLines(erika, 'td3')))!;
    expect(m).toMatchObject({ format: 'TD3', surname: 'MUSTERMANN', givenNames: 'ERIKA', documentNumber: 'C01X00T47', birthDate: '640812', issuingState: 'DEU' });
    expect(m.checkDigits.every((c) => c.valid)).toBe(true);
  });

  it('takes a C the reader returned as ℃ (a compatibility character) as a C', () => {
    const [l1, l2] = mrzLines(anna, 'td3');
    const m = findMrz(boxes([l1!, l2!.replace('C3', '℃3')]))!;
    expect(m.documentNumber).toBe('L898902C3');
    expect(m.checkDigits.every((c) => c.valid)).toBe(true);
    expect(m.repaired).toBe(0);
  });

  it('reads a digit in a state code as the letter it resembles (UT0 is UTO)', () => {
    const [l1, l2, l3] = mrzLines(anna, 'td1');
    const m = findMrz(boxes([l1!.replace('I<UTO', 'I<UT0'), l2!, l3!]))!;
    expect(m.issuingState).toBe('UTO');
    expect(m.checkDigits.every((c) => c.valid)).toBe(true);
  });

  it('puts back the document code letter the reader dropped, and reads a T for the I of a card\'s code', () => {
    const [l1, l2, l3] = mrzLines(anna, 'td1');
    const dropped = findMrz(boxes([l1!.slice(1), l2!, l3!]))!;
    expect(dropped).toMatchObject({ documentCode: 'I', issuingState: 'UTO', documentNumber: 'L898902C3' });
    expect(dropped.checkDigits.every((c) => c.valid)).toBe(true);
    expect(findMrz(boxes([`T${l1!.slice(1)}`, l2!, l3!]))!.documentCode).toBe('I');
  });

  it('takes an unknown issuing state one letter from the nationality for the nationality (ERA next to FRA)', () => {
    const camille = HOLDERS[3]!;
    const [l1, l2] = mrzLines(camille, 'td2');
    const m = findMrz(boxes([l1!.replace('I<FRA', 'I<ERA'), l2!]))!;
    expect(m).toMatchObject({ issuingState: 'FRA', nationality: 'FRA', unknownState: false });
    const far = findMrz(boxes([l1!.replace('I<FRA', 'I<XQZ'), l2!]))!;
    expect(far).toMatchObject({ issuingState: 'XQZ', unknownState: true });
  });

  it('finds a line whose run of fillers came out short (CTC merges repeats), and repairs its length', () => {
    const [l1, l2, l3] = mrzLines(erika, 'td1');
    const short = l2!.replace(/<{11}/, '<<');
    expect(short.length).toBe(21);
    const m = findMrz(boxes([l1!, short, l3!]))!;
    expect(m).toMatchObject({ format: 'TD1', documentNumber: 'C01X00T47', birthDate: '640812', expiryDate: '301031' });
    expect(m.checkDigits.every((c) => c.valid)).toBe(true);
    expect(m.repaired).toBe(9);
  });

  it('does not take a short line without fillers, nor ordinary text, for a zone', () => {
    expect(findMrz(boxes(['PASSPORT PASSEPORT REISEPASS', 'Surname Nom MUSTERMANN ERIKA', '12 AUG 1964 BERLIN DEU']))).toBeNull();
    const [l1, l2] = mrzLines(erika, 'td3');
    expect(findMrz(boxes([l1!, l2!.slice(0, 24)]))).toBeNull();
  });
});

describe('fillerKVariants', () => {
  it('offers the name field with K runs read back as fillers, one or two runs at a time', () => {
    const variants = fillerKVariants('ERIKSSONKKANNA<MARIA<<<<<<<<<');
    expect(variants).toContainEqual({ surname: 'ERIKSSON', givenNames: 'ANNA MARIA' });
    // The K of ERIKSSON is a run too: replacing it gives other candidates, which the printed name then rules out.
    expect(variants).toContainEqual({ surname: 'ERI SSON', givenNames: 'ANNA MARIA' });
    expect(variants).toHaveLength(3);
  });

  it('reads a tail of K and fillers as fillers', () => {
    expect(fillerKVariants('ERIKSSONKKANNAKMARIAKKKKKKKK<<')).toContainEqual({ surname: 'ERIKSSON', givenNames: 'ANNA MARIA' });
  });

  it('offers nothing for a name without K', () => {
    expect(fillerKVariants('DE<JONG<<WILLEM<<<<<<<<<<<<<<')).toEqual([]);
  });
});
