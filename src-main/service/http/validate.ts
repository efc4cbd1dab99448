// Request parsing with zod. Errors name fields and say what is wrong, never what was sent.
import type { Context } from 'hono';
import type { z } from 'zod';
import { AppError, type ErrorCode } from '../../../src-shared/errors';
import { fieldIssues, firstIssueMessage } from '../../../src-shared/validation';

export { fieldIssues };

export interface ParseOptions {
  /** Which error the table should use: the general 400 or the account-API shape. */
  error?: ErrorCode;
}

/**
 * How deep a request's JSON may nest. Every contract is a few levels deep; a body nested thousands
 * deep is an attack on the parser and the validators (recursion), so it is refused before parsing.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether `text` opens more than `max` arrays/objects at once (strings skipped); linear, no parse. */
export function nestedTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) {
      inString = true;
    } else if (ch === 0x7b || ch === 0x5b) {
      if (++depth > max) return true;
    } else if (ch === 0x7d || ch === 0x5d) {
      depth--;
    }
  }
  return false;
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
