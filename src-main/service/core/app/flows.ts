// Published flows published, edited and switched on or off by owners and admins in the console:
// each act and its audit row commit together; a save or a switch that changes nothing is no act
// and writes no row. Each use case takes only the services it uses.
import type { Environment } from '../../../../src-shared/catalog';
import { AppError } from '../../../../src-shared/errors';
import type { Audit, AuditActorRef } from '../audit/audit';
import type { FlowRow, FlowSettings, FlowWithCounts, PublishedFlows } from '../hosted/flows';

interface FlowDeps { flows: PublishedFlows; audit: Audit }

/** What an edit can change (name, product and the page's settings), to tell a change from a save of the same. */
const editable = (f: FlowRow) =>
  JSON.stringify([f.name, f.product, f.redirect_url, f.failure_redirect_url, f.page_title, f.success_message, f.failure_message, f.min_age]);

export function publishFlow(d: FlowDeps, orgId: number, actor: AuditActorRef, env: Environment, settings: FlowSettings): Promise<FlowWithCounts> {
  return d.audit.atomically(async (tx) => {
    const f = await d.flows.create({ orgId, env }, settings, tx);
    await d.audit.record({ orgId, actor, action: 'flow.published', env: f.env, objectId: f.id, to: f.product }, tx);
    return f;
  });
}

export function changeFlow(d: FlowDeps, orgId: number, actor: AuditActorRef, id: string, settings: FlowSettings): Promise<FlowWithCounts> {
  return d.audit.atomically(async (tx) => {
    const was = await d.flows.byId(id, orgId, tx);
    const f = was && (await d.flows.update(id, orgId, settings, tx));
    if (!was || !f) throw new AppError('published_flow_not_found');
    if (editable(was) !== editable(f)) await d.audit.record({ orgId, actor, action: 'flow.changed', env: f.env, objectId: f.id }, tx);
    return f;
  });
}

export function switchFlow(d: FlowDeps, orgId: number, actor: AuditActorRef, id: string, enabled: boolean): Promise<FlowWithCounts> {
  return d.audit.atomically(async (tx) => {
    const was = await d.flows.byId(id, orgId, tx);
    const f = was && (await d.flows.setEnabled(id, orgId, enabled, tx));
    if (!was || !f) throw new AppError('published_flow_not_found');
    if ((was.enabled === 1) !== enabled) await d.audit.record({ orgId, actor, action: enabled ? 'flow.enabled' : 'flow.disabled', env: f.env, objectId: f.id }, tx);
    return f;
  });
}
