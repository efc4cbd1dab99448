// SQL for published flows: their settings, their stable slug, and how many sessions each started
// and saw completed (counted from the hosted sessions, never stored twice).
import type { Db } from '../../db/open';
import type { FlowRow, FlowWithCounts } from './flows';

const WITH_COUNTS = `SELECT f.*,
    (SELECT COUNT(*) FROM hosted_sessions h WHERE h.flow_id = f.id) AS started,
    (SELECT COUNT(*) FROM hosted_sessions h WHERE h.flow_id = f.id AND h.state = 'completed') AS completed
  FROM published_flows f`;

export function publishedFlowsRepo(db: Db) {
  return {
    insert: db.prepare(
      `INSERT INTO published_flows (id, slug, org_id, env, name, product, redirect_url, failure_redirect_url, page_title, success_message,
         failure_message, min_age, enabled, created_at, updated_at)
       VALUES (@id, @slug, @org_id, @env, @name, @product, @redirect_url, @failure_redirect_url, @page_title, @success_message,
         @failure_message, @min_age, 1, @at, @at)`,
    ),
    // The slug, org and environment are not in the SET list: an edit cannot move a flow or change its URL.
    update: db.prepare(
      `UPDATE published_flows SET name = @name, product = @product, redirect_url = @redirect_url, failure_redirect_url = @failure_redirect_url,
         page_title = @page_title, success_message = @success_message, failure_message = @failure_message, min_age = @min_age, updated_at = @at
       WHERE id = @id AND org_id = @org_id`,
    ),
    enabled: db.prepare('UPDATE published_flows SET enabled = @enabled, updated_at = @at WHERE id = @id AND org_id = @org_id'),
    byId: db.prepare<[string], FlowWithCounts>(`${WITH_COUNTS} WHERE f.id = ?`),
    bySlug: db.prepare<[string], FlowRow>('SELECT * FROM published_flows WHERE slug = ?'),
    list: db.prepare<[number, string, number], FlowWithCounts>(`${WITH_COUNTS} WHERE f.org_id = ? AND f.env = ? ORDER BY f.created_at DESC, f.id DESC LIMIT ?`),
  };
}
