// The reader's use of the print for names the zone lost letters of, through readDocument with a
// stand-in text reader that returns given lines (the real models are exercised by the route tests).
import { describe, expect, it } from 'vitest';
import { expectedData, generatedMrz, generateHolder, seeded, type GenHolder } from '../../test/document-generator';
import type { TextBox, TextReader } from './ocr';
import { readDocument } from './reader';

const box = (text: string, x: number, y: number, w: number, h = 24): TextBox => ({
  text, probs: [...text].map(() => 0.99), box: [[x, y], [x + w, y], [x + w, y + h], [x, y + h]],
});
const blank = { rgb: new Uint8Array(640 * 450 * 3).fill(235), width: 640, height: 450 };
const readerOf = (boxes: TextBox[]): TextReader => ({ read: () => Promise.resolve({ boxes, ms: { detect: 0, recognise: 0 } }) });

/** A holder's passport as the text reader would return it, with the zone's name spelled as given. */
function passport(h: GenHolder, zoneSurname: string, printed: TextBox[]): TextBox[] {
  const [l1, l2] = generatedMrz(h, 'td3');
  const line1 = l1!.replace(h.surname.replace(/[^A-Z]/g, ''), zoneSurname);
  return [...printed, box((line1 + '<<<<').slice(0, 44), 20, 360, 600), box(l2!, 20, 400, 600)];
}

describe('names the zone lost letters of', () => {
  const h: GenHolder = { ...generateHolder(seeded(77)), surname: 'MCALLISTER', given: 'OISIN' };

  it('are taken from the print when the zone lacks single letters, with or without the labels', async () => {
    const labelled = [box('Surname / Nom', 200, 100, 160, 14), box('MCALLISTER', 200, 118, 150), box('Given names / Prénoms', 200, 160, 200, 14), box('OISIN', 200, 178, 80)];
    const withLabels = await readDocument(readerOf(passport(h, 'MALLISTER', labelled)), blank);
    expect(withLabels.mrz?.surname).toBe('MCALLISTER');
    // A photo whose small labels were not found: the value alone.
    const unlabelled = await readDocument(readerOf(passport(h, 'MALLISTER', [box('MCALLISTER', 200, 118, 150), box('OISIN', 200, 178, 80)])), blank);
    expect(unlabelled.mrz?.surname).toBe('MCALLISTER');
    // The answered lines carry the restored name too (what is answered is read from them).
    expect(unlabelled.mrz?.lines[0]).toBe(generatedMrz(h, 'td3')[0]);
    expect(expectedData(h, 'td3').name).toBe('OISIN MCALLISTER');
  });

  it('are not taken when the print differs by more than dropped letters (a run of letters added), or when two prints would fit', async () => {
    const edited = await readDocument(readerOf(passport(h, 'MCALLISTER', [box('Surname / Nom', 200, 100, 160, 14), box('MCALLISTERSON', 200, 118, 170)])), blank);
    expect(edited.mrz?.surname).toBe('MCALLISTER');
    const two = await readDocument(readerOf(passport(h, 'MALLISTER', [box('MCALLISTER', 200, 118, 150), box('MALLISTERS', 200, 240, 150)])), blank);
    expect(two.mrz?.surname).toBe('MALLISTER');
  });

  it('keeps the attempt whose names the print confirms, an unsure K taken for a filler given back (ÖZTÜRK printed, read OZTURK; OEZTUERK in the zone)', async () => {
    const t: GenHolder = { ...h, surname: 'OEZTUERK', given: 'ZOE' };
    const [l1, l2] = generatedMrz(t, 'td3');
    // The surname's last letter (a K beside the fillers) read with probability 0.6 each time; the first read lost its O too.
    const unsureK = (line: string, at: number): TextBox => ({ ...box(line, 20, 360, 600), probs: [...line].map((_, i) => (i === at ? 0.6 : 0.99)) });
    const printed = [box('Surname / Nom', 200, 100, 160, 14), box('OZTURK', 200, 118, 120), box('Given names / Prénoms', 200, 160, 200, 14), box('ZOE', 200, 178, 60)];
    const first = [...printed, unsureK(`${l1!.replace('OEZTUERK', 'EZTUERK')}<`, 11), box(l2!, 20, 400, 600)];
    const again = [...printed, unsureK(l1!, 12), box(l2!, 20, 400, 600)];
    let calls = 0;
    const reader: TextReader = { read: () => Promise.resolve({ boxes: calls++ === 0 ? first : again, ms: { detect: 0, recognise: 0 } }) };
    const r = await readDocument(reader, blank);
    expect(calls).toBeGreaterThan(1);
    expect(r.mrz?.surname).toBe('OEZTUERK');
  });

  it('drops an apostrophe as ICAO does', async () => {
    const o: GenHolder = { ...h, surname: "O'CONNOR", given: 'SIOBHAN' };
    const [l1, l2] = generatedMrz(o, 'td3');
    const r = await readDocument(readerOf([box('Surname / Nom', 200, 100, 160, 14), box("O'CONNOR", 200, 118, 120), box(l1!.replace('OCONNOR', 'OCONOR') + '<', 20, 360, 600), box(l2!, 20, 400, 600)]), blank);
    expect(r.mrz?.surname).toBe('OCONNOR');
  });
});

describe('a reading whose check digits hold', () => {
  const h: GenHolder = generateHolder(seeded(91));
  const [l1, l2] = generatedMrz(h, 'td3');
  const zone = (line2: string) => [box(l1!, 20, 360, 600), box(line2, 20, 400, 600)];

  it('is read again while its nationality is no state code (no check digit covers it), and the better reading answered', async () => {
    const misread = `${l2!.slice(0, 10)}XQZ${l2!.slice(13)}`;
    let calls = 0;
    const reader: TextReader = { read: () => Promise.resolve({ boxes: zone(calls++ === 0 ? misread : l2!), ms: { detect: 0, recognise: 0 } }) };
    const r = await readDocument(reader, blank);
    expect(calls).toBeGreaterThan(1);
    expect(r.mrz).toMatchObject({ nationality: l2!.slice(10, 13), unknownState: false });
  });

  it('is final when its state codes are codes: one read', async () => {
    let calls = 0;
    const reader: TextReader = { read: () => Promise.resolve({ boxes: zone(calls++ === 0 ? l2! : l2!.replace(/\d/, '0')), ms: { detect: 0, recognise: 0 } }) };
    const r = await readDocument(reader, blank);
    expect(calls).toBe(1);
    expect(r.mrz?.lines[1]).toBe(l2);
  });
});

describe('the read\'s time budget (issue 37: one zone had been retried for 29 s)', () => {
  const h: GenHolder = generateHolder(seeded(93));
  const [l1, l2] = generatedMrz(h, 'td3');
  // A zone whose date-of-birth check digit never holds, a digit misread another way on each
  // attempt: every retry is tried while there is time.
  const wrongDigits = [...'0123456789'].filter((d) => d !== l2![13]);
  const broken = (n: number) => `${l2!.slice(0, 13)}${wrongDigits[n % wrongDigits.length]}${l2!.slice(14)}`;
  const slowReader = (ms: number, count: { n: number }): TextReader => ({
    read: async () => {
      count.n++;
      await new Promise((r) => setTimeout(r, ms));
      return { boxes: [box(l1!, 20, 360, 600, 24), box(broken(count.n), 20, 400, 600, 24)], ms: { detect: 0, recognise: 0 } };
    },
  });

  it('stops once two attempts read the zone alike, clearly, with the same check digit failing: the zone says what it says', async () => {
    const count = { n: 0 };
    const same: TextReader = { read: () => {
      count.n++;
      return Promise.resolve({ boxes: [box(l1!, 20, 360, 600, 24), box(broken(0), 20, 400, 600, 24)], ms: { detect: 0, recognise: 0 } });
    } };
    const r = await readDocument(same, blank, { budgetMs: 60_000 });
    expect(count.n).toBe(2);
    expect(r.attempts).toContain('failed alike');
    expect(r.budgetSpent).toBeUndefined();
    expect(r.mrz?.checkDigits.find((c) => c.field === 'date_of_birth')?.valid).toBe(false);
    // Read alike but unsurely (more characters unsure than mrz_read_confidence allows): retried while there is time.
    const unsureCount = { n: 0 };
    const unsure: TextReader = { read: () => {
      unsureCount.n++;
      const line = { ...box(broken(0), 20, 400, 600, 24), probs: [...broken(0)].map((_, i) => (i < 8 ? 0.3 : 0.99)) };
      return Promise.resolve({ boxes: [box(l1!, 20, 360, 600, 24), line], ms: { detect: 0, recognise: 0 } });
    } };
    await readDocument(unsure, blank, { budgetMs: 60_000 });
    expect(unsureCount.n).toBeGreaterThan(2);
  });

  it('stops once two attempts read what the check digits cover alike, every digit holding after the same correction: the correction stays for review', async () => {
    // A number with a 0 the recogniser reads as O on every attempt: its check digit and the
    // composite prove the 0, on every reading.
    const holder: GenHolder = { ...generateHolder(seeded(95)), number: 'L0ZX12345' };
    const [z1, z2] = generatedMrz(holder, 'td3');
    const asRead = `L${'O'}${z2!.slice(2)}`;
    const count = { n: 0 };
    const reader: TextReader = { read: () => {
      count.n++;
      return Promise.resolve({ boxes: [box(z1!, 20, 360, 600, 24), box(asRead, 20, 400, 600, 24)], ms: { detect: 0, recognise: 0 } });
    } };
    const r = await readDocument(reader, blank, { budgetMs: 60_000 });
    expect(count.n).toBe(2);
    expect(r.attempts).toContain('held alike');
    expect(r.mrz).toMatchObject({ documentNumber: 'L0ZX12345', corrected: 1 });
    expect(r.mrz?.checkDigits.every((c) => c.valid)).toBe(true);
  });

  it('starts no retry once its time is up: the reading as it stands is answered, marked as having spent its budget', async () => {
    const unbounded = { n: 0 };
    const free = await readDocument(slowReader(1, unbounded), blank, { budgetMs: 60_000 });
    expect(free.budgetSpent).toBeUndefined();
    expect(unbounded.n).toBeGreaterThanOrEqual(3);
    const bounded = { n: 0 };
    const r = await readDocument(slowReader(40, bounded), blank, { budgetMs: 60 });
    expect(bounded.n).toBeLessThan(unbounded.n);
    expect(bounded.n).toBeLessThanOrEqual(2);
    expect(r.budgetSpent).toBe(true);
    expect(r.attempts.some((a) => a.startsWith('budget('))).toBe(true);
    expect(r.mrz?.checkDigits.some((c) => !c.valid)).toBe(true);
  });

  it('a settled reading is not marked, however long it took', async () => {
    const reader: TextReader = { read: async () => {
      await new Promise((r) => setTimeout(r, 30));
      return { boxes: [box(l1!, 20, 360, 600), box(l2!, 20, 400, 600)], ms: { detect: 0, recognise: 0 } };
    } };
    const r = await readDocument(reader, blank, { budgetMs: 1 });
    expect(r.budgetSpent).toBeUndefined();
    expect(r.mrz?.checkDigits.every((c) => c.valid)).toBe(true);
  });
});

describe('a zone photographed askew among other papers', () => {
  /** A box along a line from (x, y) at `degrees` (negative: rising to the right), `h` high. */
  const turned = (text: string, x: number, y: number, w: number, degrees: number, h = 20): TextBox => {
    const [dx, dy] = [Math.cos((degrees * Math.PI) / 180) * w, Math.sin((degrees * Math.PI) / 180) * w];
    return { text, probs: [...text].map(() => 0.99), box: [[x, y], [x + dx, y + dy], [x + dx, y + dy + h], [x, y + h]] };
  };
  // Two zone lines of a card turned -9° (a third was not read: no zone), and more lines of another
  // paper lying at +5° around it.
  const zone = [turned('I<DEUC01X00T478<<<<<<<<<<<<<<<', 40, 330, 420, -9), turned('6408125F3010312DEU<<<<<<<<<<<2', 40, 360, 420, -9)];
  const paper = [0, 1, 2, 3, 4].map((i) => turned('Lorem ipsum dolor sit amet, consectetur', 300, 40 + 30 * i, 300, 5));

  it('levels the picture by the zone\'s own lines, not by the median of every line', async () => {
    const r = await readDocument(readerOf([...paper, ...zone]), blank, { locate: false });
    expect(r.attempts, r.attempts.join(' ')).toContain('deskew-9.0:none');
  });

  it('cuts the zone from the picture whose reading saw more of it (the levelled one), not from the first', async () => {
    // The first reading saw one zone line's fillers; the levelled picture (larger: turned on a
    // larger canvas) shows both lines whole, across 560 px.
    const sizes: number[] = [];
    const reader: TextReader = {
      read: (img) => {
        sizes.push(img.width);
        const boxes = img.width === blank.width
          ? [...paper, turned('<<<<2', 400, 300, 60, -9)]
          : [box('I<DEUC01X00T478<<<<<<<<<<<<<<<', 40, 330, 560, 20), box('6408125F3010312DEU<<<<<<<<<<<2', 40, 360, 560, 20)];
        return Promise.resolve({ boxes, ms: { detect: 0, recognise: 0 } });
      },
    };
    const r = await readDocument(reader, blank, { locate: false });
    const zoneAt = r.attempts.findIndex((a) => a.startsWith('zone:'));
    expect(zoneAt).toBeGreaterThan(0);
    // The third text read is the zone's: cut around both levelled lines (560 px and a line's
    // height each side, enlarged), not around the 60 px of fillers the first reading saw.
    expect(sizes[2]).toBeGreaterThan(560);
  });
});

describe("print the picture's edge cuts through", () => {
  const h: GenHolder = { ...generateHolder(seeded(23)), surname: 'DOS SANTOS', given: 'ZBIGNIEW' };
  const withValue = (value: TextBox) => passport(h, 'DOS<SANTOS', [box('Surname / Nom', 380, 100, 160, 14), value]);

  it('is read as no printed field: a line the right edge cuts off is not located, where the whole of it is read', async () => {
    // The part of the name the picture kept, beside its label: its end runs past the right edge.
    const cut = await readDocument(readerOf(withValue(box('DOS SA', 560, 100, 90, 14))), blank);
    expect(cut.printed.surname).toBeUndefined();
    // The same print a margin inside the edge is the printed surname, read as it is.
    const whole = await readDocument(readerOf(withValue(box('DOS SA', 545, 100, 80, 14))), blank);
    expect(whole.printed.surname).toBe('DOS SA');
  });

  it('is read as no printed field at the top edge either: the foot of a line under it', async () => {
    const foot = await readDocument(readerOf(passport(h, 'DOS<SANTOS', [box('Name / Nom', 200, 2, 120, 14), box('USSA', 340, 3, 30, 9)])), blank);
    expect(foot.printed.surname).toBeUndefined();
  });
});

describe('names found on the page by their value, where no label was read', () => {
  it("are found as a label would have led to them: an accent the reader dropped (SØREN read as SOREN, the zone's SOEREN)", async () => {
    const h: GenHolder = { ...generateHolder(seeded(31)), surname: 'NG', given: 'SOEREN' };
    const r = await readDocument(readerOf(passport(h, 'NG', [box('NG', 200, 118, 40), box('SOREN', 200, 178, 90)])), blank);
    expect(r.printed).toMatchObject({ surname: 'NG', given_names: 'SOREN' });
  });

  it('are found where the issuer cut the name to fit a full zone field (MARIA DEL CONSUEL in the zone, MARIA DEL CONSUELO printed)', async () => {
    const h: GenHolder = { ...generateHolder(seeded(37)), surname: 'VANDERWESTHUIZENBERG', given: 'MARIA DEL CONSUELO' };
    const r = await readDocument(readerOf(passport(h, 'VANDERWESTHUIZENBERG', [box('VANDERWESTHUIZENBERG', 200, 118, 300), box('MARIA DEL CONSUELO', 200, 178, 280)])), blank);
    expect(r.mrz?.givenNames).toBe('MARIA DEL CONSUEL');
    expect(r.printed).toMatchObject({ surname: 'VANDERWESTHUIZENBERG', given_names: 'MARIA DEL CONSUELO' });
  });
});
