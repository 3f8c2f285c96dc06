/**
 * Writing the links of one entry — relations, media, components and dynamic
 * zones — inside the surrounding write's transaction. Every attribute's input
 * is checked first (one 400 listing every problem), then written; a failure
 * anywhere rolls the whole write back.
 */
import { ValidationError, type ValidationIssue } from '@tessera/errors';
import type { Connection } from '../connection/connection';
import type { EntityMetadata, LinkField, Metadata } from '../metadata/metadata';
import type { RelationOps } from '../relations/relation-input';
import { RelationWriter } from '../relations/relation-writer';
import { MediaWriter } from '../relations/media-writer';
import { ComponentsWriter, type ComponentValue } from '../relations/components-writer';

export type WriteMode = 'create' | 'update';

type Prepared =
  | { kind: 'relation'; ops: RelationOps }
  | { kind: 'media'; ids: number[] }
  | { kind: 'components'; items: ComponentValue[] };

export class LinksWriter {
  private readonly relations: RelationWriter;
  private readonly media: MediaWriter;
  private readonly components: ComponentsWriter;

  constructor(
    private readonly connection: Connection,
    metadata: Metadata,
  ) {
    this.relations = new RelationWriter(connection, metadata);
    this.media = new MediaWriter(connection, metadata);
    this.components = new ComponentsWriter(connection, metadata);
    this.components.onDelete = (entity, ids) => this.deleteOwnedMany(entity, ids);
  }

  /**
   * Takes the relation locks `write` will need (see advisoryLock). An update calls it before touching the entry's
   * row: a delete holds these locks before it locks the row, so taking them in the other order could deadlock.
   */
  async lock(entity: EntityMetadata, links: Record<string, unknown>): Promise<void> {
    const fields = Object.keys(links).flatMap((name) => {
      const field = entity.links.get(name);
      return field?.kind === 'relation' && links[name] !== undefined ? [field] : [];
    });
    await this.relations.lock(fields);
  }

  /**
   * MySQL: a create takes its relation locks before it inserts the row, as an update does. InnoDB makes a locking
   * read or an UPDATE of a row another transaction is inserting wait for that transaction (PostgreSQL does not see
   * the row at all), so a create holding its new row while waiting for a relation lock, against an update of that
   * id holding the lock, would deadlock.
   */
  async lockBeforeInsert(entity: EntityMetadata, links: Record<string, unknown>): Promise<void> {
    if (this.connection.dialect === 'mysql') await this.lock(entity, links);
  }

  /** Takes the relation locks a delete of one of `entity`'s entries needs (see RelationWriter.detachAll); call before locking its row. */
  async lockOwned(entity: EntityMetadata): Promise<void> {
    await this.relations.lockOwned(entity);
  }

  async write(entity: EntityMetadata, id: number, links: Record<string, unknown>, mode: WriteMode): Promise<void> {
    const prepared = this.prepareAll(entity, links);
    await this.relations.lock(prepared.flatMap(([field]) => (field.kind === 'relation' ? [field] : [])));
    // Every target is checked (and on Postgres held) before any join row changes: see RelationWriter.requireTargets.
    for (const [field, item] of prepared) {
      if (item.kind === 'relation' && field.kind === 'relation') await this.relations.requireTargets(field, item.ops);
    }
    for (const [field, item] of prepared) {
      if (item.kind === 'relation' && field.kind === 'relation') await this.relations.write(field, id, item.ops, mode);
      else if (item.kind === 'media' && field.kind === 'media') await this.media.write(entity, id, field, item.ids, mode);
      else if (item.kind === 'components' && field.kind !== 'relation' && field.kind !== 'media') {
        await this.components.write(entity, id, field, item.items, mode, (child, childId, data, childMode) => this.write(child, childId, data, childMode));
      }
    }
  }

  /** Removes what belongs to the entry alone before its row goes (other join rows cascade). */
  async deleteOwned(entity: EntityMetadata, id: number): Promise<void> {
    await this.deleteOwnedMany(entity, [id]);
  }

  private async deleteOwnedMany(entity: EntityMetadata, ids: number[]): Promise<void> {
    await this.relations.detachAll(entity, ids);
    await this.components.deleteFor(entity, ids);
    await this.media.deleteFor(entity, ids);
  }

  private prepareAll(entity: EntityMetadata, links: Record<string, unknown>): Array<[LinkField, Prepared]> {
    const issues: ValidationIssue[] = [];
    const prepared: Array<[LinkField, Prepared]> = [];
    for (const [name, value] of Object.entries(links)) {
      const field = entity.links.get(name);
      if (!field || value === undefined) continue;
      try {
        prepared.push([field, this.prepareOne(field, value)]);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        issues.push(...issuesOf(error));
      }
    }
    if (issues.length > 0) throw ValidationError.fromIssues(issues);
    return prepared;
  }

  private prepareOne(field: LinkField, value: unknown): Prepared {
    if (field.kind === 'relation') return { kind: 'relation', ops: this.relations.prepare(field, value) };
    if (field.kind === 'media') return { kind: 'media', ids: this.media.prepare(field, value) };
    return { kind: 'components', items: this.components.prepare(field, value) };
  }
}

function issuesOf(error: ValidationError): ValidationIssue[] {
  const errors = (error.details as { errors?: ValidationIssue[] }).errors;
  return errors && errors.length > 0 ? errors : [{ path: [], message: error.message, name: 'ValidationError' }];
}
