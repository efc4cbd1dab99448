// The evidence behind restoring MRZ name letters from the printed page (docs/documents.md, "Names"):
// how often the text reader drops letters from a name in the MRZ, how often it adds letters to the
// printed name, and how often the restoration (viz.ts repairableName) was right. Names full of the
// letters at risk (narrow I and L, doubled letters), TD3 and TD1, each specimen clean and degraded
// five ways (test/document-fixtures.ts). One plain reading per document, before the reader's
// retries, so the slips are seen as they come. Run: npx tsx scripts/measure-name-slips.ts
import sharp from 'sharp';
import { findMrz } from '../src-main/service/core/documents/mrz';
import { loadTextReader } from '../src-main/service/core/documents/ocr';
import { letters, readPrinted, repairableName } from '../src-main/service/core/documents/viz';
import { DEGRADATIONS, degrade, renderSpecimen, type DocKind, type Holder } from '../src-main/service/test/document-fixtures';

const NAMES: [string, string][] = [
  ['PHILLIPS', 'WILLIAM HENRY'], ['LLOYD', 'GILLIAN'], ['ILLINGWORTH', 'KIRILL'], ['COLLINS', 'ELLIOTT'], ['RUSSELL', 'EMMA'],
  ['HOLLAND', 'PHILIPPA'], ['LINDQVIST', 'INGRID SOFIA'], ['MACDONALD', 'SIOBHAN'], ['OCONNELL', 'NIAMH'], ['HALLORAN', 'BILLIE'],
  ['JOHANSSON', 'LILLI'], ['FITZGERALD', 'PATRICK'],
];
const KINDS: DocKind[] = ['td3', 'td1'];
/** MRZ lines are not printed fields (as reader.ts excludes them). */
const isMrzLike = (text: string) => (text.match(/[<«‹]/g)?.length ?? 0) >= 2 || text.replace(/\s/g, '').length >= 28;

async function main(): Promise<void> {
  const reader = await loadTextReader({ threads: 2 });
  const n = { documents: 0, zones: 0, parts: 0, mrzWrong: 0, mrzShort: 0, printedLocated: 0, printedWrong: 0, printedLonger: 0, restored: 0, restoredRight: 0 };
  for (const [i, [surname, given]] of NAMES.entries()) {
    for (const kind of KINDS) {
      for (const how of DEGRADATIONS) {
        const h: Holder = {
          surname, given, dob: `${1960 + i}-05-17`, sex: 'F', nationality: 'IRL', issuing: 'IRL', number: `PX${1000000 + i * 7919}`,
          expiry: '2031-04-15', issued: '2021-04-16', face: 'a',
        };
        const jpeg = await degrade(await renderSpecimen(h, { kind }), how, i + 1);
        const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
        const { boxes } = await reader.read({ rgb: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height }, 960);
        const printed = readPrinted(boxes, (b) => isMrzLike(b.text));
        const m = findMrz(boxes, printed.document_number);
        n.documents++;
        if (!m) continue;
        n.zones++;
        for (const [truth, mrz, page] of [[surname, m.surname, printed.surname], [given, m.givenNames, printed.given_names]] as const) {
          n.parts++;
          if (letters(mrz) !== letters(truth)) n.mrzWrong++;
          if (letters(mrz).length < letters(truth).length) n.mrzShort++;
          if (page !== undefined) {
            n.printedLocated++;
            if (letters(page) !== letters(truth)) n.printedWrong++;
            if (letters(page).length > letters(truth).length) n.printedLonger++;
          }
          const restored = repairableName(mrz, page);
          if (restored !== null) {
            n.restored++;
            if (letters(restored) === letters(truth)) n.restoredRight++;
          }
        }
      }
    }
  }
  console.log(`documents ${n.documents}, zones read ${n.zones}, name parts ${n.parts}`);
  console.log(`MRZ name part wrong ${n.mrzWrong} (shorter than the name: ${n.mrzShort})`);
  console.log(`printed name part located ${n.printedLocated}, wrong ${n.printedWrong}, longer than the name ${n.printedLonger}`);
  console.log(`restoration taken ${n.restored}, right ${n.restoredRight}`);
  process.exit(0);
}

void main();
