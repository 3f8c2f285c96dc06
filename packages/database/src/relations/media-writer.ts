/**
 * Media attributes, written as Strapi v4 stores them: one
 * `files_related_morphs` row per linked file (file_id, related_id,
 * related_type, field, order). Set by file id(s); a write replaces the list.
 */
import { ValidationError } from '@tessera/errors';
import type { Connection } from '../connection/connection';
import type { EntityMetadata, MediaField, Metadata } from '../metadata/metadata';
import { FILE_UID, MORPH_TABLE } from '../metadata/media';
import { parseRelationInput, type RelationOps } from './relation-input';
import { idsForMessage, insertRows, whereIn } from './link-sql';

export class MediaWriter {
  constructor(
    private readonly connection: Connection,
    private readonly metadata: Metadata,
  ) {}

  prepare(field: MediaField, value: unknown): number[] {
    const ops: RelationOps = parseRelationInput(field.name, value, { media: true });
    const ids = ops.kind === 'set' ? ops.ids : [];
    if (!field.multiple && ids.length > 1) throw ValidationError.forField([field.name], `${field.name} holds a single file`);
    if (ids.length > 0 && !this.metadata.has(FILE_UID)) throw ValidationError.forField([field.name], `${field.name}: no file content type is registered`);
    return ids;
  }

  async write(entity: EntityMetadata, id: number, field: MediaField, fileIds: number[], mode: 'create' | 'update'): Promise<void> {
    const files = this.metadata.get(FILE_UID);
    if (!files) return;
    const knex = this.connection.knex;
    if (fileIds.length > 0) {
      const found = new Set((await this.connection.all(whereIn(this.connection, knex.from(files.tableName).select('id'), 'id', fileIds))).map((row) => Number(row.id)));
      const missing = fileIds.filter((fileId) => !found.has(fileId));
      if (missing.length > 0) throw ValidationError.forField([field.name], `${field.name}: file with id ${idsForMessage(missing)} does not exist`);
    }
    if (mode === 'update') {
      await this.connection.run(knex(MORPH_TABLE).delete().where({ related_id: id, related_type: entity.uid, field: field.name }));
    }
    if (fileIds.length === 0) return;
    const rows = fileIds.map((fileId, index) => ({ file_id: fileId, related_id: id, related_type: entity.uid, field: field.name, order: index + 1 }));
    await insertRows(this.connection, MORPH_TABLE, rows);
  }

  /**
   * Drops the morph rows of deleted entries (they have no foreign key to cascade from): an entry's own media
   * links, and for deleted files every link to them (media fields pointing at a file become empty, as Strapi's
   * query engine empties them through the file's `related`), whatever code deletes the file.
   */
  async deleteFor(entity: EntityMetadata, ids: number[]): Promise<void> {
    if (ids.length === 0 || !this.metadata.has(FILE_UID)) return;
    if (entity.uid === FILE_UID) await this.connection.run(whereIn(this.connection, this.connection.knex(MORPH_TABLE).delete(), 'file_id', ids));
    if (![...entity.links.values()].some((link) => link.kind === 'media')) return;
    const qb = this.connection.knex(MORPH_TABLE).delete().where('related_type', entity.uid);
    await this.connection.run(whereIn(this.connection, qb, 'related_id', ids));
  }
}
