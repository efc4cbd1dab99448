// The characters a text recogniser returns for one another, wherever printed text is read (the
// document reader's zone and printed fields, printed dates).

/**
 * The letter a digit read in a letters-only place stands for (OCR-B's 0 and O, 1 and I, 5 and S, 8
 * and B, 2 and Z, 6 and G, 4 and A are the reader's usual confusions). 3, 7 and 9 resemble no
 * letter well enough and are left as read.
 */
export const DIGIT_AS_LETTER: Readonly<Record<string, string>> = { '0': 'O', '1': 'I', '2': 'Z', '4': 'A', '5': 'S', '6': 'G', '8': 'B' };

/** Each digit read where letters belong taken as the letter it resembles (DIGIT_AS_LETTER). */
export const lettersOnly = (s: string) => s.replace(/[0-9]/g, (d) => DIGIT_AS_LETTER[d] ?? d);

/** Digits as a reader returns them at times in a number position (O for 0, I or L for 1, S for 5, B for 8, Z for 2). */
export const asDigits = (s: string) => s.replace(/[OQD]/g, '0').replace(/[IL|]/g, '1').replace(/S/g, '5').replace(/B/g, '8').replace(/Z/g, '2');
