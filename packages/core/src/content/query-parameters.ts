/**
 * Query parameters plugins add to the content API (`locale` from i18n),
 * declared in `app.queryParameters` during `register`. A declared parameter
 * is accepted by every read, validated by the plugin, and turned into
 * filters that narrow the read — REST and GraphQL alike, since both call the
 * same operations.
 */
import type { CoreAction } from '../types';
import type { Caller } from '../auth/caller';

export interface QueryParameterContext {
  /** The content type being read or written. */
  uid: string;
  /** Who reads or writes: the request's caller, or `Caller.server` (the entity service, server code). */
  caller: Caller;
  /**
   * Where the parameter applies: a collection type's list or create
   * (`collection`), one entry by id (`entry`: the id already chose it), or a
   * single type's entry (`single`: read, written or deleted).
   */
  operation: 'collection' | 'entry' | 'single';
}

export interface QueryParameter {
  /** The top-level parameter name (`locale`). */
  name: string;
  /**
   * Filters to AND with the request's for this read, from the raw value
   * (`undefined` when the request did not send it, so a default can apply);
   * `undefined` adds nothing. Throw a ValidationError for a bad value.
   */
  filters?(value: unknown, context: QueryParameterContext): Record<string, unknown> | undefined;
  /**
   * Values a create through the content API takes from the parameter where
   * its data sets none (i18n: `PUT /api/homepage?locale=fr` creates the `fr`
   * entry). `undefined` adds nothing.
   */
  data?(value: unknown, context: QueryParameterContext): Record<string, unknown> | undefined;
  /**
   * How typed transports (GraphQL) declare the parameter as an argument of
   * the generated operations. Without it the parameter is REST-only. The
   * declaring plugin provides the named type to that transport itself.
   */
  argument?: QueryParameterArgument;
}

export interface QueryParameterArgument {
  /** The argument's named type (`I18NLocaleCode`). */
  type: string;
  /** The operations that take it; a single type has only `find`, `update` and `delete`. */
  actions: readonly CoreAction[];
  /** Whether a content type's operations take it (i18n: localized types only). */
  appliesTo(uid: string): boolean;
}

/**
 * The request's filters ANDed with each declared parameter's (present or not: a plugin may have a default), read
 * from `values`: the one loop the content API (for its caller) and the entity service (as `Caller.server`) share.
 * The same `filters` object when no parameter adds any.
 */
export function declaredFilters(parameters: readonly QueryParameter[], filters: unknown, values: Record<string, unknown>, context: QueryParameterContext): unknown {
  let merged = filters;
  for (const parameter of parameters) {
    const extra = parameter.filters?.(values[parameter.name], context);
    if (extra !== undefined) merged = merged === undefined ? extra : { $and: [merged, extra] };
  }
  return merged;
}
