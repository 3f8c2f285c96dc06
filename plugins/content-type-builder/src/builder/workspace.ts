/**
 * The schemas one builder request reads and changes (Strapi 4.26.2's schema builder state): each app schema is
 * read from its file when first touched, changed in memory, and only the changed ones are written back (Strapi
 * rewrites a file it touched in full, in its own format). A plugin's type is written to its extension file, started
 * from the plugin's schema the first time. A type with no such file (an admin type, one the builder hides) cannot
 * be rewritten here: such a change is refused before anything is written.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { App, PluginContentType } from '@tessera/core';
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

  /**
   * Where the app declares a content type or component; for a plugin's type, its extension file
   * (`src/extensions/<plugin>/content-types/<name>/schema.json`, which Strapi's builder writes and the plugin loader
   * reads over the plugin's schema); undefined when the builder cannot write it (an admin type, a hidden one).
   */
  fileOf(uid: string): string | undefined {
    const contentType = this.app.contentTypes.find(uid);
    const component = contentType ? undefined : this.app.components.find(uid);
    if (contentType && uid.startsWith('plugin::')) return this.pluginDeclaration(uid) ? extensionFile(this.app, uid) : undefined;
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
    const declared = fs.existsSync(file) ? undefined : this.pluginDeclaration(uid);
    const entry: Entry = { file, schema: declared ? pluginSchemaFile(declared) : readSchemaFile(file), state: 'kept' };
    this.entries.set(uid, entry);
    return entry;
  }

  /** A plugin type's declaration, when the builder may change it (Strapi's: not hidden from the builder). */
  private pluginDeclaration(uid: string): PluginContentType | undefined {
    const [plugin, name] = uid.slice('plugin::'.length).split('.');
    const declared = plugin && name ? this.app.plugins.find(plugin)?.contentTypes?.[name] : undefined;
    if (!declared || typeof declared !== 'object' || typeof declared.schema !== 'object' || declared.schema === null) return undefined;
    const { pluginOptions } = declared.schema as { pluginOptions?: { 'content-type-builder'?: { visible?: unknown } } };
    return pluginOptions?.['content-type-builder']?.visible === false ? undefined : declared;
  }
}

function extensionFile(app: App, uid: string): string {
  const [plugin, name] = uid.slice('plugin::'.length).split('.');
  return path.join(app.dirs.app.extensions, plugin!, 'content-types', name!, 'schema.json');
}

/**
 * What Strapi's builder starts a plugin type's extension file from: the plugin's schema in Strapi's keys (no
 * `config`: Strapi's loader keeps it apart), without the attributes Tessera adds for its own work, which the plugin
 * loader puts back over any extension.
 */
function pluginSchemaFile(declared: PluginContentType): SchemaFile {
  const schema = declared.schema as SchemaFile;
  const own = new Set(declared.tesseraAttributes ?? []);
  return {
    kind: schema.kind ?? 'collectionType',
    collectionName: schema.collectionName,
    info: { ...(schema.info ?? {}) },
    options: { ...(schema.options ?? {}) },
    pluginOptions: schema.pluginOptions && { ...schema.pluginOptions },
    attributes: Object.fromEntries(Object.entries(schema.attributes ?? {}).filter(([key]) => !own.has(key)).map(([key, attribute]) => [key, { ...attribute }])),
  };
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
