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
    default:
      return 'invalid';
  }
}

export function fieldIssues(error: z.ZodError): FieldIssue[] {
  const out: FieldIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) out.push({ field: [...issue.path, k].join('.'), issue: 'unknown field' });
      continue;
    }
    out.push({ field: issue.path.join('.') || 'body', issue: issueText(issue) });
  }
  return out;
}


/** One line naming the first failing field, the text every validation error message uses. */
export function firstIssueMessage(error: z.ZodError): string {
  const f = fieldIssues(error)[0];
  return f ? `Invalid field '${f.field}': ${f.issue}` : 'Invalid request';
}
