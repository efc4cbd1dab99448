// Identity from a phone photo of an ID document: a generated passport lying on a desk, photographed
// turned by 12° and at a slant. The reader finds the page, flattens it and reads every field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdentityResult } from '../../../../src-shared/contracts/documents';
import { closeAll, testService, type TestService } from '../harness';
import { expectedData, generateHolder, photograph, renderPage, seeded, type GenHolder } from '../document-generator';
import * as fx from '../face-fixtures';

afterAll(closeAll);

let t: TestService;
let key: { id: string; api_key: string; secret: string };
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  key = await t.key({ scopes: ['identity'] });
  await t.grant(100);
}, 60_000);

describe('POST /api/identity/v1/submit with a phone photo of the document', () => {
  it('reads every field of a passport photographed on a desk, turned 12° and at a slant', async () => {
    // A holder whose name and codes hold the letters a reader confuses with digits (O, I, S, B, Z).
    const holder: GenHolder = {
      ...generateHolder(seeded(4244)), surname: "O'CONNOR", given: 'SIOBHAN', nationality: 'POL', issuing: 'POL', face: 'b', number: 'ZB4010S27',
    };
    const page = await renderPage('td3-trilingual', holder, 4244, 13);
    // Read as it came (without finding the page first), this photo's surname comes back OOZNOR.
    const shot = await photograph(page, 4244, { rotation: 12, tilt: 0.14, desk: 'wood', glare: false, blur: 'defocus' });
    const { status, body } = await t.json<IdentityResult & Record<string, unknown>>('POST', '/api/identity/v1/submit', {
      key: key.api_key,
      body: { selfie_b64: (await fx.selfie('b')).toString('base64'), id_front_b64: shot.bytes.toString('base64') },
    });
    expect(status).toBe(200);
    const want = expectedData(holder, 'td3');
    expect(body.document_data).toMatchObject({
      name: want.name, date_of_birth: want.date_of_birth, document_type: 'passport', document_number: want.document_number,
      expiry_date: want.expiry_date, issuing_country: 'POL',
    });
    expect(want.name).toBe('SIOBHAN OCONNOR');
    // Nationality and sex, where the answer carries them.
    const data = body.document_data as Record<string, unknown>;
    if ('nationality' in data) expect(data.nationality).toBe('POL');
    if ('sex' in data) expect(String(data.sex).charAt(0).toUpperCase()).toBe(holder.sex);
    expect(body.mrz?.check_digits.every((c) => c.valid)).toBe(true);
  }, 120_000);
});
