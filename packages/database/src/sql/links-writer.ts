/**
 * Writing relations, components, dynamic zones and media of one entry.
 * (Relation management lands with the relations issue; until then any link
 * value is refused with a 400 rather than silently dropped.)
 */
import { ValidationError } from '@tessera/errors';
import type { Connection } from '../connection/connection';
import type { EntityMetadata, Metadata } from '../metadata/metadata';

export type WriteMode = 'create' | 'update';

export class LinksWriter {
  constructor(
    private readonly connection: Connection,
    private readonly metadata: Metadata,
  ) {}

  async write(entity: EntityMetadata, id: number, links: Record<string, unknown>, mode: WriteMode): Promise<void> {
    void id;
    void mode;
    const names = Object.keys(links);
    if (names.length === 0) return;
    throw ValidationError.fromIssues(
      names.map((name) => ({ path: [name], message: `${name} cannot be written yet`, name: 'ValidationError' })),
    );
  }

  /** Removes what belongs to the entry alone before its row goes (join rows cascade). */
  async deleteOwned(entity: EntityMetadata, id: number): Promise<void> {
    void this.metadata;
    void this.connection;
    void entity;
    void id;
  }
}
