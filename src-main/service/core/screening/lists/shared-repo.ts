// The shared lists' rows (migration 0029): one version row naming each file of the lists folder
// by its SHA-256, and each file's bytes once. Used on PostgreSQL only (lists/shared.ts).
import type { Q } from '../../../db/engine';

/** A lists folder as shared: each file's path under the folder and the SHA-256 of its bytes. */
export type FileShas = Record<string, string>;

export interface SharedVersion {
  version: number;
  files: FileShas;
}

export const sharedListsRepo = {
  async head(q: Q): Promise<SharedVersion | null> {
    const row = await q.selectFrom('list_store').select(['version', 'files']).where('id', '=', 1).executeTakeFirst();
    return row ? { version: row.version, files: JSON.parse(row.files) as FileShas } : null;
  },
  async put(q: Q, v: SharedVersion, at: string): Promise<void> {
    const files = JSON.stringify(v.files);
    await q.insertInto('list_store').values({ id: 1, version: v.version, files, updated_at: at })
      .onConflict((oc) => oc.column('id').doUpdateSet({ version: v.version, files, updated_at: at })).execute();
  },
  /** Which of `shas` have their bytes stored. */
  async stored(q: Q, shas: readonly string[]): Promise<Set<string>> {
    if (shas.length === 0) return new Set();
    const rows = await q.selectFrom('list_blobs').select('sha256').where('sha256', 'in', shas).execute();
    return new Set(rows.map((r) => r.sha256));
  },
  async putBlob(q: Q, sha256: string, content: Uint8Array): Promise<void> {
    await q.insertInto('list_blobs').values({ sha256, content }).onConflict((oc) => oc.column('sha256').doNothing()).execute();
  },
  async blob(q: Q, sha256: string): Promise<Uint8Array | null> {
    return (await q.selectFrom('list_blobs').select('content').where('sha256', '=', sha256).executeTakeFirst())?.content ?? null;
  },
  /** Drops the bytes no file of the version uses any more. */
  async dropUnused(q: Q, used: readonly string[]): Promise<void> {
    let del = q.deleteFrom('list_blobs');
    if (used.length > 0) del = del.where('sha256', 'not in', used);
    await del.execute();
  },
};
