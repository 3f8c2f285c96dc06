/**
 * `populate=related` on files: the entries each file is linked to through
 * `files_related_morphs`, each with its `__type`, read through the content
 * API as the caller (types it may not `find` are left out, drafts follow
 * its publication state, private fields never appear). One query for the
 * links, one per related type.
 */
import type { App, Caller } from '@tessera/core';
import type { Entity } from '@tessera/database';

export async function loadRelated(app: App, files: Entity[], caller: Caller): Promise<void> {
  for (const file of files) file.related = [];
  if (files.length === 0) return;
  const links = await app.db.fileLinks(files.map((file) => file.id));
  const idsByType = new Map<string, Set<number>>();
  for (const link of links) {
    const type = link.relatedType;
    if (!app.contentTypes.has(type) || !caller.mayRead(type)) continue;
    if (!idsByType.has(type)) idsByType.set(type, new Set());
    idsByType.get(type)!.add(link.relatedId);
  }
  const entries = new Map<string, Entity>();
  for (const [type, ids] of idsByType) {
    const limit = ids.size;
    const { results } = await app.contentOperations.find(type, {
      caller,
      params: { filters: { id: { $in: [...ids] } }, pagination: { start: 0, limit, withCount: false } },
      limits: { defaultLimit: limit, maxLimit: limit },
    });
    for (const entry of results) entries.set(`${type}#${entry.id}`, { ...entry, __type: type });
  }
  const byId = new Map(files.map((file) => [file.id, file]));
  for (const link of links) {
    const entry = entries.get(`${link.relatedType}#${link.relatedId}`);
    const related = byId.get(link.fileId)?.related as Entity[] | undefined;
    if (entry && related && !related.includes(entry)) related.push(entry);
  }
}
