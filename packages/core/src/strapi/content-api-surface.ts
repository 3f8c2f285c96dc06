/**
 * What Strapi v4 server code calls to clean data itself, over Tessera's own
 * rules (the same ones the content API applies):
 *
 *   strapi.contentAPI.sanitize.output(data, schema, { auth })  private/password attributes and the
 *                                                             admin authorship fields dropped, at every level;
 *                                                             with `auth`, links into types it may not read too
 *   strapi.contentAPI.sanitize.input(data, schema, { auth })   what a client may not write dropped (id,
 *                                                             timestamps, private fields, unreadable links)
 *   strapi.contentAPI.sanitize.query(query, schema, { auth })  unknown top-level parameters dropped
 *   strapi.contentAPI.validate.query(query, schema, { auth })  a 400 ValidationError where the content API would give one
 *                                                             (filters, sort, fields, populate; other parameters pass, as in Strapi)
 *   strapi.contentAPI.validate.input(data, schema, { auth })   a 400 for writes to private or system fields
 *   strapi.contentAPI.permissions.engine.generateAbility(permissions)
 *                                                             the ability a list of `{ action }` grants (a role's
 *                                                             or a token's permissions), `ability.can(action)`
 *   strapi.sanitizers / strapi.validators                      Strapi's registries (`get/add/set/has` by path,
 *                                                             `content-api.output` …), whose functions run after ours
 *
 * `schema` is a content type or component object or its uid (`strapi.getModel(uid)`).
 */
import { ValidationError } from '@tessera/errors';
import type { Database, EntityMetadata } from '@tessera/database';
import { ActionSet } from '../auth/abilities';
import { Caller } from '../auth/caller';
import { cleanOutput } from '../content/clean-output';
import type { AuthState } from '../types';

type Sanitizer = (data: unknown, schema: unknown, options: { auth?: AuthState }) => unknown;
type Schema = string | { uid: string };
type Options = { auth?: AuthState };

/** Strapi's sanitizers/validators registry: lists of functions by dotted path. */
export class FunctionRegistry {
  private readonly lists = new Map<string, Sanitizer[]>();

  get(path: string): Sanitizer[] {
    return this.lists.get(path) ?? [];
  }

  add(path: string, fn: Sanitizer): this {
    const list = this.lists.get(path) ?? [];
    list.push(fn);
    this.lists.set(path, list);
    return this;
  }

  set(path: string, value: Sanitizer[] = []): this {
    this.lists.set(path, value);
    return this;
  }

  has(path: string): boolean {
    return this.lists.has(path);
  }
}

/** The content API's top-level query parameters (what `sanitize.query` keeps). */
const QUERY_KEYS = new Set(['filters', 'sort', 'fields', 'populate', 'pagination', 'publicationState', 'locale', '_q', 'page', 'pageSize', 'start', 'limit']);

export function createContentApiSurface(database: () => Database, sanitizers: FunctionRegistry, validators: FunctionRegistry) {
  const entityOf = (schema: Schema): EntityMetadata => {
    const uid = typeof schema === 'string' ? schema : schema?.uid;
    return database().entity(uid);
  };
  const runExtra = async (registry: FunctionRegistry, path: string, value: unknown, schema: Schema, options: Options) => {
    let current = value;
    for (const fn of registry.get(path)) current = await fn(current, schema, options);
    return current;
  };
  return {
    permissions: {
      engine: {
        /** Strapi's engine keeps a permission's action and answers `can(action)` from them, as a role's ability. */
        generateAbility: async (permissions: ReadonlyArray<{ action?: unknown }> = []) =>
          new ActionSet(permissions.map((permission) => permission?.action).filter((action): action is string => typeof action === 'string')),
      },
    },
    sanitize: {
      output: async (data: unknown, schema: Schema, options: Options = {}) =>
        runExtra(sanitizers, 'content-api.output', cleanOutput(data, entityOf(schema), database(), callerOf(options)), schema, options),
      input: async (data: unknown, schema: Schema, options: Options = {}) =>
        runExtra(sanitizers, 'content-api.input', cleanInput(data, entityOf(schema), database(), callerOf(options)), schema, options),
      query: async (query: unknown, schema: Schema, options: Options = {}) => {
        const kept = Object.fromEntries(Object.entries(isObject(query) ? query : {}).filter(([key]) => QUERY_KEYS.has(key)));
        return runExtra(sanitizers, 'content-api.query', kept, schema, options);
      },
    },
    validate: {
      query: async (query: unknown, schema: Schema, options: Options = {}) => {
        const entity = entityOf(schema);
        const params = isObject(query) ? query : {};
        // As Strapi's: filters, sort, fields and populate are checked (other parameters pass), by the compiler
        // the content API itself uses — private fields, unknown attributes, bad operators, unreadable relations.
        const { filters, sort, fields, populate } = params;
        database().query(entity.uid).plan({ filters, sort, fields, populate } as never, options.auth ? { canRead: (uid: string) => Caller.of(options.auth!).mayRead(uid) } : {});
        await runExtra(validators, 'content-api.query', query, schema, options);
      },
      input: async (data: unknown, schema: Schema, options: Options = {}) => {
        const entity = entityOf(schema);
        for (const key of Object.keys(isObject(data) ? data : {})) {
          const column = entity.columns.get(key);
          const link = entity.links.get(key);
          if ((column && (column.private || column.system)) || link?.private) throw new ValidationError(`Invalid key ${key}`);
          if (!column && !link) throw new ValidationError(`Invalid key ${key}`);
        }
        await runExtra(validators, 'content-api.input', data, schema, options);
      },
    },
  };
}

/** Strapi's options name the request's `ctx.state.auth`; without one the answer is server code's (nothing cut but private fields). */
function callerOf(options: Options): Caller | undefined {
  return options.auth ? Caller.of(options.auth) : undefined;
}

function cleanInput(data: unknown, entity: EntityMetadata, db: Database, caller: Caller | undefined): unknown {
  if (!isObject(data)) return data;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const column = entity.columns.get(key);
    if (column && (column.private || column.system)) continue;
    const link = entity.links.get(key);
    if (link?.private) continue;
    if (link?.kind === 'relation' && caller && !caller.mayRead(link.target)) continue;
    if (!column && !link) continue;
    out[key] = value;
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
