// Settings → App schemes without a DOM: what was typed as a list of schemes, and the first refused
// one in words. The issues are the shared contract's (the same the service answers with).
import { APP_SCHEMES_MAX, UpdateAppSchemesRequest } from '../../../../src-shared/contracts/organization';
import type { FieldIssue } from '../../../../src-shared/errors';
import { fieldIssues } from '../../../../src-shared/validation';

/** What was typed, as schemes: separated by commas or spaces, a trailing `:` or `://` taken off. */
export const schemesOf = (text: string): string[] =>
  text.split(/[\s,]+/).map((s) => s.replace(/:(\/\/)?$/, '')).filter((s) => s.length > 0);

const ISSUE: Record<string, string> = {
  forbidden_scheme: 'is not allowed for a redirect: it runs content, or opens the browser’s or the system’s own handlers',
  'invalid format': 'is not a scheme in lower case (a letter, then letters, digits, +, - or .)',
  'too short': 'is too short (two characters or more)',
  'too long': 'is too long (64 characters at most)',
};

/** The first refused scheme in words, from the contract's issues or the service's 400. */
export function refusalText(schemes: readonly string[], issues: readonly FieldIssue[]): string {
  const first = issues[0];
  if (!first) return 'Check the schemes.';
  if (first.issue === 'duplicate') return 'Give each scheme once.';
  if (first.issue === 'too many items') return `Register at most ${APP_SCHEMES_MAX} schemes.`;
  const at = /^app_schemes\.(\d+)$/.exec(first.field);
  const name = at ? schemes[Number(at[1])] : undefined;
  return `${name ? `“${name}”` : 'A scheme'} ${ISSUE[first.issue] ?? first.issue}.`;
}

/** The typed text checked by the contract: the request to send, or why not. */
export function checkSchemes(text: string): { ok: true; body: UpdateAppSchemesRequest } | { ok: false; schemes: string[]; error: string } {
  const schemes = schemesOf(text);
  const parsed = UpdateAppSchemesRequest.safeParse({ app_schemes: schemes });
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, schemes, error: refusalText(schemes, fieldIssues(parsed.error)) };
}
