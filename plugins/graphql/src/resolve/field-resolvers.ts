/**
 * Resolvers of link fields (relations, media, components, dynamic zones).
 * Their data is normally on the parent already — the top-level query
 * populated it from the selection set, reading no more of a to-many list
 * than its page ends at — so they only wrap it as `{ data }` and cut the
 * page (link-page.ts: Strapi's default page of 10 when none is given).
 * When it is not there, the batch loader fetches it for all parents at once.
 */
import type { GraphQLFieldResolver, GraphQLResolveInfo } from 'graphql';
import { ForbiddenError } from '@tessera/errors';
import { linkTarget } from '@tessera/database';
import { isToMany, type GraphqlAttribute, type GraphqlModel, type SchemaModel } from '../model';
import type { GraphQLContext } from '../extension';
import type { SelectionPlanner } from './selection';
import { scopeOf } from './request-scope';
import { plain } from './args';
import { matchesFilters } from './component-filters';
import { linkPage, pageOf, type GraphqlLimits } from './link-page';

type Resolver = GraphQLFieldResolver<Record<string, unknown>, GraphQLContext, Record<string, unknown>>;
/** A link's loaded value → the field's answer; made once per field at boot, not per call. */
type Shape = (value: unknown, args: Record<string, unknown>) => unknown;

export class FieldResolvers {
  constructor(
    private readonly schemaModel: SchemaModel,
    private readonly planner: () => SelectionPlanner,
    private readonly limits: GraphqlLimits,
  ) {}

  /** A relation or media field: `{ data: entity | null }` or `{ data: [entities] }`. */
  link(owner: GraphqlModel, entry: GraphqlAttribute): Resolver {
    const attribute = entry.attribute;
    const targetUid = linkTarget(attribute)!;
    const many = isToMany(attribute);
    const shape: Shape = (value, args) => (many ? { data: this.page(Array.isArray(value) ? value : [], args.pagination) } : { data: value ?? null });
    return (parent, args, context, info) => {
      // Media files are readable wherever their owner is (as with REST populate); related entries need `find`.
      if (attribute.type === 'relation' && !scopeOf(context).mayRead(targetUid)) throw new ForbiddenError('Forbidden access');
      return this.withValue(parent, owner, entry, args, context, info, shape);
    };
  }

  /** A component (one or a list) or a dynamic zone: the loaded objects themselves. */
  component(owner: GraphqlModel, entry: GraphqlAttribute): Resolver {
    const attribute = entry.attribute;
    const shape: Shape = (value, args) => {
      if (attribute.type === 'component' && attribute.repeatable) {
        const items = (Array.isArray(value) ? value : []).filter((item) => matchesFilters(item as Record<string, unknown>, args.filters));
        return this.page(sortComponents(items, args.sort), args.pagination);
      }
      if (attribute.type === 'dynamiczone') return Array.isArray(value) ? value : [];
      return value ?? null;
    };
    return (parent, args, context, info) => this.withValue(parent, owner, entry, args, context, info, shape);
  }

  /**
   * The field's loaded value, shaped — synchronously when the parent has it
   * (the usual, populated case: no promise per entry), else after the batch load.
   */
  private withValue(
    parent: Record<string, unknown>,
    owner: GraphqlModel,
    entry: GraphqlAttribute,
    args: Record<string, unknown>,
    context: GraphQLContext,
    info: GraphQLResolveInfo,
    shape: Shape,
  ): unknown {
    if (entry.name in parent) return shape(parent[entry.name], args);
    // Components have no id of their own to fetch by: a link inside one is there only when populated.
    if (owner.kind === 'component' || typeof parent.id !== 'number') return shape(undefined, args);
    const spec = this.planner().populateFor(entry, info.fieldNodes, plain(args) as Record<string, unknown>, {
      schema: info.schema,
      fragments: info.fragments,
      variables: info.variableValues,
    });
    return scopeOf(context).loader().load({ uid: owner.uid, field: entry.name, spec, parentId: parent.id }).then((value) => shape(value, args));
  }

  /** A to-many link's page (`pagination`, or Strapi's default page) of the loaded list. */
  private page(items: unknown[], pagination: unknown): unknown[] {
    return pageOf(items, linkPage(pagination, this.limits));
  }
}

/**
 * A repeatable component's `sort` ("field:desc", ...), applied to the loaded
 * list (components are read in their stored order). Nulls first ascending,
 * strings by code point, as the database orders them.
 */
function sortComponents(items: unknown[], sort: unknown): unknown[] {
  const keys = (Array.isArray(sort) ? sort : []).flatMap((item) => String(item).split(',')).map((item) => {
    const [field, direction] = item.trim().split(':');
    return { field, sign: direction?.toLowerCase() === 'desc' ? -1 : 1 };
  });
  if (keys.length === 0) return items;
  const compare = (a: unknown, b: unknown): number => {
    if (a === b) return 0;
    if (a === null || a === undefined) return -1;
    if (b === null || b === undefined) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  };
  return [...items].sort((left, right) => {
    for (const { field, sign } of keys) {
      const order = compare((left as Record<string, unknown>)[field], (right as Record<string, unknown>)[field]);
      if (order !== 0) return order * sign;
    }
    return 0;
  });
}
