// Zod issues as field names and short descriptions, never values: used wherever a request is
// validated (HTTP routes, batch rows, CLI streams) so no error ever echoes what was sent.
import type { z } from 'zod';
import type { FieldIssue } from './errors';

function issueText(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'required' : `expected ${issue.expected}`;
    case 'too_small':
      return issue.origin === 'string' ? 'too short' : issue.origin === 'array' ? 'too few items' : 'too small';
    case 'too_big':
      return issue.origin === 'string' ? 'too long' : issue.origin === 'array' ? 'too many items' : 'too large';
    case 'invalid_format':
      return 'invalid format';
    case 'invalid_value':
      return 'not an allowed value';
    case 'unrecognized_keys':
      return 'unknown field';
    case 'custom':
      // A contract's own rule may name its issue (`params: { issue }`), as the services' checks do.
      return typeof issue.params?.issue === 'string' ? issue.params.issue : 'invalid';
    default:
      return 'invalid';
  }
}

/**
 * The contracts' field names: lower-case ASCII words joined by underscores. A path segment that is
 * not one (or sits inside a free-form map such as `metadata`) is a key the client chose, which may
 * itself be subject data (`metadata["Jane Roe 1980-01-02"]`): it is shown as `*`, never echoed.
 */
const FIELD_NAME = /^[a-z][a-z0-9_]{0,39}$/;
const FREE_FORM_MAPS = new Set(['metadata']);

function fieldPath(path: readonly PropertyKey[]): string {
  const out: string[] = [];
  for (const [i, seg] of path.entries()) {
    const inMap = i > 0 && FREE_FORM_MAPS.has(String(path[i - 1]));
    out.push(typeof seg === 'number' ? String(seg) : !inMap && typeof seg === 'string' && FIELD_NAME.test(seg) ? seg : '*');
  }
  return out.join('.');
}

export function fieldIssues(error: z.ZodError): FieldIssue[] {
  const out: FieldIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) out.push({ field: fieldPath([...issue.path, k]), issue: 'unknown field' });
      continue;
    }
    out.push({ field: fieldPath(issue.path) || 'body', issue: issueText(issue) });
  }
  return out;
}

/** One line naming the first failing field, the text every validation error message uses. */
export function firstIssueMessage(error: z.ZodError): string {
  const f = fieldIssues(error)[0];
  return f ? `Invalid field '${f.field}': ${f.issue}` : 'Invalid request';
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
