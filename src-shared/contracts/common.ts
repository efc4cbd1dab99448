// Small answers many routes share.
import { z } from 'zod';

/** A plain acknowledgement: `{ message }`. */
export const Message = z.object({ message: z.string() });
export type Message = z.infer<typeof Message>;
