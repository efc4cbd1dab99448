// Size limits and fields of the requests that carry pictures.
import { bytesOfBase64, IMAGE_JSON_BYTES, IMAGE_MAX_BYTES, imageError } from '../core/media/image';

/** The multipart body: the file (at most 10 MB) and form overhead; past this, 413 while it streams. */
export const UPLOAD_MAX_BYTES = IMAGE_MAX_BYTES + 2 * 1024 * 1024;

/** A JSON body with a selfie and the front and back of a document. */
export const THREE_IMAGES_JSON = 3 * IMAGE_JSON_BYTES;

/** The `file` field of a multipart form: a file, or base64 text; refused by name when absent. */
export async function fileOf(form: FormData, field = 'file'): Promise<Uint8Array> {
  const file = form.get(field);
  if (file === null) throw imageError(field, 'missing');
  if (typeof file === 'string') return bytesOfBase64(field, file);
  return new Uint8Array(await file.arrayBuffer());
}
