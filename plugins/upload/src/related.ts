/**
 * `populate=related` on files: the entries each file is linked to through
 * `files_related_morphs`, each with its `__type`, read through the content
 * API as the caller (types it may not `find` are left out, drafts follow
 * its publication state, private fields never appear). One query for the
 * links, one per related type.
 */
import type { App, AuthState } from '@tessera/core';
import { canReadType } from '@tessera/core';
import type { Entity } from '@tessera/database';

const MORPH_TABLE = 'files_related_morphs';

export async function loadRelated(app: App, files: Entity[], auth: AuthState): Promise<void> {
  for (const file of files) file.related = [];
  if (files.length === 0) return;
  const connection = app.db.connection;
  const links = await connection.all(
    connection.knex
      .from(MORPH_TABLE)
      .select('file_id', 'related_id', 'related_type')
      .whereIn('file_id', files.map((file) => file.id))
      .orderBy([{ column: 'file_id' }, { column: 'order' }, { column: 'id' }]),
  );
  const idsByType = new Map<string, Set<number>>();
  for (const link of links) {
    const type = String(link.related_type);
    if (!app.contentTypes.has(type) || !canReadType(auth, type)) continue;
    if (!idsByType.has(type)) idsByType.set(type, new Set());
    idsByType.get(type)!.add(Number(link.related_id));
  }
  const entries = new Map<string, Entity>();
  for (const [type, ids] of idsByType) {
    const limit = ids.size;
    const { results } = await app.contentApi.find(type, {
      auth,
      params: { filters: { id: { $in: [...ids] } }, pagination: { start: 0, limit, withCount: false } },
      limits: { defaultLimit: limit, maxLimit: limit },
    });
    for (const entry of results) entries.set(`${type}#${entry.id}`, { ...entry, __type: type });
  }
  const byId = new Map(files.map((file) => [file.id, file]));
  for (const link of links) {
    const key = `${String(link.related_type)}#${Number(link.related_id)}`;
    const entry = entries.get(key);
    const related = byId.get(Number(link.file_id))?.related as Entity[] | undefined;
    if (entry && related && !related.includes(entry)) related.push(entry);
  }
}
