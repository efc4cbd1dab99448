// The generator's zones are what ICAO says they are: an independent parser (the `mrz` package)
// accepts every check digit, over many seeded holders of every format, and the expected answer is
// the zone's own name (truncated where the zone truncates it).
import { parse } from 'mrz';
import { describe, expect, it } from 'vitest';
import { expectedData, forge, generatedMrz, generateHolder, mrzNameOf, seeded } from './document-generator';

describe('document generator', () => {
  it('writes zones whose every check digit an independent parser accepts', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const h = generateHolder(seeded(seed));
      for (const kind of ['td3', 'td2', 'td1'] as const) {
        const lines = generatedMrz(h, kind);
        expect(lines.map((l) => l.length)).toEqual(kind === 'td1' ? [30, 30, 30] : kind === 'td2' ? [36, 36] : [44, 44]);
        const r = parse(lines);
        const bad = r.details.filter((d) => !d.valid && !/state code|nationality|issuing/i.test(`${d.field} ${d.error}`));
        expect(bad, `${kind} seed ${seed}: ${lines.join(' / ')}`).toEqual([]);
        expect(r.fields.documentNumber).toBe(h.number);
      }
    }
  });

  it('forges as an amateur does: one field edited in the zone, its own check digit failing (and the composite), the rest holding', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const h = generateHolder(seeded(seed));
      for (const kind of ['td3', 'td2', 'td1'] as const) {
        const f = forge(h, seeded(seed + 7), kind);
        const r = parse(generatedMrz(f, kind));
        const failing = r.details.filter((d) => !d.valid && /check digit/i.test(d.label)).map((d) => d.field);
        const edited = f.dob !== h.dob ? 'birthDateCheckDigit' : f.expiry !== h.expiry ? 'expirationDateCheckDigit' : 'documentNumberCheckDigit';
        expect(failing, `${kind} seed ${seed}`).toContain(edited);
        expect(failing.every((x) => x === edited || x === 'compositeCheckDigit'), `${kind} seed ${seed}: ${failing.join()}`).toBe(true);
        // The zone and the page say the edited value.
        expect(expectedData(f, kind).date_of_birth).toBe(expectedData({ ...h, dob: f.dob }, kind).date_of_birth);
      }
    }
  });

  it('transliterates names as ICAO does and expects the truncated name the zone holds', () => {
    expect(mrzNameOf("O'Sullivan-Quigley")).toBe('OSULLIVAN<QUIGLEY');
    expect(mrzNameOf('Öztürk')).toBe('OEZTUERK');
    expect(mrzNameOf('Nowak-Głowacka')).toBe('NOWAK<GLOWACKA');
    const long = { ...generateHolder(seeded(3)), surname: 'DOS SANTOS OLIVEIRA COUTINHO', given: 'MARIA DEL CONSUELO GUADALUPE' };
    const e = expectedData(long, 'td1');
    expect(e.name).toBe('M DOS SANTOS OLIVEIRA COUTINH');
    expect(expectedData(long, 'td3').name).toBe('MARIA DEL DOS SANTOS OLIVEIRA COUTINHO');
    expect(e.nameAlternatives).toEqual(['MARIA DEL CONSUELO GUADALUPE DOS SANTOS OLIVEIRA COUTINHO']);
  });
});
