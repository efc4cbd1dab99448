// The printed page against the MRZ: names settled only where a reading slip explains the
// difference, everything else flagged for review; printed dates read by the date module's rules.
import { describe, expect, it } from 'vitest';
import { HOLDERS, mrzLines, type Holder } from '../../test/document-fixtures';
import { assessDocument } from './assess';
import { reviewFlags, settleNames } from './fields';
import { findMrz, type MrzReading } from './mrz';
import type { TextBox } from './ocr';
import type { DocumentReading } from './reader';
import { datesAgree, nameAgreement, numbersAgree, readPrinted } from './viz';

const NOW = new Date(Date.UTC(2026, 0, 15, 12));

const boxes = (lines: string[]): TextBox[] =>
  lines.map((text, i) => ({
    text, probs: [...text].map(() => 0.99),
    box: [[40, 700 + 40 * i], [1200, 700 + 40 * i], [1200, 730 + 40 * i], [40, 730 + 40 * i]],
  }));
/**
 * The zone of a holder's passport, with the name field (after P<XXX) as the reader read it, and the
 * character of the name field at `unsureAt` read with low confidence.
 */
function zone(h: Holder, nameRead?: string, unsureAt?: number): MrzReading {
  const [l1, l2] = mrzLines(h, 'td3');
  const line = nameRead === undefined ? l1! : (l1!.slice(0, 5) + nameRead + '<'.repeat(44)).slice(0, 44);
  const read = boxes([line, l2!]);
  if (unsureAt !== undefined) read[0]!.probs[5 + unsureAt] = 0.3;
  return findMrz(read)!;
}
const holder = (surname: string, given: string): Holder => ({ ...HOLDERS[1]!, surname, given });
const reading = (m: MrzReading, printed: DocumentReading['printed']): DocumentReading => ({ mrz: m, printed, textBoxes: 20, attempts: [], ms: 1 });
const nameCheckOf = (m: MrzReading, printed: DocumentReading['printed']) =>
  assessDocument(reading(m, printed), 1, NOW).authenticity.checks.find((c) => c.check === 'printed_name_matches_mrz')!;
/** How the given names settle against `printed`, and the name check's result: reviewed, never refused, is ['review', 'not_checked']. */
const givenNamesAgainst = (m: MrzReading, printed: DocumentReading['printed']) => [settleNames(m, printed).givenNames.settlement, nameCheckOf(m, printed).result];

describe('names: the MRZ against the printed page', () => {
  it('agrees when the letters are the same; the zone is answered as it is', () => {
    const m = zone(holder('MUSTERMANN', 'ERIKA'));
    const s = settleNames(m, { surname: 'MUSTERMANN', given_names: 'Erika' });
    expect([s.surname.settlement, s.givenNames.settlement]).toEqual(['match', 'match']);
    expect(s.lines).toEqual(m.lines);
    expect(reviewFlags(s)).toEqual([]);
    expect(nameCheckOf(m, { surname: 'MUSTERMANN', given_names: 'ERIKA' }).result).toBe('pass');
  });

  it('agrees across ICAO transliteration (MÜLLER is MUELLER or MULLER in the zone) and a printed name read with digits (M0LIN)', () => {
    expect(nameAgreement('MÜLLER', 'MUELLER')).toBe('match');
    expect(nameAgreement('MÜLLER', 'MULLER')).toBe('match');
    expect(nameAgreement('ØSTERGÅRD', 'OESTERGAARD')).toBe('match');
    expect(nameAgreement('M0LIN', 'MOLIN')).toBe('match');
    expect(nameAgreement('L1VE1RA', 'LIVEIRA')).toBe('match');
  });

  it('restores letters the zone\'s reading dropped (WLEM for WILLEM) from the printed name, and writes them into the answered zone', () => {
    const h = holder('DE JONG', 'WILLEM');
    const m = zone(h, 'DE<JONG<<WLEM');
    expect(m.givenNames).toBe('WLEM');
    const s = settleNames(m, { surname: 'DE JONG', given_names: 'WILLEM' });
    expect(s.givenNames).toMatchObject({ value: 'WILLEM', settlement: 'restored' });
    expect(s.lines[0]).toBe(mrzLines(h, 'td3')[0]);
    expect(reviewFlags(s)).toEqual([]);
    expect(nameCheckOf(m, { surname: 'DE JONG', given_names: 'WILLEM' })).toMatchObject({ result: 'pass', detail: expect.stringContaining('restored') });
  });

  it('takes fillers read as K back as fillers, and a digit for the other letter it resembles, when the printed name confirms it letter for letter', () => {
    const anna = holder('ERIKSSON', 'ANNA MARIA');
    const k = settleNames(zone(anna, 'ERIKSSONKKANNA<MARIA'), { surname: 'ERIKSSON', given_names: 'ANNA MARIA' });
    expect([k.surname.value, k.givenNames.value, k.surname.settlement]).toEqual(['ERIKSSON', 'ANNA MARIA', 'match']);
    expect(k.lines[0]).toBe(mrzLines(anna, 'td3')[0]);

    // MO1INA: 1 is first taken for I (MOIINA); the printed MOLINA confirms L.
    const molina = holder('MOLINA', 'ERIKA');
    const m = zone(molina, 'MO1INA<<ERIKA');
    expect(m.surname).toBe('MOIINA');
    const d = settleNames(m, { surname: 'MOLINA', given_names: 'ERIKA' });
    expect(d.surname).toMatchObject({ value: 'MOLINA', settlement: 'match' });
    expect(d.lines[0]).toBe(mrzLines(molina, 'td3')[0]);
  });

  it('takes every filler read as K back, as many as the printed names need (more runs than two, a K ending a word beside one), and keeps the K\'s they spell', () => {
    const cases: [Holder, string, { surname: string; given_names: string }][] = [
      // Five fillers read as K, one right after NOWAK's own K.
      [holder('NOWAK GLOWACKA', 'ALEKSANDRA BOG'), 'NOWAKKGLOWACKAKKALEKSANDRAKBOG', { surname: 'NOWAK GLOWACKA', given_names: 'ALEKSANDRA BOG' }],
      // The separator read as K< and the surname's space as K.
      [holder('OSULLIVAN QUIGLEY', 'GOLIATH'), 'OSULLIVANKQUIGLEYK<GOLIATH', { surname: "O'SULLIVAN QUIGLEY", given_names: 'GOLIATH' }],
      [holder('ISAKSSON', 'BARTHOLOMEW ALOYSIUS'), 'ISAKSSONK<BARTHOLOMEWKALOYSIUS', { surname: 'ISAKSSON', given_names: 'BARTHOLOMEW ALOYSIUS' }],
    ];
    for (const [h, read, printed] of cases) {
      const s = settleNames(zone(h, read), printed);
      expect([s.surname.value, s.givenNames.value, s.surname.settlement, s.givenNames.settlement]).toEqual([h.surname, h.given, 'match', 'match']);
      expect(s.lines[0]).toBe(mrzLines(h, 'td3')[0]);
      expect(reviewFlags(s)).toEqual([]);
    }
    // Only K's go back: a name the print does not spell with the zone's other letters stays for review.
    const other = settleNames(zone(holder('NOWAK GLOWACKA', 'ALEKSANDRA'), 'NOWAKKGLOWACKAKKALEKSANDRA'), { surname: 'NOWAK GLOWACKI', given_names: 'ALEKSANDRA' });
    expect(other.surname.settlement).not.toBe('match');
    // The given names not located: nothing confirms which K's are fillers, and the names go to review.
    const half = zone(holder('NOWAK GLOWACKA', 'ALEKSANDRA BOG'), 'NOWAKKGLOWACKAKKALEKSANDRAKBOG');
    expect(reviewFlags(settleNames(half, { surname: 'NOWAK GLOWACKA' }))).not.toEqual([]);
  });

  it('agrees with a printed name the issuer cut to fit a full field (its last character a letter), also read with its fillers as K; a field ending in fillers is not cut', () => {
    const h = holder('WOLFESCHLEGELSTEINHAUSEN', 'ALEKSANDRA BOGUMILA');
    const full = 'WOLFESCHLEGELSTEINHAUSEN<<ALEKSANDRA<BO';
    expect(full).toHaveLength(39);
    const printed = { surname: 'WOLFESCHLEGELSTEINHAUSEN', given_names: 'ALEKSANDRA BOGUMILA' };
    for (const read of [full, 'WOLFESCHLEGELSTEINHAUSENKKALEKSANDRAKBO']) {
      const s = settleNames(zone(h, read), printed);
      expect([s.surname.value, s.givenNames.value, s.givenNames.settlement]).toEqual(['WOLFESCHLEGELSTEINHAUSEN', 'ALEKSANDRA BO', 'match']);
      expect(s.lines[0]!.slice(5)).toBe(full);
      expect(reviewFlags(s)).toEqual([]);
    }
    // The same letters with fillers after: the reading lost the rest, and the name goes to review.
    const short = settleNames(zone(holder('WOLFE', 'ALEKSANDRA BOGUMILA'), 'WOLFE<<ALEKSANDRA<BOG'), { surname: 'WOLFE', given_names: 'ALEKSANDRA BOGUMILA' });
    expect(short.givenNames.settlement).toBe('review');
  });

  it('takes back a K the zone\'s reading was unsure of beside a filler, and took for one, when the printed name confirms it (NOWAK, not NOWA); unconfirmed, it is flagged', () => {
    const h = holder('NOWAK', 'ERIK');
    const [l1, l2] = mrzLines(h, 'td3');
    // The surname's last letter read as a K with probability 0.6.
    const unsureK = { ...boxes([l1!])[0]!, probs: [...l1!].map((_, i) => (i === 9 ? 0.6 : 0.99)) };
    const m = findMrz([unsureK, boxes(['', l2!])[1]!])!;
    expect(m.surname).toBe('NOWA');
    const s = settleNames(m, { surname: 'NOWAK', given_names: 'ERIK' });
    expect(s.surname).toMatchObject({ value: 'NOWAK', settlement: 'match' });
    expect(s.lines[0]).toBe(l1);
    expect(nameCheckOf(m, { surname: 'NOWAK', given_names: 'ERIK' }).result).toBe('pass');
    // Printed ÖZTÜRK read without its accents (OZTURK) confirms the zone's OEZTUERK the same way.
    const t = holder('OEZTUERK', 'ZOE');
    const [t1, t2] = mrzLines(t, 'td3');
    const tk = { ...boxes([t1!])[0]!, probs: [...t1!].map((_, i) => (i === 12 ? 0.6 : 0.99)) };
    const mt = findMrz([tk, boxes(['', t2!])[1]!])!;
    expect(settleNames(mt, { surname: 'OZTURK', given_names: 'ZOE' }).surname).toMatchObject({ value: 'OEZTUERK', settlement: 'match' });
    // The print not found: the zone's reading is answered, and the surname named for review.
    expect(assessDocument(reading(m, {}), 1, NOW).review).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'surname', mrz: 'NOWA' })]));
  });

  it('flags a name a letter away (OONNOR or OCONNOR?) for review with both readings, answering the MRZ\'s, and leaves the name check unsettled', () => {
    const h = holder('OCONNOR', 'SIOBHAN');
    const m = zone(h, 'OONNOR<<SIOBHAN');
    const printed = { surname: "O'CONNOR", given_names: 'SIOBHAN' };
    const s = settleNames(m, printed);
    expect(s.surname).toMatchObject({ value: 'OONNOR', settlement: 'review' });
    expect(s.lines).toEqual(m.lines);
    expect(reviewFlags(s)).toEqual([{ field: 'surname', reason: 'printed_differs', mrz: 'OONNOR', printed: 'OCONNOR', detail: expect.stringContaining('no check digit') }]);
    const a = assessDocument(reading(m, printed), 1, NOW);
    expect(a.authenticity.checks.find((c) => c.check === 'printed_name_matches_mrz')!.result).toBe('not_checked');
    expect(a.authenticity.is_genuine).toBe(true);
    expect(a.documentData!.name).toBe('SIOBHAN OONNOR');
    expect(a.review.map((f) => f.field)).toEqual(['surname']);
  });

  it('does not restore a letter the recogniser does not drop (OONNOR is not OCONNOR by a dropped C), nor take a shorter printed name', () => {
    const m = zone(holder('MUSTERMANN', 'ERIKA'));
    expect(settleNames(m, { surname: 'MUSTERMAN', given_names: 'ERIKA' }).surname.settlement).toBe('review');
  });

  it('fails the name check for a different name (an edited page), and flags it too', () => {
    const m = zone(holder('MUSTERMANN', 'ERIKA'));
    const printed = { surname: 'MUSTERFRAU', given_names: 'ERIKA' };
    expect(settleNames(m, printed).surname.settlement).toBe('mismatch');
    expect(nameCheckOf(m, printed).result).toBe('fail');
    expect(reviewFlags(settleNames(m, printed))).toMatchObject([{ field: 'surname', reason: 'printed_differs' }]);
  });

  it('reviews, never refuses, a printed name that differs from a zone reading unsure of a character of that part (HSOLDH for ISOLDE, its first H unsure)', () => {
    const h = holder('GLOVER', 'ISOLDE');
    const unsure = zone(h, 'GLOVER<<HSOLDH', 'GLOVER<<'.length);
    const printed = { surname: 'GLOVER', given_names: 'ISOLDE' };
    expect(unsure.unsure.givenNames).toBeGreaterThan(0);
    expect(givenNamesAgainst(unsure, printed)).toEqual(['review', 'not_checked']);
    expect(reviewFlags(settleNames(unsure, printed))).toMatchObject([{ field: 'given_names', reason: 'printed_differs', detail: expect.stringContaining('low confidence') }]);
    // Read with confidence, the same zone is another name than the page's.
    expect(givenNamesAgainst(zone(h, 'GLOVER<<HSOLDH'), printed)).toEqual(['mismatch', 'fail']);
  });

  it('agrees where the reader dropped a printed accent that the zone spells as ICAO does (SØREN read SOREN, zone SOEREN; ÅSA read ASA, zone AASA)', () => {
    const m = zone(holder('BJOERKLUND', 'SOEREN'));
    expect(settleNames(m, { surname: 'BJORKLUND', given_names: 'SOREN' })).toMatchObject({
      surname: { value: 'BJOERKLUND', settlement: 'match' }, givenNames: { value: 'SOEREN', settlement: 'match' },
    });
    expect(nameAgreement('ASA', 'AASA')).toBe('match');
    expect(nameAgreement('MULLER', 'MUELLER')).toBe('match');
    // Only those letters fold: a name that differs in another letter is not agreed.
    expect(nameAgreement('SORAN', 'SOEREN')).not.toBe('match');
    expect(nameAgreement('ASO', 'AASA')).not.toBe('match');
  });

  it('leaves a different name read under the label to review when the zone\'s name is printed elsewhere on the page (the label led to another box)', () => {
    const m = zone(holder('QUISPE MAMANI', 'QUENTIN'));
    const printed = { surname: 'QUENTIN', given_names: 'QUENTIN' };
    const wrongBox = assessDocument({ ...reading(m, printed), valued: { surname: 'QUISPE MAMANI', given_names: 'QUENTIN' } }, 1, NOW);
    const check = wrongBox.authenticity.checks.find((c) => c.check === 'printed_name_matches_mrz')!;
    expect(check).toMatchObject({ result: 'not_checked', detail: expect.stringContaining('printed elsewhere') });
    expect(wrongBox.authenticity.is_genuine).toBe(true);
    expect(wrongBox.review).toMatchObject([{ field: 'surname', reason: 'printed_differs', mrz: 'QUISPE MAMANI', printed: 'QUENTIN' }]);
    // The zone's name nowhere else on the page: an edited page, refused.
    expect(nameCheckOf(m, printed).result).toBe('fail');
  });

  it('reviews a short name one letter away (CLOVHS or CLOVIS?) rather than calling it another name', () => {
    expect(nameAgreement('CLOVIS', 'CLOVHS')).toBe('close');
    expect(nameAgreement('LI', 'LU')).toBe('close');
    expect(nameAgreement('CLOVIS', 'CLOVAH')).toBe('different');
    const m = zone(holder('LI', 'CLOVHS'));
    expect(nameCheckOf(m, { given_names: 'CLOVIS' }).result).toBe('not_checked');
  });

  it('sends a name one reading holds cut short (OISIN read as O in the zone, a printed box cut at its end) to review, never failing the document as inconsistent', () => {
    const h = holder('MCALLISTER', 'OISIN');
    const m = zone(h, 'MCALLISTER<<O');
    const s = settleNames(m, { surname: 'MCALLISTER', given_names: 'OISIN' });
    expect(s.givenNames).toMatchObject({ value: 'O', settlement: 'review' });
    expect(nameCheckOf(m, { surname: 'MCALLISTER', given_names: 'OISIN' }).result).toBe('not_checked');
    const a = assessDocument(reading(m, { surname: 'MCALLISTER', given_names: 'OISIN' }), 1, NOW);
    expect(a.authenticity.checks.filter((c) => c.critical && c.result === 'fail')).toEqual([]);
    expect(a.review).toMatchObject([{ field: 'given_names', reason: 'printed_differs', mrz: 'O', printed: 'OISIN' }]);
    const printedCut = zone(holder('MUSTERMANN', 'ERIKA'));
    expect(settleNames(printedCut, { surname: 'MUSTERM', given_names: 'ERIKA' }).surname.settlement).toBe('review');
    expect(settleNames(printedCut, { surname: 'MUSTERMANNSON', given_names: 'ERIKA' }).surname.settlement).toBe('review');
  });

  it('reviews a name one reading holds with letters dropped and its words run together (MARADC for MARIA DEL CONSUELO GUADALUPE), never failing the document as inconsistent', () => {
    const m = zone(holder('GLOVER', 'MARIA DEL CONSUELO GUADALUPE'));
    expect(givenNamesAgainst(m, { surname: 'GLOVER', given_names: 'MARADC' })).toEqual(['review', 'not_checked']);
    // The zone's reading may be the one with letters lost.
    expect(nameAgreement('LUIS MIGUEL', 'LUIMIGE')).toBe('close');
    // Another name is not one with letters dropped: another first letter, a letter the longer
    // lacks, or too few letters kept to tell.
    expect(nameAgreement('WAGNER', 'MUSTERMANN')).toBe('different');
    expect(nameAgreement('MIKE', 'MARIADELCONSUELO')).toBe('different');
    expect(nameAgreement('MRA', 'MARIADELCONSUELO')).toBe('different');
    expect(nameCheckOf(m, { surname: 'GLOVER', given_names: 'MIKE' }).result).toBe('fail');
  });

  it('reviews a printed name read to its first word when that word is a letter from the zone\'s (QUOC for QUOC BAO, the zone\'s QUO<BAO), never failing the document; one word against one is another name', () => {
    const m = zone(holder('OKONJO IWEALA', 'QUOC BAO'), 'OKONJO<IWEALA<<QUO<BAO');
    expect(m.givenNames).toBe('QUO BAO');
    expect(givenNamesAgainst(m, { surname: 'OKONJO-IWEALA', given_names: 'QUOC' })).toEqual(['review', 'not_checked']);
    expect(settleNames(m, { surname: 'OKONJO-IWEALA', given_names: 'QUOC' }).givenNames.value).toBe('QUO BAO');
    expect(nameAgreement('MARK', 'MARIA')).toBe('different');
    expect(nameAgreement('MARK', 'MARIA ANNA')).toBe('different');
    expect(nameAgreement('QUO', 'QUOC BAO')).toBe('close');
    expect(nameAgreement('QUI', 'QUOC BAO')).toBe('different');
  });

  it('reviews a name one reading holds with its first letters lost (BAL for IQBAL), or with letters misread as well as letters dropped (ALEKSANORABOGUMA; a long box under glare, BAIHOLOMFWALSUS), never failing the document', () => {
    const iqbal = zone(holder('CLOUGH', 'IQBAL'));
    expect(givenNamesAgainst(iqbal, { surname: 'CLOUGH', given_names: 'BAL' })).toEqual(['review', 'not_checked']);
    expect(settleNames(iqbal, { surname: 'CLOUGH', given_names: 'BAL' }).givenNames.value).toBe('IQBAL');
    expect(givenNamesAgainst(zone(holder('NG', 'ALEKSANDRA BOGUMILA')), { surname: 'NG', given_names: 'ALEKSANORABOGUMA' })).toEqual(['review', 'not_checked']);
    // A short other name is not a long one with letters dropped, misread or not; another first letter is another name.
    expect(nameAgreement('MIKE', 'MARIA DEL CONSUELO')).toBe('different');
    expect(nameAgreement('BOGUMILA', 'ALEKSANDRA BOGUMILA')).toBe('close');
    expect(nameAgreement('OLEKSANDRA BOGUMILA', 'ALEKSANDRA BOGUMILA')).toBe('close');
    expect(nameAgreement('ZLEKSANORABOGUMA', 'ALEKSANDRABOGUMILA')).toBe('different');
    expect(nameAgreement('JONES', 'JOHNSON')).toBe('different');
    // A long box read under glare or blur: more letters misread and fewer kept, still the zone's name.
    const bartholomew = zone(holder('GLOVER', 'BARTHOLOMEW ALOYSIUS'));
    expect(givenNamesAgainst(bartholomew, { surname: 'GLOVER', given_names: 'BAIHOLOMFWALSUS' })).toEqual(['review', 'not_checked']);
    expect(nameAgreement('BAIHOLOMFWALSUS', 'BARTHOLOMEW ALOYSIUS')).toBe('close');
    // ...but not a third of its letters misread, nor a much shorter or other name.
    expect(nameAgreement('BAIHXLQMFWZLSUS', 'BARTHOLOMEW ALOYSIUS')).toBe('different');
    expect(nameAgreement('BARTHOLD', 'BARTHOLOMEW ALOYSIUS')).toBe('different');
    expect(nameAgreement('BRIGITTE ANNELIESE', 'BARTHOLOMEW ALOYSIUS')).toBe('different');
    expect(givenNamesAgainst(bartholomew, { surname: 'GLOVER', given_names: 'BENEDICT ALOYSIUS' })).toEqual(['mismatch', 'fail']);
  });

  it('reviews a printed name read as the inside of the zone\'s (YE for IYER: its first and last letters faint), never failing the document; other letters are another name', () => {
    const iyer = zone(holder('IYER', 'ZBIGNIEW'));
    const surname = (printed: string) => [settleNames(iyer, { surname: printed, given_names: 'ZBIGNIEW' }).surname.settlement, nameCheckOf(iyer, { surname: printed, given_names: 'ZBIGNIEW' }).result];
    expect(surname('YE')).toEqual(['review', 'not_checked']);
    expect(nameAgreement('YE', 'IYER')).toBe('close');
    expect(surname('YO')).toEqual(['mismatch', 'fail']);
    expect(nameAgreement('EY', 'IYER')).toBe('different');
  });

  it('fills a character that is no letter (a 7) from the printed name when every other letter agrees, and flags it when there is none', () => {
    const h = holder('OLIVEIRA', 'ERIKA');
    const m = zone(h, 'OLIV7IRA<<ERIKA');
    expect(m.surname).toBe('OLIV7IRA');
    const printed = settleNames(m, { surname: 'OLIVEIRA', given_names: 'ERIKA' });
    expect(printed.surname).toMatchObject({ value: 'OLIVEIRA', settlement: 'match', unreadable: false });
    expect(printed.lines[0]).toBe(mrzLines(h, 'td3')[0]);
    const alone = settleNames(m, {});
    expect(alone.surname).toMatchObject({ value: 'OLIV7IRA', settlement: 'not_located', unreadable: true });
    expect(reviewFlags(alone)).toMatchObject([{ field: 'surname', reason: 'unreadable_character', mrz: 'OLIV7IRA' }]);
  });

  it('makes no claim where the printed name was not located', () => {
    const m = zone(holder('MUSTERMANN', 'ERIKA'));
    const s = settleNames(m, {});
    expect([s.surname.settlement, s.givenNames.settlement]).toEqual(['not_located', 'not_located']);
    expect(reviewFlags(s)).toEqual([]);
    expect(nameCheckOf(m, {}).result).toBe('not_checked');
  });

  it('a surname whose field the zone read beginning with a filler (a letter read as [ or () is reviewed against a print that differs, not refused', () => {
    const h = holder('LI', 'LOIS');
    const surnameAgainst = (m: MrzReading) => [settleNames(m, { surname: 'LI', given_names: 'LOIS' }).surname.settlement, nameCheckOf(m, { surname: 'LI', given_names: 'LOIS' }).result];
    expect(surnameAgainst(zone(h, '[H<<LOIS'))).toEqual(['review', 'not_checked']);
    // The same other name read with confidence from the field's first character: a different name.
    expect(surnameAgainst(zone(h, 'XH<<LOIS'))).toEqual(['mismatch', 'fail']);
  });

  it('a name part read empty on a name line that lost characters (grown to its length with fillers) is reviewed; a holder with one name on a line read whole is not', () => {
    const h = holder('NG', 'JO');
    const [l1, l2, l3] = mrzLines(h, 'td1');
    // Glare over JO<<: the third line read as NG and fillers, two characters short.
    const lost = findMrz(boxes([l1!, l2!, `NG${'<'.repeat(26)}`]))!;
    expect(lost.givenNames).toBe('');
    const a = assessDocument(reading(lost, { surname: 'NG' }), 1, NOW);
    expect(a.review).toEqual([expect.objectContaining({ field: 'given_names', reason: 'low_confidence', mrz: '' })]);
    // The same zone read at its full length: one name, nothing to review.
    expect(l3!.length).toBe(30);
    const whole = findMrz(boxes([l1!, l2!, `NG${'<'.repeat(28)}`]))!;
    expect(assessDocument(reading(whole, { surname: 'NG' }), 1, NOW).review).toEqual([]);
  });
});

describe('the answer\'s document data', () => {
  it('carries nationality and sex as the MRZ gives them (X for its unspecified <), and the repaired zone', () => {
    const h: Holder = { ...HOLDERS[1]!, nationality: 'POL', sex: 'X' };
    const [l1, l2] = mrzLines(h, 'td3');
    const m = findMrz(boxes([l1!, l2!.replace('POL', 'P0L')]))!;
    const a = assessDocument(reading(m, {}), 1, NOW);
    expect(a.documentData).toMatchObject({ nationality: 'POL', sex: 'X', issuing_country: 'DEU', date_of_birth: '08/12/1964', expiry_date: '10/31/2030' });
    expect(a.mrz!.lines).toEqual([l1, l2]);
  });
});

describe('printed dates against the MRZ', () => {
  const born = (iso: string, yymmdd: string) => {
    const h: Holder = { ...HOLDERS[1]!, dob: iso };
    const [l1, l2] = mrzLines(h, 'td3');
    expect(l2!.slice(13, 19)).toBe(yymmdd);
    return assessDocument(reading(findMrz(boxes([l1!, l2!]))!, { date_of_birth: `${iso.slice(8)} MAR ${iso.slice(2, 4)}` }), 1, NOW);
  };

  it('agrees for holders born 1927 and 1936 whose page prints a two-digit year (27, 36), as the MRZ does', () => {
    for (const [iso, yymmdd] of [['1927-03-01', '270301'], ['1936-03-31', '360331']] as const) {
      const a = born(iso, yymmdd);
      expect(a.documentData!.date_of_birth).toBe(`03/${iso.slice(8)}/${iso.slice(0, 4)}`);
      expect(a.authenticity.checks.find((c) => c.check === 'printed_date_of_birth_matches_mrz')!.result).toBe('pass');
      expect(a.authenticity.checks.find((c) => c.check === 'dates_plausible')!.result).toBe('pass');
    }
  });

  it('reads the birth year against the verification date it is given, not the machine clock', () => {
    expect(datesAgree('01 MAR 27', { y: 1927, m: 3, d: 1 }, NOW)).toBe('match');
    expect(datesAgree('01 MAR 27', { y: 2027, m: 3, d: 1 }, new Date(Date.UTC(2030, 0, 1)))).toBe('match');
    expect(datesAgree('01.03.27', { y: 1927, m: 3, d: 1 }, NOW)).toBe('match');
    expect(datesAgree('02 MAR 27', { y: 1927, m: 3, d: 1 }, NOW)).toBe('mismatch');
  });

  it('a nationality printed as another state\'s code than the zone\'s is named for review; a word or the same code is not', () => {
    const h: Holder = { ...HOLDERS[1]!, nationality: 'AUT' };
    const [l1, l2] = mrzLines(h, 'td3');
    const m = findMrz(boxes([l1!, l2!]))!;
    const named = { surname: h.surname.toUpperCase(), given_names: h.given.toUpperCase() };
    // T read as S: AUS is a state too, so only the print can tell.
    const misread = { ...m, nationality: 'AUS' };
    expect(assessDocument(reading(misread, { ...named, nationality: 'AUT' }), 1, NOW).review).toEqual([
      expect.objectContaining({ field: 'nationality', reason: 'printed_differs', mrz: 'AUS', printed: 'AUT' }),
    ]);
    expect(assessDocument(reading(m, { ...named, nationality: 'AUT' }), 1, NOW).review).toEqual([]);
    expect(assessDocument(reading(misread, { ...named, nationality: 'ÖSTERREICH/AUSTRIAN' }), 1, NOW).review).toEqual([]);
  });

  it('a printed date of birth that differs only as a misreading (one digit) or a wrong box would is reviewed, not refused', () => {
    const h: Holder = { ...HOLDERS[1]!, dob: '1985-03-29' };
    const [l1, l2] = mrzLines(h, 'td3');
    const m = findMrz(boxes([l1!, l2!]))!;
    const named = { surname: h.surname.toUpperCase(), given_names: h.given.toUpperCase() };
    const check = (a: ReturnType<typeof assessDocument>) => a.authenticity.checks.find((c) => c.check === 'printed_date_of_birth_matches_mrz')!;
    // One digit misread (1986 for 1985): review, the document is not failed.
    const misread = assessDocument(reading(m, { ...named, date_of_birth: '29 MAR 1986' }), 1, NOW);
    expect(misread.review).toEqual([expect.objectContaining({ field: 'date_of_birth', reason: 'printed_differs', detail: expect.stringContaining('one digit') })]);
    expect(check(misread).result).toBe('not_checked');
    expect(misread.authenticity.is_genuine).toBe(true);
    // Another date under the label (the date of issue), while the zone's date is printed elsewhere: review.
    const wrongBox = assessDocument({ ...reading(m, { ...named, date_of_birth: '14 JUN 2019' }), valued: { date_of_birth: '29 MAR 1985' } }, 1, NOW);
    expect(wrongBox.review).toEqual([expect.objectContaining({ field: 'date_of_birth', reason: 'printed_differs', detail: expect.stringContaining('printed elsewhere') })]);
    expect(wrongBox.authenticity.is_genuine).toBe(true);
    // A different date, and the zone's nowhere on the page: the check fails as before.
    const other = assessDocument(reading(m, { ...named, date_of_birth: '14 JUN 1979' }), 1, NOW);
    expect(check(other).result).toBe('fail');
    expect(other.authenticity.is_genuine).toBe(false);
  });

  /** A holder's passport zone as read, and the names printed on its page. */
  const erikasPassport = () => {
    const h: Holder = { ...HOLDERS[1]! };
    const [l1, l2] = mrzLines(h, 'td3');
    return { m: findMrz(boxes([l1!, l2!]))!, named: { surname: h.surname.toUpperCase(), given_names: h.given.toUpperCase() } };
  };
  /** A printed number that neither contradicts nor confirms the zone's: the check not made, no critical failure, the number named for review. */
  const expectNumberReviewed = (printed: (zone: string) => string) => {
    const { m, named } = erikasPassport();
    const a = assessDocument(reading(m, { ...named, document_number: printed(m.documentNumber) }), 1, NOW);
    expect(a.authenticity.checks.find((c) => c.check === 'printed_document_number_matches_mrz')!.result).toBe('not_checked');
    expect(a.authenticity.checks.filter((c) => c.critical && c.result === 'fail')).toEqual([]);
    expect(a.review).toEqual([expect.objectContaining({ field: 'document_number', reason: 'printed_differs', mrz: m.documentNumber, printed: printed(m.documentNumber) })]);
  };

  it('a printed document number that differs under its label while the zone\'s is printed elsewhere is reviewed, not refused', () => {
    const { m, named } = erikasPassport();
    const a = assessDocument({ ...reading(m, { ...named, document_number: 'X1234567' }), valued: { document_number: m.documentNumber } }, 1, NOW);
    expect(a.review).toEqual([expect.objectContaining({ field: 'document_number', reason: 'printed_differs', mrz: m.documentNumber, printed: 'X1234567' })]);
    expect(a.authenticity.is_genuine).toBe(true);
    const alone = assessDocument(reading(m, { ...named, document_number: 'X1234567' }), 1, NOW);
    expect(alone.authenticity.checks.find((c) => c.check === 'printed_document_number_matches_mrz')!.result).toBe('fail');
  });

  it('a printed number read cut short (its first or last characters lost at the card\'s edge) agrees as far as it goes; a number of its own length that differs does not', () => {
    expect(numbersAgree('L4HTBTC', 'L4HTBTCVH')).toBe('cut');
    expect(numbersAgree('34A0GC9', 'M84A0GC9')).toBe('cut');
    expect(numbersAgree('HTBTCVH', 'L4HTBTCVH')).toBe('cut');
    expect(numbersAgree('L4HTBTCVH', 'L4HTBTCVH')).toBe('match');
    // A character changed inside, or as long as the number and different: differs.
    expect(numbersAgree('L4HXBTC', 'L4HTBTCVH')).toBe('mismatch');
    expect(numbersAgree('L4HXB', 'L4HTBTCVH')).toBe('mismatch');
    expect(numbersAgree('X84A0GC9', 'M84A0GC9')).toBe('mismatch');
    expect(numbersAgree('M84A0GC7', 'M84A0GC9')).toBe('mismatch');
    const { m, named } = erikasPassport();
    const cut = assessDocument(reading(m, { ...named, document_number: m.documentNumber.slice(0, -2) }), 1, NOW);
    expect(cut.authenticity.checks.find((c) => c.check === 'printed_document_number_matches_mrz')!).toMatchObject({ result: 'pass', detail: expect.stringContaining('as far as it was read') });
    expect(cut.review).toEqual([]);
  });

  it('a printed number differing from the zone\'s only in characters a reader confuses: agrees where the zone\'s check digit would have caught its misreading, is reviewed where it could not (L and 1, G and 6 weigh alike)', () => {
    // O for 0, S for 5, 4 for A: values apart by other than ten, so a zone whose digit holds was read right.
    expect(numbersAgree('CO1XOOT47', 'C01X00T47')).toBe('match');
    expect(numbersAgree('M8AAOGC9', 'M84A0GC9')).toBe('match');
    // L for 1, G for 6: the check digit holds either way, so nothing settles which was printed.
    expect(numbersAgree('L4HTBTCVH', '14HTBTCVH')).toBe('blind');
    expect(numbersAgree('G4HTBTCVH', '64HTBTCVH')).toBe('blind');
    expect(numbersAgree('X4HTBTCVH', '14HTBTCVH')).toBe('mismatch');
    expectNumberReviewed((zone) => zone.replace(/1/, 'L').replace(/6/, 'G'));
  });

  it('a printed number read only in part (its start or end, the rest under glare) is neither a contradiction nor a confirmation: review, not a failed check', () => {
    expect(numbersAgree('L4HTB', 'L4HTBTCVH')).toBe('short');
    expect(numbersAgree('BTCVH', 'L4HTBTCVH')).toBe('short');
    // Too little to be the number's (three characters), or not its start or end: differs.
    expect(numbersAgree('L4H', 'L4HTBTCVH')).toBe('mismatch');
    expect(numbersAgree('HTBTC', 'L4HTBTCVH')).toBe('mismatch');
    expectNumberReviewed((zone) => zone.slice(0, 5));
  });

  it('a printed number read with one character inside it missing (a narrow letter or one of a doubled pair run into its neighbour) is reviewed, not refused', () => {
    expect(numbersAgree('R4L4DDYB', 'R4LJ4DDYB')).toBe('dropped');
    expect(numbersAgree('R4LJ4DYB', 'R4LJ4DDYB')).toBe('dropped');
    // Two missing, one missing and one changed, or too short to say: differs.
    expect(numbersAgree('R4L4DYB', 'R4LJ4DDYB')).toBe('mismatch');
    expect(numbersAgree('R4L4XDYB', 'R4LJ4DDYB')).toBe('mismatch');
    expect(numbersAgree('A1B2C', 'A1BX2C')).toBe('mismatch');
    expectNumberReviewed((zone) => zone.slice(0, 3) + zone.slice(4));
  });

  it('a printed number read with a character or two more at one end (a mark beside it, a number longer than the zone) is neither a contradiction nor a confirmation: review, not a failed check', () => {
    expect(numbersAgree('555123ABC12', '555123ABC')).toBe('longer');
    expect(numbersAgree('X555123ABC', '555123ABC')).toBe('longer');
    // Three more, or the number changed inside: differs.
    expect(numbersAgree('555123ABC123', '555123ABC')).toBe('mismatch');
    expect(numbersAgree('555723ABC12', '555123ABC')).toBe('mismatch');
    expectNumberReviewed((zone) => `${zone}12`);
  });

  it('flags a printed birth year a century before the MRZ\'s (1917 printed, 17 in the zone reads 2017) for review: the check digit cannot decide a century', () => {
    const h: Holder = { ...HOLDERS[1]!, dob: '1917-03-29' };
    const [l1, l2] = mrzLines(h, 'td3');
    const m = findMrz(boxes([l1!, l2!]))!;
    // The names are printed too (a name not found on the page is a review of its own).
    const named = { surname: h.surname.toUpperCase(), given_names: h.given.toUpperCase() };
    const a = assessDocument(reading(m, { ...named, date_of_birth: '29 MAR 1917' }), 1, NOW);
    expect(a.documentData!.date_of_birth).toBe('03/29/2017');
    expect(a.review).toEqual([{ field: 'date_of_birth', reason: 'printed_differs', mrz: '03/29/2017', printed: '03/29/1917', detail: expect.stringContaining('century') }]);
    expect(a.authenticity.checks.find((c) => c.check === 'printed_date_of_birth_matches_mrz')!.result).toBe('not_checked');
    expect(a.authenticity.is_genuine).toBe(true);
    // The same date printed, and a different date, are no review.
    expect(assessDocument(reading(m, { ...named, date_of_birth: '29 MAR 2017' }), 1, NOW).review).toEqual([]);
    const other = assessDocument(reading(m, { ...named, date_of_birth: '28 MAR 1917' }), 1, NOW);
    expect(other.review).toEqual([]);
    expect(other.authenticity.checks.find((c) => c.check === 'printed_date_of_birth_matches_mrz')!.result).toBe('fail');
  });

  it('reviews a printed date of birth read with the zone\'s century for its year (24.12.19 for 24.12.1931: the last digits lost), never refusing; another day or year still differs', () => {
    const h: Holder = { ...HOLDERS[1]!, dob: '1931-12-24' };
    const [l1, l2] = mrzLines(h, 'td3');
    const m = findMrz(boxes([l1!, l2!]))!;
    const named = { surname: h.surname.toUpperCase(), given_names: h.given.toUpperCase() };
    const check = (a: ReturnType<typeof assessDocument>) => a.authenticity.checks.find((c) => c.check === 'printed_date_of_birth_matches_mrz')!.result;
    const cut = assessDocument(reading(m, { ...named, date_of_birth: '24.12.19' }), 1, NOW);
    expect(check(cut)).toBe('not_checked');
    expect(cut.review).toEqual([expect.objectContaining({ field: 'date_of_birth', reason: 'printed_differs', printed: '24.12.19' })]);
    expect(cut.authenticity.is_genuine).toBe(true);
    expect(check(assessDocument(reading(m, { ...named, date_of_birth: '24.12.1931' }), 1, NOW))).toBe('pass');
    expect(check(assessDocument(reading(m, { ...named, date_of_birth: '23.12.19' }), 1, NOW))).toBe('fail');
    expect(check(assessDocument(reading(m, { ...named, date_of_birth: '24.12.18' }), 1, NOW))).toBe('fail');
  });

  it('reads an MRZ expiry in 2027 as current, and one that passed as expired', () => {
    const at = (expiry: string) => {
      const [l1, l2] = mrzLines({ ...HOLDERS[1]!, expiry }, 'td3');
      return assessDocument(reading(findMrz(boxes([l1!, l2!]))!, {}), 1, NOW).authenticity.checks.find((c) => c.check === 'not_expired')!;
    };
    expect(at('2027-03-01')).toMatchObject({ result: 'pass', detail: 'Valid until 03/01/2027' });
    expect(at('2026-01-14')).toMatchObject({ result: 'fail', detail: 'Expired on 01/14/2026' });
    expect(at('2026-01-15').result).toBe('pass');
  });
});

describe('printed fields found by their labels', () => {
  const box = (text: string, left: number, top: number, width: number, height = 28): TextBox => ({
    text, probs: [...text].map(() => 0.99), box: [[left, top], [left + width, top], [left + width, top + height], [left, top + height]],
  });

  it('takes a value printed under its label, or beside it; never text under other text of the label\'s line (a paper under the document)', () => {
    const label = box('Name / Surname / Nom', 240, 440, 230);
    const beside = box('QUISPE MAMANI', 770, 440, 100);
    // The print of a paper under the card: a column of lines beside the label, one just below its line reaching under its start.
    const paper = [box('Lorem', 130, 404, 75), box('Lorem', 135, 445, 75), box('Lorem', 140, 492, 80)];
    expect(readPrinted([label, beside, ...paper]).surname).toBe('QUISPE MAMANI');
    // A value under the label, starting left of the part of the label that was read (its start
    // unread), with the line above it below the label's top: still its value.
    const given = box('Given name', 506, 324, 70, 12);
    expect(readPrinted([given, box('Pren', 588, 324, 33, 9), box('DOS SANTOS', 427, 280, 350, 30), box('SOREN', 426, 342, 78, 22)]).given_names).toBe('SOREN');
  });

  it('takes no lone letter and no text without a capital for a name: the page\'s name is then not located, never different', () => {
    const label = box('Surname / Nom', 240, 440, 120, 14);
    // A speck read as L under the label; the name itself under glare, unread.
    expect(readPrinted([label, box('L', 242, 458, 10)]).surname).toBeUndefined();
    // A paper's lower-case print under the document, below the label; the name printed further down is the value.
    expect(readPrinted([label, box('it amet consectetur adipiscing', 238, 456, 260)]).surname).toBeUndefined();
    expect(readPrinted([label, box('it amet consectetur', 238, 456, 200), box('ÖZTÜRK', 240, 470, 120)]).surname).toBe('ÖZTÜRK');
    // Names in capitals, with capitals, or of two letters are names.
    expect(readPrinted([label, box('NG', 242, 458, 30)]).surname).toBe('NG');
    expect(readPrinted([label, box('van der Berg', 242, 458, 120)]).surname).toBe('van der Berg');
  });

  it('in a layout with values beside their labels, takes the value beside the label over the next label under it (read cut short, so unknown as a label)', () => {
    const label = box('Imiona/Givennam', 353, 193, 150, 16);
    const next = box('Data urodzeni', 353, 243, 107, 15);
    const beside = box('MARIADELCONSUELOGUADALUPE', 613, 190, 419, 19);
    expect(readPrinted([label, next, beside]).given_names).toBe('MARIADELCONSUELOGUADALUPE');
    // A value under its label in larger print keeps its place before anything beside the label.
    expect(readPrinted([label, box('MARIA', 353, 215, 80, 22), beside]).given_names).toBe('MARIA');
  });

  it('reads a bilingual label\'s garbled second half (Surname / Nom read as Surname and NC) as the label\'s, never as a line hiding the value under it', () => {
    const label = box('Surname', 382, 227, 58, 10);
    const values = [box('POPESCU', 379, 240, 111, 24), box('IRIS', 378, 291, 50, 24)];
    expect(readPrinted([label, box('NC', 445, 228, 26, 7), ...values]).surname).toBe('POPESCU');
    // Taller than the label, or far from its end, the box is other text of the line, as before.
    expect(readPrinted([label, box('NC', 445, 226, 26, 12), ...values]).surname).toBe('NC');
    expect(readPrinted([label, box('NC', 470, 228, 26, 7), ...values]).surname).toBe('NC');
  });
});
