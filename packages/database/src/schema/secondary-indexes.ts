/**
 * The non-unique indexes of an entity's table: `published_at` on
 * draft-and-publish types (every live list filters and counts on it; Strapi
 * lacks it) and each declared one (search-options.ts). Schema sync creates
 * every one that is missing, on existing tables too, so once the app is up
 * the reader may name them (covering-count.ts).
 */
import type { EntityMetadata } from '../metadata/metadata';
import { indexName } from './names';

export interface SecondaryIndex {
  name: string;
  columns: string[];
}

export function secondaryIndexes(entity: EntityMetadata): SecondaryIndex[] {
  const indexes: SecondaryIndex[] = [];
  if (entity.draftAndPublish) indexes.push({ name: indexName(entity.tableName, 'published_at', 'index'), columns: ['published_at'] });
  for (const declared of entity.indexes) {
    const name = indexName(entity.tableName, ...declared, 'index');
    if (!indexes.some((index) => index.name === name)) indexes.push({ name, columns: declared });
  }
  return indexes;
}
