import { strToU8, zipSync } from 'fflate';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { UNPACKED_BYTES } from './limits';
import { dropHandedOver, importOfficialFile, runImporter } from './official';
import { checkOfficial } from './store';
import { ENHANCED_XML, ofacCsv } from './test-support';

const SDN_ROW = `7513,"MNANGAGWA, Emmerson Dambudzo","individual","GLOMAG",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 15 Sep 1946."`;

describe('importOfficialFile', () => {
  it("recognises OFAC's CSV set by file names", () => {
    const out = importOfficialFile('us_ofac_sdn', [
      { name: 'SDN.CSV', bytes: ofacCsv([SDN_ROW]) },
      { name: 'downloads/alt.csv', bytes: ofacCsv([`7513,1,"aka","MNANGAGWA, Emmerson",-0- `]) },
    ]);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.format).toBe('ofac-csv');
    expect(out.files.map((f) => f.role)).toEqual(['primary', 'alt']);
    expect(out.import.entities[0]?.names).toHaveLength(2);
  });

  it('accepts a single sdn.csv as bytes, and the Enhanced XML as ZIP', () => {
    expect(importOfficialFile('us_ofac_sdn', ofacCsv([SDN_ROW])).ok).toBe(true);
    const zip = zipSync({ 'CONS_ENHANCED.XML': strToU8(ENHANCED_XML) });
    const out = importOfficialFile('us_ofac_cons', [{ name: 'CONS_ENHANCED.ZIP', bytes: zip }]);
    expect(out.ok && out.format === 'ofac-enhanced-xml' && out.import.listDate === '2025-01-10').toBe(true);
  });

  it('reads an SDN Enhanced XML as the SDN list', () => {
    const sdnXml = ENHANCED_XML.replace('>Consolidated List</sanctionsList></sanctionsLists></filters>', '>SDN List</sanctionsList></sanctionsLists></filters>');
    const out = importOfficialFile('us_ofac_sdn', strToU8(sdnXml));
    expect(out.ok && out.import.entities[0]?.id === 'us_ofac_sdn:50476' && out.import.entities[0]?.sourceList === 'SDN').toBe(true);
    expect(importOfficialFile('us_ofac_cons', strToU8(sdnXml))).toMatchObject({ ok: false });
  });

  it('answers with a reason, not an exception, for a wrong or broken file', () => {
    const wrongList = importOfficialFile('us_ofac_sdn', zipSync({ 'CONS_ENHANCED.XML': strToU8(ENHANCED_XML) }));
    expect(wrongList).toEqual({ ok: false, reason: expect.stringMatching(/not the OFAC Specially Designated Nationals/) });
    expect(importOfficialFile('un_sc', strToU8('<sanctionsData/>'))).toMatchObject({ ok: false });
    expect(importOfficialFile('un_sc', strToU8('%PDF-1.7 ...'))).toMatchObject({ ok: false });
    expect(importOfficialFile('us_csl', strToU8('hello'))).toMatchObject({ ok: false });
    expect(importOfficialFile('us_csl', new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2]))).toMatchObject({ ok: false, reason: /gzip/ });
    expect(importOfficialFile('us_ofac_sdn', strToU8('not,a,list\n'))).toMatchObject({ ok: false, reason: /no records/ });
    expect(importOfficialFile('us_ofac_sdn', [{ name: 'notes.txt', bytes: strToU8('x') }, { name: 'sdn.csv', bytes: ofacCsv([SDN_ROW]) }])).toMatchObject({
      ok: false,
    });
    expect(importOfficialFile('us_ofac_cons', zipSync({ 'readme.txt': strToU8('x') }))).toMatchObject({ ok: false, reason: /no \.xml/ });
  });

  it('refuses a compressed file that unpacks past the limit, before unpacking it all', () => {
    // A ZIP whose entry states 300 MiB: refused on the stated size, nothing inflated.
    const zip = zipSync({ 'CONS_ENHANCED.XML': strToU8(ENHANCED_XML) });
    const central = Buffer.from(zip).indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    new DataView(zip.buffer, zip.byteOffset).setUint32(central + 24, 300 * 2 ** 20, true);
    expect(importOfficialFile('us_ofac_cons', [{ name: 'CONS_ENHANCED.ZIP', bytes: zip }])).toEqual({
      ok: false, reason: `the XML file in the ZIP is larger than ${UNPACKED_BYTES / 2 ** 20} MiB`,
    });
    // 260 gzip members of 1 MiB each: 260 KB that unpack to 260 MiB.
    const member = gzipSync(new Uint8Array(2 ** 20));
    const bomb = Buffer.concat(Array.from({ length: 260 }, () => member));
    expect(importOfficialFile('us_csl', bomb)).toEqual({ ok: false, reason: `the gzip file unpacks to more than ${UNPACKED_BYTES / 2 ** 20} MiB` });
  });
});

describe('an import handed over (ReadOptions.handOver): a file checked, then spliced in, is parsed once', () => {
  // Each case its own file: reads of the same files share what this process remembered.
  const sdn = (id: number) => ofacCsv([SDN_ROW.replace('7513', String(id))]);
  /** Nothing is handed over for `files` when two reads give the one import remembered. */
  const nothingHanded = (files: { primary: Uint8Array }) => runImporter('us_ofac_sdn', 'ofac-csv', files) === runImporter('us_ofac_sdn', 'ofac-csv', files);

  it('is the next read of the same files, once, and is not remembered after', () => {
    const files = { primary: sdn(9001) };
    const checked = runImporter('us_ofac_sdn', 'ofac-csv', files, { handOver: true });
    // A read of other files leaves it.
    runImporter('us_ofac_sdn', 'ofac-csv', { primary: sdn(9002) }, { remember: false });
    expect(runImporter('us_ofac_sdn', 'ofac-csv', { primary: Uint8Array.from(files.primary) }, { remember: false })).toBe(checked);
    expect(runImporter('us_ofac_sdn', 'ofac-csv', files, { remember: false })).not.toBe(checked);
    expect(nothingHanded(files)).toBe(true);
  });

  it('is let go of by dropHandedOver, and replaced by the next one handed over', () => {
    const files = { primary: sdn(9003) };
    const first = runImporter('us_ofac_sdn', 'ofac-csv', files, { handOver: true });
    dropHandedOver();
    expect(runImporter('us_ofac_sdn', 'ofac-csv', files, { remember: false })).not.toBe(first);
    runImporter('us_ofac_sdn', 'ofac-csv', files, { handOver: true });
    const other = { primary: sdn(9004) };
    runImporter('us_ofac_sdn', 'ofac-csv', other, { handOver: true });
    expect(nothingHanded(files)).toBe(true);
    expect(nothingHanded(other)).toBe(false);
  });

  it('is not kept for a file held for confirmation (it is read again when applied)', () => {
    const bytes = sdn(9005);
    // The edition in use has two records; the file removes one of them (50 %, more than 10 %).
    const current = runImporter('us_ofac_sdn', 'ofac-csv', { primary: ofacCsv([SDN_ROW, SDN_ROW.replace('7513', '9006').replace('MNANGAGWA', 'OTHER')]) }).entities;
    const check = checkOfficial('us_ofac_sdn', [{ name: 'sdn.csv', bytes }], () => current, { handOver: true });
    expect(check).toMatchObject({ ok: true, hold: expect.any(String) });
    expect(nothingHanded({ primary: bytes })).toBe(true);
    const kept = sdn(9007);
    expect(checkOfficial('us_ofac_sdn', [{ name: 'sdn.csv', bytes: kept }], () => null, { handOver: true })).toMatchObject({ ok: true, hold: null });
    expect(nothingHanded({ primary: kept })).toBe(false);
  });
});
