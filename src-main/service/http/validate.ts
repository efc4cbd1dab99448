// Request parsing with zod. Errors name fields and say what is wrong, never what was sent.
import type { Context } from 'hono';
import type { z } from 'zod';
import { AppError, type ErrorCode } from '../../../src-shared/errors';
import { fieldIssues, firstIssueMessage, MAX_JSON_DEPTH, nestedTooDeep } from '../../../src-shared/validation';

export { fieldIssues, MAX_JSON_DEPTH, nestedTooDeep };

export interface ParseOptions {
  /** Which error the table should use: the general 400 or the account-API shape. */
  error?: ErrorCode;
}

export function parseJsonText<S extends z.ZodType>(text: string, schema: S, opts: ParseOptions = {}): z.output<S> {
  const code = opts.error ?? 'invalid_parameters';
  if (nestedTooDeep(text)) {
    throw new AppError(code, {
      message: `Request body is nested more than ${MAX_JSON_DEPTH} levels deep`, fields: [{ field: 'body', issue: 'nested too deeply' }],
    });
  }
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

export function parseQuery<S extends z.ZodType>(c: Context, schema: S, opts: ParseOptions = {}): z.output<S> {
  return parseValue(c.req.query(), schema, opts);
}
