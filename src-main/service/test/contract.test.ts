// One contract, one rule, one place: every route exists only through the registry (with its
// schemas and guard steps), answers are held to their schemas, the plan rule and the billing
// path each live in one function, and errors have their own codes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PLANS, PRODUCTS } from '../../../src-shared/catalog';
import { planAllows } from '../../../src-shared/policy';
import { BatchLine } from '../../../src-shared/contracts/batch';
import { ErrorBody, errorResponse } from '../../../src-shared/errors';
import type { Router } from '../http/router';
import { closeAll, drifts, testService } from './harness';

afterAll(closeAll);

const HTTP_DIR = join(import.meta.dirname, '..', 'http');
const SERVICE_DIR = join(import.meta.dirname, '..');

function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.startsWith('test'))
    .map((f) => ({ path: f, text: readFileSync(join(dir, f), 'utf8') }));
}

describe('the route registry', () => {
  it('every API route Hono knows is in the route table, and every table entry is mounted', async () => {
    const t = await testService();
    const table = new Set(t.routes.map((r) => `${r.method} ${r.path}`));
    const mounted = new Set(
      t.app.routes
        // The hosted page's HTML and assets are static files served outside the registry (static.ts), like the console.
        .filter((r) => (r.path.startsWith('/api/') || r.path.startsWith('/hosted/')) && r.path !== '/api/*' && r.method !== 'ALL')
        .filter((r) => !['/hosted/v/:token', '/hosted/f/:slug', '/hosted/assets/*', '/hosted/*'].includes(r.path))
        .map((r) => `${r.method} ${r.path}`),
    );
    expect(mounted.size).toBeGreaterThanOrEqual(38);
    expect([...mounted].filter((r) => !table.has(r))).toEqual([]);
    expect([...table].filter((r) => !mounted.has(r))).toEqual([]);
  });

  it('route modules get the services and the registry, never the Hono app; extra routes go through the same registry', async () => {
    let seen: string[] = [];
    const extra = (r: Router) => {
      seen = Object.keys(r).sort();
      r.route({
        method: 'GET', path: '/api/probe/extra', auth: { kind: 'session' }, summary: 'probe',
        responses: { 200: z.object({ ok: z.boolean() }) }, handler: (c) => c.json({ ok: true }),
      });
    };
    const t = await testService({ extraRoutes: [extra] });
    expect(seen).toEqual(['route', 'services', 'table']);
    expect(t.routes.map((r) => r.path)).toContain('/api/probe/extra');
    expect(t.app.routes.some((r) => r.path === '/api/probe/extra')).toBe(true);
    const doc = (await t.json<{ paths: Record<string, unknown> }>('GET', '/api/openapi.json')).body;
    expect(doc.paths['/api/probe/extra']).toBeDefined();
  });

  it('handlers read the query and JSON body only through their entry\'s declared schemas', () => {
    const own = sources(join(HTTP_DIR, 'routes')).filter((f) => /\b(parseJson|parseJsonText|parseQuery|parseValue)\s*\(/.test(f.text));
    expect(own.map((f) => f.path)).toEqual([]);
  });

  it('handlers read bodies only through their entry (bounded, media type checked), never from the raw request', () => {
    const raw = sources(join(HTTP_DIR, 'routes')).filter((f) => /\bc\.req\.(text|json|arrayBuffer|blob|formData|parseBody)\s*\(|\.raw\.body\b/.test(f.text));
    expect(raw.map((f) => f.path)).toEqual([]);
  });

  it('a request failing its declared schema gets the entry\'s error shape', async () => {
    const t = await testService();
    const cookie = await t.login();
    const bad = await t.json('POST', '/api/auth/login', { body: { email: 'not-an-email' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: expect.any(String), field: 'email' });
    const key = await t.key();
    const subject = await t.json('POST', '/api/compliance/v1/screen', { key: key.api_key, body: { subject: { type: 'company' } } });
    expect(subject.status).toBe(400);
    expect(subject.body).toMatchObject({ error: { type: 'invalid_request', code: 'invalid_subject' } });
    const env = await t.json('POST', '/api/console/screen?env=staging', { cookie, body: {} });
    expect(env.status).toBe(400);
    expect(env.body).toMatchObject({ field: 'env' });
  });

  it('refuses a route registered twice', async () => {
    const twice = (r: Router) => {
      for (let i = 0; i < 2; i++) {
        r.route({ method: 'GET', path: '/api/probe/twice', auth: { kind: 'public' }, summary: 'probe', responses: {}, handler: (c) => c.json({}) });
      }
    };
    await expect(testService({ extraRoutes: [twice] })).rejects.toThrow(/registered twice/);
  });

  it('composes the guard from the auth spec as named steps', async () => {
    const t = await testService();
    const steps = (method: string, path: string) => t.routes.find((r) => r.method === method && r.path === path)?.steps;
    expect(steps('POST', '/api/compliance/v1/screen')).toEqual(['authenticate', 'rate-limit', 'plan', 'touch-key']);
    expect(steps('POST', '/api/v1/verify-age/init')).toEqual(['authenticate', 'rate-limit', 'plan', 'trial', 'touch-key']);
    expect(steps('GET', '/api/status/:verification_id')).toEqual(['authenticate', 'rate-limit', 'touch-key']);
    expect(steps('POST', '/api/console/screen')).toEqual(['authenticate', 'plan']);
    expect(steps('POST', '/api/console/batches/:id/rows')).toEqual(['authenticate', 'plan']);
    expect(steps('GET', '/api/health')).toEqual(['rate-limit']);
    expect(steps('GET', '/api/setup')).toEqual([]);
  });
});

describe('answers are held to their schemas (test harness)', () => {
  it('a JSON answer that drifts from its schema becomes a 500 naming the drift', async () => {
    const drifting = (r: Router) => {
      r.route({
        method: 'GET', path: '/api/probe/drift', auth: { kind: 'public' }, summary: 'probe',
        responses: { 200: z.object({ n: z.number() }) },
        handler: (c) => c.json({ n: 1, extra: 'not in the schema' }),
      });
      r.route({
        method: 'GET', path: '/api/probe/wrong-type', auth: { kind: 'public' }, summary: 'probe',
        responses: { 200: z.object({ n: z.number() }) },
        handler: (c) => c.json({ n: 'one' }),
      });
      r.route({
        method: 'GET', path: '/api/probe/undeclared', auth: { kind: 'public' }, summary: 'probe',
        responses: { 200: z.object({ n: z.number() }) },
        handler: (c) => c.json({ n: 1 }, 201),
      });
    };
    const t = await testService({ extraRoutes: [drifting] });
    for (const path of ['/api/probe/drift', '/api/probe/wrong-type', '/api/probe/undeclared']) {
      const { status, body } = await t.json<{ error: string; problem: string }>('GET', path);
      expect(status, path).toBe(500);
      expect(body.error).toBe('Response drift');
    }
    const found = drifts.splice(0);
    expect(found.map((d) => d.path)).toEqual(['/api/probe/drift', '/api/probe/wrong-type', '/api/probe/undeclared']);
    expect(found[0]!.issues.join()).toMatch(/extra: not in the schema/);
  });

  it('an error body that is none of the spec\'s shapes is drift too; the shared shapes pass', async () => {
    const t = await testService();
    expect((await t.json('GET', '/api/keys')).status).toBe(401);
    expect((await t.json('POST', '/api/compliance/v1/screen', { body: {} })).status).toBe(401);
    expect(drifts).toEqual([]);
    const bad = (r: Router) => {
      r.route({
        method: 'GET', path: '/api/probe/bad-error', auth: { kind: 'public' }, summary: 'probe', responses: {},
        handler: (c) => c.json({ message: 'not an error shape' }, 404),
      });
    };
    const u = await testService({ extraRoutes: [bad] });
    expect((await u.json('GET', '/api/probe/bad-error')).status).toBe(500);
    expect(drifts.splice(0).map((d) => d.problem)).toEqual(['the error body is none of the error shapes']);
  });

  it('an NDJSON line that drifts from the line schema breaks the stream', async () => {
    const lines = (r: Router) => {
      r.route({
        method: 'GET', path: '/api/probe/ndjson', auth: { kind: 'public' }, summary: 'probe',
        responses: { 200: { contentType: 'application/x-ndjson', description: 'lines', schema: BatchLine } },
        handler: (c) => c.body('{"done":true,"processed":1,"errors":0,"credits_charged":0,"state":"open"}\n{"done":true,"oops":1}\n', 200, {
          'Content-Type': 'application/x-ndjson',
        }),
      });
    };
    const t = await testService({ extraRoutes: [lines] });
    const res = await t.call('GET', '/api/probe/ndjson');
    await expect(res.text()).rejects.toThrow(/Response drift/);
    expect(drifts.splice(0).map((d) => d.problem)).toEqual(['an NDJSON line does not match its schema']);
  });
});

describe('one rule, one place', () => {
  it('the compliance plan rule: Pro and Enterprise only, and nowhere but policy.planAllows', () => {
    for (const plan of PLANS) {
      for (const product of PRODUCTS) {
        const refused = planAllows(plan, product);
        expect(refused === null, `${plan} ${product}`).toBe(product !== 'compliance' || plan === 'pro' || plan === 'enterprise');
        if (refused) expect(refused.code).toBe('plan_restriction');
      }
    }
    const elsewhere = sources(SERVICE_DIR).filter((f) => /PLAN_INFO\[[^\]]+\]\.compliance|\.compliance\s*\)\s*throw/.test(f.text));
    expect(elsewhere.map((f) => f.path)).toEqual([]);
  });

  it('what a plan includes is asked of the policy (planIncludes), in the service and in the console', () => {
    const FEATURES = '(compliance|exports|advanced_reports|age_without_trial)';
    const readsFeature = (text: string): boolean => {
      if (new RegExp(`PLAN_INFO\\[[^\\]]+\\]\\.${FEATURES}\\b`).test(text)) return true;
      // A plan's entry held in a variable, then asked for a feature.
      const held = [...text.matchAll(/(?:const|let)\s+(\w+)\s*=\s*PLAN_INFO\[/g)].map((m) => m[1]);
      return held.some((v) => new RegExp(`\\b${v}\\.${FEATURES}\\b`).test(text));
    };
    const renderer = join(SERVICE_DIR, '..', '..', 'src-renderer');
    const shared = join(SERVICE_DIR, '..', '..', 'src-shared');
    const offenders = [
      ...sources(SERVICE_DIR).map((f) => ({ ...f, path: `service/${f.path}` })),
      ...sources(renderer).map((f) => ({ ...f, path: `renderer/${f.path}` })),
      ...sources(shared).filter((f) => f.path !== 'policy.ts').map((f) => ({ ...f, path: `shared/${f.path}` })),
    ].filter((f) => readsFeature(f.text));
    expect(offenders.map((f) => f.path)).toEqual([]);
    // Screens name no plan: they ask usePlan() and the policy.
    const literals = sources(join(renderer, 'console', 'screens')).filter((f) => /plan\s*\?\?\s*'(free|starter|growth|pro|enterprise)'|=== '(free|starter|growth|pro|enterprise)'/.test(f.text));
    expect(literals.map((f) => f.path)).toEqual([]);
  });

  it('the HTTP layer never bills: products bill in their use cases, through core/app/call.ts bill', () => {
    const direct = sources(HTTP_DIR).filter((f) => /\bbilling\s*\.\s*(run|recordMany|continueFlow)\b|\bbill\s*[<(]/.test(f.text));
    expect(direct.map((f) => f.path)).toEqual([]);
    const appDir = join(SERVICE_DIR, 'core', 'app');
    const around = sources(appDir).filter((f) => f.path !== 'call.ts' && /\bbilling\s*\.\s*(run|recordMany)\b/.test(f.text));
    expect(around.map((f) => f.path)).toEqual([]);
  });

});

describe('errors have their own codes', () => {
  it('batch_not_found and list_not_found: 404 in the account-API shape', () => {
    expect(errorResponse('batch_not_found')).toEqual({ status: 404, body: { error: 'Batch not found' } });
    expect(errorResponse('list_not_found')).toEqual({ status: 404, body: { error: 'List not found' } });
    expect(ErrorBody.safeParse(errorResponse('batch_not_found').body).success).toBe(true);
  });

  it('an unknown batch and an unknown list answer 404 in the account shape', async () => {
    const t = await testService({ plan: 'pro' });
    const cookie = await t.login();
    for (const [method, path] of [
      ['GET', '/api/console/batches/bat_0000000000000000'],
      ['POST', '/api/console/batches/bat_0000000000000000/cancel'],
      ['POST', '/api/console/batches/bat_0000000000000000/finish'],
    ] as const) {
      const { status, body } = await t.json(method, path, { cookie, headers: { Origin: 'http://127.0.0.1:4310' } });
      expect(status, path).toBe(404);
      expect(body).toEqual({ error: 'Batch not found' });
    }
    const rows = await t.json('POST', '/api/console/batches/bat_0000000000000000/rows', {
      cookie, rawBody: '{"row":1}\n', headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(rows.status).toBe(404);
    expect(rows.body).toEqual({ error: 'Batch not found' });
    const list = await t.json('DELETE', '/api/screening/lists/user/no-such-list', { cookie });
    expect(list.status).toBe(404);
    expect(list.body).toEqual({ error: 'List not found' });
  });
});
