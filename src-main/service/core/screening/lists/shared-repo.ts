// The shared lists' rows (migrations 0029, 0031): one version row naming each file of the lists
// folder by its SHA-256, and each file's bytes once, in parts. Used on PostgreSQL only (lists/shared.ts).
import type { Q } from '../../../db/engine';

/** A lists folder as shared: each file's path under the folder and the SHA-256 of its bytes. */
export type FileShas = Record<string, string>;

export interface SharedVersion {
  version: number;
  files: FileShas;
}

/** The most bytes of a file written as one value. */
export const BLOB_PART_BYTES = 1 << 20;

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
    const rows = await q.selectFrom('list_blob_parts').select('sha256').distinct().where('sha256', 'in', shas).execute();
    return new Set(rows.map((r) => r.sha256));
  },
  /**
   * A file's bytes, given a part at a time (at most BLOB_PART_BYTES each; a file of none is one
   * empty part): never held or serialised whole (migration 0031).
   */
  async putBlob(q: Q, sha256: string, parts: Iterable<Uint8Array>): Promise<void> {
    let part = 0;
    const put = (content: Uint8Array) => q.insertInto('list_blob_parts').values({ sha256, part: part++, content })
      .onConflict((oc) => oc.columns(['sha256', 'part']).doNothing()).execute();
    for (const content of parts) await put(content);
    if (part === 0) await put(new Uint8Array(0));
  },
  /** A file's bytes, a part at a time (none when they are not stored). */
  async *blobParts(q: Q, sha256: string): AsyncGenerator<Uint8Array> {
    for (let part = 0; ; part++) {
      const row = await q.selectFrom('list_blob_parts').select('content').where('sha256', '=', sha256).where('part', '=', part).executeTakeFirst();
      if (!row) return;
      yield row.content;
    }
  },
  /** Drops the bytes no file of the version uses any more. */
  async dropUnused(q: Q, used: readonly string[]): Promise<void> {
    let del = q.deleteFrom('list_blob_parts');
    if (used.length > 0) del = del.where('sha256', 'not in', used);
    await del.execute();
  },
};
