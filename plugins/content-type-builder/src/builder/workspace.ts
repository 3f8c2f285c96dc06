/**
 * The schemas one builder request reads and changes (Strapi 4.26.2's schema builder state): each app schema is
 * read from its file when first touched, changed in memory, and only the changed ones are written back (Strapi
 * rewrites a file it touched in full, in its own format). A type the app did not declare in a schema file of its
 * own (a plugin's) cannot be rewritten here: such a change is refused before anything is written.
 */
import path from 'node:path';
import type { App } from '@tessera/core';
import { FileChanges, readSchemaFile, schemaFileText, type SchemaFile } from './files';

export class BuilderError extends Error {}

interface Entry {
  file: string;
  schema: SchemaFile;
  state: 'kept' | 'modified' | 'deleted';
}

export class Workspace {
  private readonly entries = new Map<string, Entry>();
  readonly changes = new FileChanges();

  constructor(private readonly app: App) {}

  /** Where the app declares a content type or component; undefined when it is not one of the app's schema files. */
  fileOf(uid: string): string | undefined {
    const contentType = this.app.contentTypes.find(uid);
    const component = contentType ? undefined : this.app.components.find(uid);
    const source = contentType?.source ?? component?.source;
    if (!source || !source.endsWith('.json')) return undefined;
    const file = path.resolve(this.app.dir, source);
    return file.startsWith(`${this.app.dirs.app.src}${path.sep}`) ? file : undefined;
  }

  /** A schema to change (read once per request). */
  get(uid: string): SchemaFile {
    const entry = this.entries.get(uid) ?? this.load(uid);
    return entry.schema;
  }

  has(uid: string): boolean {
    return this.entries.has(uid) || this.fileOf(uid) !== undefined;
  }

  /** A new schema at `file`. */
  add(uid: string, file: string, schema: SchemaFile): void {
    if (this.changes.exists(file)) throw new BuilderError(`File already exists: ${path.relative(this.app.dir, file)}`);
    this.entries.set(uid, { file, schema, state: 'modified' });
  }

  setAttribute(uid: string, name: string, attribute: Record<string, unknown>): void {
    this.get(uid).attributes[name] = attribute;
    this.mark(uid);
  }

  deleteAttribute(uid: string, name: string): void {
    delete this.get(uid).attributes[name];
    this.mark(uid);
  }

  /** The whole schema, as the builder rebuilt it (an edit). */
  replace(uid: string, schema: SchemaFile): void {
    this.get(uid);
    const entry = this.entries.get(uid);
    if (entry) {
      entry.schema = schema;
      this.mark(uid);
    }
  }

  delete(uid: string): void {
    this.get(uid);
    const entry = this.entries.get(uid);
    if (entry) entry.state = 'deleted';
  }

  /**
   * Every app schema file (content types and components), those this request added or moved included and those
   * it deleted left out, for changes that reach all of them (a type removed, a component moved).
   */
  allUids(): string[] {
    const registered = [...this.app.contentTypes.values().map((type) => type.uid), ...this.app.components.values().map((component) => component.uid)];
    return [...new Set([...registered, ...this.entries.keys()])].filter((uid) => this.has(uid) && this.entries.get(uid)?.state !== 'deleted');
  }

  /** Writes the changed schemas and removes the deleted ones (with their folders once empty). */
  flush(): void {
    for (const entry of this.entries.values()) {
      if (entry.state === 'modified') this.changes.write(entry.file, schemaFileText(entry.schema));
      // Emptied folders go up to the API or category folder (Strapi never removes src/api or src/components).
      const { api, components } = this.app.dirs.app;
      if (entry.state === 'deleted') this.changes.remove(entry.file, entry.file.startsWith(`${components}${path.sep}`) ? components : api);
    }
  }

  private mark(uid: string): void {
    const entry = this.entries.get(uid);
    if (entry && entry.state === 'kept') entry.state = 'modified';
  }

  private load(uid: string): Entry {
    const file = this.fileOf(uid);
    if (!file) throw new BuilderError(`${uid} is not declared in a schema file of the app, so the builder cannot change it`);
    const entry: Entry = { file, schema: readSchemaFile(file), state: 'kept' };
    this.entries.set(uid, entry);
    return entry;
  }
}

/** Runs a change on a fresh workspace, writes it, and puts every file back when any step fails. */
export function commit<T>(app: App, change: (workspace: Workspace) => T): T {
  const workspace = new Workspace(app);
  try {
    const result = change(workspace);
    workspace.flush();
    return result;
  } catch (error) {
    workspace.changes.rollback();
    throw error;
  }
}
