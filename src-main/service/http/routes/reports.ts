// The reporting API (account spec, Endpoints; issue 13): nine GETs for a signed-in member of any
// role. V1 answers carry `schema_version` '1.0' and `meta.cached`; V2.1 answers '2.1'; the limits
// answer has no meta. Every error of these routes carries the endpoint's `schema_version` (here,
// or added by the app's error mapper for authentication errors: see reportSchemaVersion).
import type { Context } from 'hono';
import {
  LimitsEnvelope, OverviewEnvelope, RegulatoryCoverageEnvelope, ReportQuery, RiskSummaryEnvelope, UsageEnvelope,
  V21FullEnvelope, V21VerificationEnvelope, VolumeEnvelope, WidgetPerformanceEnvelope, type V1Report,
} from '../../../../src-shared/contracts/reports';
import { AppError } from '../../../../src-shared/errors';
import type { SessionContext } from '../../core/accounts/accounts';
import { parseReportQuery, type ReportParams, type SchemaVersion } from '../../core/reports/params';
import type { Who } from '../../core/reports/reports';
import type { Router } from '../router';
import type { AppEnv } from '../types';
import type { z } from 'zod';
import { seesCredits } from '../../../../src-shared/policy';

/** The `schema_version` of a reporting path's answers, errors included; null for other paths (exports have their own). */
export function reportSchemaVersion(path: string): SchemaVersion | null {
  if (!path.startsWith('/api/reports/') || path.startsWith('/api/reports/exports')) return null;
  return path.startsWith('/api/reports/v21/') ? '2.1' : '1.0';
}

/** Credits are shown to those who see credits (src-shared/policy.ts). */
export function whoOf(s: SessionContext): Who {
  return { orgId: s.org.id, plan: s.org.plan, canViewCredits: seesCredits(s.user) };
}

function meta(p: ReportParams, generatedAt: string) {
  return { from: p.from, to: p.to, env: p.env, generated_at: generatedAt };
}

export function reportRoutes({ route, services }: Router): void {
  const { reports } = services;
  const TAGS = ['reports'];
  const AUTH = { kind: 'session' } as const;
  const request = { query: ReportQuery, invalid: 'report_invalid' } as const;

  function enabled(sv: SchemaVersion): void {
    if (!reports.flags.reportingEnabled()) throw new AppError('reporting_disabled', { schema_version: sv });
  }

  const V1: { report: V1Report; envelope: z.ZodType; summary: string }[] = [
    { report: 'overview', envelope: OverviewEnvelope, summary: 'Totals, pass rate, confidence, counts by product and by outcome' },
    { report: 'volume', envelope: VolumeEnvelope, summary: 'Verifications per day, ISO week or month (every bucket, zeros included)' },
    { report: 'usage', envelope: UsageEnvelope, summary: 'Use by product and by API key (paginated), credits consumed per billable operation' },
    { report: 'risk-summary', envelope: RiskSummaryEnvelope, summary: 'Confidence bands, failure reasons (paginated), average and median confidence (Growth or higher)' },
    { report: 'widget-performance', envelope: WidgetPerformanceEnvelope, summary: 'Per API key: totals, pass rate, confidence and latency (paginated; Growth or higher)' },
    { report: 'regulatory-coverage', envelope: RegulatoryCoverageEnvelope, summary: 'KYC-plus and screenings: count, pass rate, hit rate, hits by kind of list (Growth or higher)' },
  ];

  for (const { report, envelope, summary } of V1) {
    route({
      method: 'GET', path: `/api/reports/${report}`, auth: AUTH, tags: TAGS, summary,
      description: 'Query: env, from, to (YYYY-MM-DD, inclusive UTC days, within the plan\'s range), granularity (volume), limit, page, per_page. See docs/reports.md.',
      request, responses: { 200: envelope },
      handler: async (c: Context<AppEnv>, input) => {
        enabled('1.0');
        const who = whoOf(c.get('session'));
        reports.requireAdvanced(report, who.plan, '1.0');
        const p = parseReportQuery(input.query(), who.plan, '1.0');
        const r = await reports.v1(report, who, p);
        return c.json({
          schema_version: '1.0', data: r.data,
          meta: {
            ...meta(p, r.generatedAt), cached: r.cached,
            ...(report === 'volume' ? { granularity: p.granularity } : {}),
            ...(r.pagination ? { limit: p.limit, pagination: r.pagination } : {}),
          },
        });
      },
    });
  }

  route({
    method: 'GET', path: '/api/reports/limits', auth: AUTH, tags: TAGS,
    summary: 'The plan\'s reporting limits (no meta)',
    responses: { 200: LimitsEnvelope },
    handler: (c) => {
      enabled('1.0');
      return c.json<LimitsEnvelope>({ schema_version: '1.0', data: reports.limits(c.get('session').org.plan) });
    },
  });

  route({
    method: 'GET', path: '/api/reports/v21/verification', auth: AUTH, tags: TAGS,
    summary: 'V2.1: summary, compliance effectiveness score, risk severity, period comparison, KPIs, daily trend, health checks',
    request, responses: { 200: V21VerificationEnvelope },
    handler: async (c, input) => {
      enabled('2.1');
      const who = whoOf(c.get('session'));
      const p = parseReportQuery(input.query(), who.plan, '2.1');
      const r = await reports.v21.verification(who, p);
      return c.json<V21VerificationEnvelope>({ schema_version: '2.1', data: r.data, meta: meta(p, new Date(services.clock.now()).toISOString()) });
    },
  });

  route({
    method: 'GET', path: '/api/reports/v21/full', auth: AUTH, tags: TAGS,
    summary: 'V2.1: verification summary, credits snapshot (owner, admin or billing flag) and per-key risk (paginated)',
    request, responses: { 200: V21FullEnvelope },
    handler: async (c, input) => {
      enabled('2.1');
      const who = whoOf(c.get('session'));
      const p = parseReportQuery(input.query(), who.plan, '2.1');
      const r = await reports.v21.full(who, p);
      return c.json<V21FullEnvelope>({
        schema_version: '2.1', data: r.data,
        meta: { ...meta(p, new Date(services.clock.now()).toISOString()), ...(r.pagination ? { limit: p.limit, pagination: r.pagination } : {}) },
      });
    },
  });
}
