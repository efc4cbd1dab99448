// Dev/test only: holds every answer of a route to the schema its registry entry declares for the
// status (errors: the shared error bodies), so a response drifting from the contract fails
// loudly in the route tests instead of surprising the console. Never mounted in production.
import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { ErrorBody } from '../../../src-shared/errors';
import type { AppEnv, BodySpec, ContentBody, RouteEntry } from './types';

export interface Drift {
  method: string;
  path: string;
  status: number;
  problem: string;
  issues: string[];
}
export type DriftHandler = (drift: Drift) => void;

export function isContentBody(spec: BodySpec): spec is ContentBody {
  return typeof (spec as Partial<ContentBody>).contentType === 'string';
}

function issuesOf(error: z.ZodError): string[] {
  return error.issues.slice(0, 10).map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
}

/** Keys the schema does not declare (zod strips them silently): each one is drift too. */
export function undeclaredKeys(sent: unknown, parsed: unknown, path = ''): string[] {
  if (Array.isArray(sent) && Array.isArray(parsed)) {
    return sent.flatMap((v, i) => undeclaredKeys(v, parsed[i], `${path}[${i}]`));
  }
  if (sent && typeof sent === 'object' && parsed && typeof parsed === 'object' && !Array.isArray(sent)) {
    const out: string[] = [];
    for (const [k, v] of Object.entries(sent)) {
      const at = path ? `${path}.${k}` : k;
      if (!(k in parsed)) out.push(`${at}: not in the schema`);
      else out.push(...undeclaredKeys(v, (parsed as Record<string, unknown>)[k], at));
    }
    return out;
  }
  return [];
}

function check(schema: z.ZodType, data: unknown): string[] {
  const r = schema.safeParse(data);
  if (!r.success) return issuesOf(r.error);
  return undeclaredKeys(data, r.data);
}

/**
 * NDJSON: each line against the line schema; a bad line ends the stream with an error. Each chunk
 * is read from the body as the client asks for it, never ahead (a queue of none), so the stream it
 * checks is paced as without it: a batch charges a slice when it is asked for (routes/batch.ts).
 */
function lineChecked(body: ReadableStream<Uint8Array>, schema: z.ZodType, report: (problem: string, issues: string[]) => void): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let rest = '';
  /** The drift in these complete lines, if any (`rest` keeps an unfinished last line). */
  const drift = (text: string): string | null => {
    const parts = text.split('\n');
    rest = parts.pop() ?? '';
    for (const line of parts) {
      if (line.trim() === '') continue;
      let data: unknown;
      try {
        data = JSON.parse(line);
      } catch {
        report('an NDJSON line is not JSON', []);
        return 'an NDJSON line is not JSON';
      }
      const issues = check(schema, data);
      if (issues.length > 0) {
        report('an NDJSON line does not match its schema', issues);
        return issues.join('; ');
      }
    }
    return null;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      const problem = done ? drift(rest + decoder.decode() + '\n') : drift(rest + decoder.decode(value, { stream: true }));
      if (!done) controller.enqueue(value);
      if (problem) controller.error(new Error(`Response drift: ${problem}`));
      else if (done) controller.close();
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

export function responseCheck(route: Pick<RouteEntry, 'method' | 'path' | 'responses'>, onDrift: DriftHandler): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const res = c.res;
    const status = res.status;
    const declared = route.responses[status];
    const type = res.headers.get('content-type') ?? '';
    const report = (problem: string, issues: string[]) => onDrift({ method: route.method, path: route.path, status, problem, issues });
    const fail = (problem: string, issues: string[] = []) => {
      report(problem, issues);
      c.res = undefined;
      c.res = new Response(JSON.stringify({ error: 'Response drift', method: route.method, path: route.path, status, problem, issues }), {
        status: 500, headers: { 'Content-Type': 'application/json' },
      });
    };
    if (!declared && status < 400) return fail(`status ${status} is not declared`);
    if (declared && isContentBody(declared)) {
      // A download may come as one of several media types (an export's PDF or CSV): `accept` lists the others.
      const types = [declared.contentType, ...(declared.accept ?? [])];
      if (!types.some((t) => type.startsWith(t))) return fail(`content type '${type}', declared '${types.join("' or '")}'`);
      if (declared.schema && declared.contentType === 'application/x-ndjson' && res.body) {
        c.res = new Response(lineChecked(res.body, declared.schema, report), res);
      }
      return;
    }
    if (!type.startsWith('application/json')) return fail(`content type '${type}', declared JSON`);
    // Read once and answer a fresh Response with the same bytes: a tee'd clone (res.clone()) can
    // leave the original body cancelled when the clone is collected (Node 20's undici), which
    // surfaced as "Body is unusable" on a busy CI runner.
    const text = await res.text();
    c.res = undefined;
    c.res = new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return fail('the body is not JSON');
    }
    const issues = check(declared ?? ErrorBody, data);
    // A declared error status (the user-list report's 400) may also answer an ordinary error body.
    if (issues.length > 0 && declared && status >= 400 && check(ErrorBody, data).length === 0) return;
    if (issues.length > 0) fail(declared ? 'the body does not match the declared schema' : 'the error body is none of the error shapes', issues);
  };
}
