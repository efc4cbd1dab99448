// Behaviour on small inline fixtures; the same importer on the real shipped file is tested in
// shipped-lists.test.ts (one import of each file per run).
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { FormatError } from './common';
import { importOfacEnhancedXml } from './ofac-enhanced-xml';
import { ENHANCED_XML as XML } from './test-support';


describe('importOfacEnhancedXml on a small file', () => {
  it('reads names with scripts and quality, features, documents and the list date, from XML or ZIP', () => {
    for (const bytes of [strToU8(XML), zipSync({ 'CONS_ENHANCED.XML': strToU8(XML) })]) {
      const imp = importOfacEnhancedXml(bytes);
      expect(imp.source).toBe('us_ofac_cons');
      expect(imp.listDate).toBe('2025-01-10');
      expect(imp.entities).toHaveLength(1);
      expect(imp.entities[0]).toMatchObject({
        id: 'us_ofac_cons:50476',
        sourceList: 'NS-MBS',
        schema: 'person',
        gender: 'male',
        names: [
          { name: 'MARTELLY, Michel Joseph', kind: 'primary', quality: 'strong' },
          { name: 'МАРТЕЛЛИ, Мишель', kind: 'aka', quality: 'strong' },
          { name: 'Sweet Micky', kind: 'aka', quality: 'weak' },
          { name: 'MARTELLY, Mike', kind: 'fka', quality: 'strong' },
        ],
        dobs: ['1958', '1959', '1961-02-12'],
        countries: ['HT', 'US'],
        ids: [
          { type: 'SWIFT/BIC', number: 'ABCDHT22' },
          { type: 'National ID No.', number: '0032768386', country: 'HT' },
        ],
        programs: ['ILLICIT-DRUGS-EO14059'],
      });
    }
  });

  it('refuses other XML and unreadable ZIPs', () => {
    expect(() => importOfacEnhancedXml(strToU8('<CONSOLIDATED_LIST/>'))).toThrow(FormatError);
    expect(() => importOfacEnhancedXml(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))).toThrow(FormatError);
  });
});
