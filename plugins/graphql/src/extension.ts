/**
 * The extension service, as a Strapi v4 app reaches it:
 * `strapi.plugin('graphql').service('extension')`. It collects, from
 * `register` or `bootstrap`, what the schema build then uses:
 *   - `use(config | (context) => config)`: nexus `types`, SDL `typeDefs`,
 *     nexus `plugins`, `resolvers` and `resolversConfig`, merged in order;
 *   - `shadowCRUD(uid)`: what the generated schema leaves out of a type.
 */
import type { GraphQLFieldResolver } from 'graphql';
import type * as Nexus from 'nexus';
import type { App, PolicyReference } from '@tessera/core';

export type ResolverMiddleware = (
  next: GraphQLFieldResolver<unknown, GraphQLContext>,
  parent: unknown,
  args: Record<string, unknown>,
  context: GraphQLContext,
  info: import('graphql').GraphQLResolveInfo,
) => unknown;

export type Reference<T> = string | T | { name: string; config?: unknown; options?: unknown };

export interface ResolverConfig {
  /**
   * `false`: anyone; `{ scope }`: one of these actions (one action may be given alone, as Strapi casts it to a
   * list: strapi-plugin-fuzzy-search's). Default: the resolver's own action (shadow CRUD) or any credential.
   */
  auth?: false | { scope: string[] | string };
  /** Run by the kernel's gate on Strapi's GraphQL policy context (core's `ResolverPolicyContext`). */
  policies?: PolicyReference[];
  middlewares?: Array<Reference<ResolverMiddleware>>;
}

export interface ExtensionConfig {
  types?: unknown[];
  typeDefs?: string;
  plugins?: unknown[];
  resolvers?: Record<string, unknown>;
  resolversConfig?: Record<string, ResolverConfig>;
}

/** What the request context of every resolver holds (Strapi's `{ state, koaContext }`, plus ours). */
export interface GraphQLContext {
  state: Record<string, unknown> & { auth: import('@tessera/core').AuthState };
  koaContext: import('koa').Context;
  [key: string]: unknown;
}

export interface TypeRegistry {
  has(name: string): boolean;
  get(name: string): unknown;
  names(): string[];
}

export interface ExtensionContext {
  strapi: App;
  app: App;
  nexus: typeof Nexus;
  typeRegistry: TypeRegistry;
}

export type Extension = ExtensionConfig | ((context: ExtensionContext) => ExtensionConfig);

const QUERY_ACTIONS = ['find', 'findOne'];
const MUTATION_ACTIONS = ['create', 'update', 'delete'];

/** Disable switches of one attribute. */
export class FieldSettings {
  private output = true;
  private input = true;
  private filters = true;

  disable(): this {
    this.output = false;
    this.input = false;
    this.filters = false;
    return this;
  }
  disableOutput(): this {
    this.output = false;
    return this;
  }
  disableInput(): this {
    this.input = false;
    return this;
  }
  disableFilters(): this {
    this.filters = false;
    return this;
  }
  isEnabled(): boolean {
    return this.output || this.input || this.filters;
  }
  isDisabled(): boolean {
    return !this.isEnabled();
  }
  hasOutputEnabled(): boolean {
    return this.output;
  }
  hasInputEnabled(): boolean {
    return this.input;
  }
  hasFiltersEnabled(): boolean {
    return this.filters;
  }
  /** Strapi v4's spelling of hasFiltersEnabled, which plugins call (strapi-plugin-comments). */
  hasFiltersEnabeld(): boolean {
    return this.filters;
  }
}

/** Disable switches of one content type (and its fields). */
export class TypeSettings {
  private enabled = true;
  private readonly disabledActions = new Set<string>();
  private readonly fields = new Map<string, FieldSettings>();

  disable(): this {
    this.enabled = false;
    return this;
  }
  disableQueries(): this {
    return this.disableActions(QUERY_ACTIONS);
  }
  disableMutations(): this {
    return this.disableActions(MUTATION_ACTIONS);
  }
  disableAction(action: string): this {
    this.disabledActions.add(action);
    return this;
  }
  disableActions(actions: string[] = []): this {
    for (const action of actions) this.disableAction(action);
    return this;
  }
  field(name: string): FieldSettings {
    let settings = this.fields.get(name);
    if (!settings) {
      settings = new FieldSettings();
      this.fields.set(name, settings);
    }
    return settings;
  }
  isEnabled(): boolean {
    return this.enabled;
  }
  isDisabled(): boolean {
    return !this.enabled;
  }
  areQueriesEnabled(): boolean {
    return this.enabled && QUERY_ACTIONS.some((action) => !this.disabledActions.has(action));
  }
  areQueriesDisabled(): boolean {
    return !this.areQueriesEnabled();
  }
  areMutationsEnabled(): boolean {
    return this.enabled && MUTATION_ACTIONS.some((action) => !this.disabledActions.has(action));
  }
  areMutationsDisabled(): boolean {
    return !this.areMutationsEnabled();
  }
  isActionEnabled(action: string): boolean {
    return this.enabled && !this.disabledActions.has(action);
  }
  isActionDisabled(action: string): boolean {
    return !this.isActionEnabled(action);
  }
}

export class ExtensionService {
  private readonly extensions: Extension[] = [];
  private readonly types = new Map<string, TypeSettings>();

  use(extension: Extension): this {
    if (typeof extension !== 'function' && (typeof extension !== 'object' || extension === null)) {
      throw new TypeError('graphql extension: use() takes an object or a function returning one');
    }
    this.extensions.push(extension);
    return this;
  }

  /** The uids `shadowCRUD` was called with (checked against the model at boot). */
  configuredTypes(): string[] {
    return [...this.types.keys()];
  }

  shadowCRUD(uid: string): TypeSettings {
    let settings = this.types.get(uid);
    if (!settings) {
      settings = new TypeSettings();
      this.types.set(uid, settings);
    }
    return settings;
  }

  /** Every extension, functions called, merged in the order they were given. */
  generate(context: ExtensionContext): Required<ExtensionConfig> {
    const merged: Required<ExtensionConfig> = { types: [], typeDefs: '', plugins: [], resolvers: {}, resolversConfig: {} };
    for (const extension of this.extensions) {
      const config = typeof extension === 'function' ? extension(context) : extension;
      if (!config) continue;
      if (config.types) merged.types.push(...toList(config.types));
      if (config.typeDefs) merged.typeDefs += `\n${config.typeDefs}`;
      if (config.plugins) merged.plugins.push(...toList(config.plugins));
      if (config.resolvers) mergeResolvers(merged.resolvers, config.resolvers);
      for (const [key, value] of Object.entries(config.resolversConfig ?? {})) {
        merged.resolversConfig[key] = { ...merged.resolversConfig[key], ...value };
      }
    }
    return merged;
  }
}

function toList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

/** `{ Query: { a } }` then `{ Query: { b } }` → both; a later resolver of the same field wins. */
function mergeResolvers(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [typeName, fields] of Object.entries(source)) {
    const existing = target[typeName];
    if (isObject(existing) && isObject(fields) && !isGraphqlScalar(fields)) target[typeName] = { ...existing, ...fields };
    else target[typeName] = fields;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isGraphqlScalar(value: object): boolean {
  return typeof (value as { serialize?: unknown }).serialize === 'function';
}
