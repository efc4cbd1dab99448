// Request parsing with zod. Errors name fields and say what is wrong, never what was sent.
import type { Context } from 'hono';
import type { z } from 'zod';
import { AppError, type ErrorCode } from '../../../src-shared/errors';
import { fieldIssues, firstIssueMessage } from '../../../src-shared/validation';

export { fieldIssues };

export const JSON_LIMIT = 1024 * 1024;

export interface ParseOptions {
  /** Which error the table should use: the general 400 or the account-API shape. */
  error?: ErrorCode;
  maxBytes?: number;
}

export async function readBody(c: Context, maxBytes = JSON_LIMIT): Promise<string> {
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > maxBytes) throw new AppError('payload_too_large');
  const text = await c.req.text();
  if (Buffer.byteLength(text) > maxBytes) throw new AppError('payload_too_large');
  return text;
}

/** A raw upload (list files): bounded, read whole. */
export async function readBytes(c: Context, maxBytes: number): Promise<ArrayBuffer> {
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > maxBytes) throw new AppError('payload_too_large');
  const buf = await c.req.arrayBuffer();
  if (buf.byteLength > maxBytes) throw new AppError('payload_too_large');
  return buf;
}

export function parseJsonText<S extends z.ZodType>(text: string, schema: S, opts: ParseOptions = {}): z.output<S> {
  const code = opts.error ?? 'invalid_parameters';
  let data: unknown;
  try {
    data = text.length === 0 ? {} : JSON.parse(text);
  } catch {
    throw new AppError(code, { message: 'Request body is not valid JSON', fields: [{ field: 'body', issue: 'invalid JSON' }] });
  }
  return parseValue(data, schema, opts);
}

export function parseValue<S extends z.ZodType>(data: unknown, schema: S, opts: ParseOptions = {}): z.output<S> {
  const code = opts.error ?? 'invalid_parameters';
  const r = schema.safeParse(data);
  if (!r.success) {
    const fields = fieldIssues(r.error);
    const first = fields[0];
    throw new AppError(code, {
      message: firstIssueMessage(r.error),
      fields,
      field: first?.field,
    });
  }
  return r.data;
}

export async function parseJson<S extends z.ZodType>(c: Context, schema: S, opts: ParseOptions = {}): Promise<z.output<S>> {
  return parseJsonText(await readBody(c, opts.maxBytes), schema, opts);
}

export function parseQuery<S extends z.ZodType>(c: Context, schema: S, opts: ParseOptions = {}): z.output<S> {
  return parseValue(c.req.query(), schema, opts);
}
