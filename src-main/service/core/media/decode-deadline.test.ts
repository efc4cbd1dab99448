// A decode has a deadline (issue 25): the decoder is told it (sharp's timeout), and a decode that
// runs past it is refused as `too_slow`, not taken for a corrupt file. How long a hostile file
// takes is the machine's business, so the decoder's own refusal is stood in for here.
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as fx from '../../test/face-fixtures';
import { DECODE_DEADLINE_SECONDS, decodeImage } from './image';

afterEach(() => vi.restoreAllMocks());

describe('the decode deadline', () => {
  it('every decode is given the deadline', async () => {
    const timeout = vi.spyOn(sharp.prototype, 'timeout');
    await decodeImage('file', await fx.selfie('a'));
    expect(timeout).toHaveBeenCalledWith({ seconds: DECODE_DEADLINE_SECONDS });
  });

  it('a decode the decoder stopped at its deadline is 400 INVALID_IMAGE too_slow, naming the field', async () => {
    vi.spyOn(sharp.prototype, 'toBuffer').mockRejectedValueOnce(new Error('timeout: 37% complete'));
    await expect(decodeImage('image_selfie_b64', await fx.selfie('a'))).rejects.toMatchObject({
      code: 'invalid_image', message: 'image_selfie_b64 took too long to decode', details: { fields: [{ field: 'image_selfie_b64', issue: 'too_slow' }] },
    });
  });
});
