/**
 * Shadow CRUD operations: per collection type `<type>(id)`, `<types>(...)`,
 * `create<Type>`, `update<Type>`, `delete<Type>`; per single type
 * `<type>(publicationState)`, `update<Type>`, `delete<Type>`. Each calls the
 * same content-API operation as REST, with the caller of the request, and
 * declares the permission action its resolver checks (wrap-resolvers.ts).
 */
import { arg, extendType, idArg, list, nonNull } from 'nexus';
import type { GraphQLResolveInfo } from 'graphql';
import { contentAction, type App, type CoreAction as Action, type Caller, type FindResult, type PaginationMeta } from '@tessera/core';
import { NotFoundError } from '@tessera/errors';
import { names } from '../naming';
import type { GraphqlModel, SchemaModel } from '../model';
import type { ExtensionService, GraphQLContext } from '../extension';
import { plain, toRestData, toRestFilters, toRestPagination } from '../resolve/args';
import type { SelectionParams, SelectionPlanner } from '../resolve/selection';
import { scopeOf } from '../resolve/request-scope';
import type { GraphqlLimits } from '../resolve/link-page';
import type { DeclaredArguments } from './declared-arguments';

/** `Query.articles` → `api::article.article.find`: the action each generated resolver requires by default. */
export type DefaultActions = Map<string, string>;

interface OperationDeps {
  app: App;
  schemaModel: SchemaModel;
  planner: () => SelectionPlanner;
  limits: GraphqlLimits;
  extension: ExtensionService;
  actions: DefaultActions;
  /** Plugins' declared query parameters, as arguments (i18n's `locale`). */
  declared: DeclaredArguments;
}

type Args = Record<string, unknown>;
type WriteContext = { caller: Caller; params: Record<string, unknown> };

export function buildOperations(deps: OperationDeps): unknown[] {
  const types: unknown[] = [];
  for (const model of deps.schemaModel.contentTypes) {
    const settings = deps.extension.shadowCRUD(model.uid);
    const operations = new ModelOperations(deps, model);
    const enabled = (action: string) => settings.isActionEnabled(action);
    if (model.kind === 'singleType') {
      if (enabled('find')) types.push(operations.singleQuery());
      if (enabled('update') || enabled('delete')) types.push(operations.singleMutations(enabled));
    } else {
      if (enabled('find') || enabled('findOne')) types.push(operations.queries(enabled));
      if (enabled('create') || enabled('update') || enabled('delete')) types.push(operations.mutations(enabled));
    }
  }
  return types;
}

class ModelOperations {
  private readonly type: string;

  constructor(
    private readonly deps: OperationDeps,
    private readonly model: GraphqlModel,
  ) {
    this.type = model.typeName;
  }

  queries(enabled: (action: string) => boolean) {
    const { model, type } = this;
    return extendType({
      type: 'Query',
      definition: (t) => {
        if (enabled('findOne')) {
          this.declare(`Query.${model.singular}`, 'findOne');
          t.field(model.singular!, {
            type: names.entityResponse(type),
            args: { id: idArg(), ...this.declaredArgs('findOne') } as never,
            resolve: (_parent, args: Args, context: GraphQLContext, info) => this.findOne(args, context, info),
          });
        }
        if (enabled('find')) {
          this.declare(`Query.${model.plural}`, 'find');
          const args: Record<string, unknown> = {
            filters: arg({ type: names.filters(type) }),
            pagination: arg({ type: 'PaginationArg', default: {} }),
            sort: arg({ type: list('String'), default: [] }),
            ...this.declaredArgs('find'),
          };
          if (model.draftAndPublish) args.publicationState = arg({ type: 'PublicationState', default: 'live' });
          t.field(model.plural!, {
            type: names.entityResponseCollection(type),
            args: args as never,
            resolve: (_parent, args: Args, context: GraphQLContext, info) => this.find(args, context, info),
          });
        }
      },
    });
  }

  singleQuery() {
    const { model, type } = this;
    this.declare(`Query.${model.singular}`, 'find');
    const args: Record<string, unknown> = this.declaredArgs('find');
    if (model.draftAndPublish) args.publicationState = arg({ type: 'PublicationState', default: 'live' });
    return extendType({
      type: 'Query',
      definition: (t) => {
        t.field(model.singular!, {
          type: names.entityResponse(type),
          args: args as never,
          resolve: (_parent, args: Args, context: GraphQLContext, info) => this.findSingle(args, context, info),
        });
      },
    });
  }

  mutations(enabled: (action: string) => boolean) {
    const { type } = this;
    return extendType({
      type: 'Mutation',
      definition: (t) => {
        if (enabled('create')) {
          this.declare(`Mutation.create${type}`, 'create');
          t.field(`create${type}`, {
            type: names.entityResponse(type),
            args: { data: nonNull(arg({ type: names.input(type) })), ...this.declaredArgs('create') } as never,
            resolve: (_parent, args: Args, context: GraphQLContext, info) =>
              this.write('create', args, context, info, (params) => this.deps.app.contentOperations.create(this.model.uid, this.createData(args.data), params)),
          });
        }
        if (enabled('update')) {
          this.declare(`Mutation.update${type}`, 'update');
          t.field(`update${type}`, {
            type: names.entityResponse(type),
            args: { id: nonNull(idArg()), data: nonNull(arg({ type: names.input(type) })), ...this.declaredArgs('update') } as never,
            resolve: (_parent, args: Args, context: GraphQLContext, info) =>
              this.write('update', args, context, info, (params) => nullWhenAbsent(this.deps.app.contentOperations.update(this.model.uid, args.id, toRestData(plain(args.data)), params))),
          });
        }
        if (enabled('delete')) {
          this.declare(`Mutation.delete${type}`, 'delete');
          t.field(`delete${type}`, {
            type: names.entityResponse(type),
            args: { id: nonNull(idArg()), ...this.declaredArgs('delete') } as never,
            resolve: (_parent, args: Args, context: GraphQLContext, info) =>
              this.write('delete', args, context, info, (params) => nullWhenAbsent(this.deps.app.contentOperations.delete(this.model.uid, args.id, params))),
          });
        }
      },
    });
  }

  singleMutations(enabled: (action: string) => boolean) {
    const { type } = this;
    return extendType({
      type: 'Mutation',
      definition: (t) => {
        if (enabled('update')) {
          this.declare(`Mutation.update${type}`, 'update');
          t.field(`update${type}`, {
            type: names.entityResponse(type),
            args: { data: nonNull(arg({ type: names.input(type) })), ...this.declaredArgs('update') } as never,
            resolve: (_parent, args: Args, context: GraphQLContext, info) =>
              this.write('update', args, context, info, (params) => this.deps.app.contentOperations.upsertSingle(this.model.uid, toRestData(plain(args.data)), params)),
          });
        }
        if (enabled('delete')) {
          this.declare(`Mutation.delete${type}`, 'delete');
          t.field(`delete${type}`, {
            type: names.entityResponse(type),
            args: this.declaredArgs('delete') as never,
            resolve: (_parent, args: Args, context: GraphQLContext, info) =>
              this.write('delete', args, context, info, (params) => this.deps.app.contentOperations.deleteSingle(this.model.uid, params)),
          });
        }
      },
    });
  }

  /** Strapi v4's GraphQL creates drafts (REST publishes at once): without `publishedAt`, the entry is a draft. */
  private createData(data: unknown): unknown {
    const values = toRestData(plain(data)) as Record<string, unknown>;
    if (this.model.draftAndPublish && values && values.publishedAt === undefined) values.publishedAt = null;
    return values;
  }

  /** Arguments plugins declared for this operation (`locale`), each meaning what its REST parameter means. */
  private declaredArgs(action: Action): Args {
    return this.deps.declared.definitions(this.model.uid, action);
  }

  private declare(resolverKey: string, action: string): void {
    this.deps.actions.set(resolverKey, contentAction(this.model.uid, action));
  }

  private plan(info: GraphQLResolveInfo): { plan: SelectionParams; withMeta: boolean } {
    return this.deps.planner().keptForResponse(info.fieldNodes, this.model, { schema: info.schema, fragments: info.fragments, variables: info.variableValues });
  }

  /** A read's parameters; the filters of its populated selections are charged to the request here. */
  private readParams(action: Action, args: Args, context: GraphQLContext, plan: SelectionParams): Record<string, unknown> {
    const params: Record<string, unknown> = { fields: plan.fields, populate: plan.populate, ...this.deps.declared.values(this.model.uid, action, args) };
    if (args.publicationState !== undefined) {
      params.publicationState = args.publicationState;
      if (args.publicationState === 'preview') scopeOf(context).publicationState = 'preview';
    }
    scopeOf(context).filterBudget.charge({ populate: params.populate });
    return params;
  }

  private async find(args: Args, context: GraphQLContext, info: GraphQLResolveInfo) {
    const { plan, withMeta } = this.plan(info);
    const params = this.readParams('find', args, context, plan);
    if (args.filters) params.filters = toRestFilters(plain(args.filters), this.model, this.deps.schemaModel);
    if (Array.isArray(args.sort) && args.sort.length > 0) params.sort = [...args.sort];
    params.pagination = toRestPagination(args.pagination, withMeta);
    const { caller, budget, filterBudget } = scopeOf(context);
    filterBudget.charge({ filters: params.filters });
    const result = await this.deps.app.contentOperations.find(this.model.uid, { caller, budget, params, limits: this.deps.limits });
    return { data: result.results, meta: { pagination: pageMeta(result) } };
  }

  private async findOne(args: Args, context: GraphQLContext, info: GraphQLResolveInfo) {
    if (args.id === undefined || args.id === null) return { data: null };
    const { plan } = this.plan(info);
    const { caller, budget } = scopeOf(context);
    const params = this.readParams('findOne', args, context, plan);
    return this.orNull(() => this.deps.app.contentOperations.findOne(this.model.uid, args.id, { caller, budget, params }));
  }

  private async findSingle(args: Args, context: GraphQLContext, info: GraphQLResolveInfo) {
    const { plan } = this.plan(info);
    const { caller, budget } = scopeOf(context);
    const params = this.readParams('find', args, context, plan);
    return this.orNull(() => this.deps.app.contentOperations.findSingle(this.model.uid, { caller, budget, params }));
  }

  /** An absent entry is `{ data: null }`, as in Strapi, not an error. */
  private async orNull(read: () => Promise<unknown>) {
    try {
      return { data: await read() };
    } catch (error) {
      if (error instanceof NotFoundError) return { data: null };
      throw error;
    }
  }

  private async write(action: Action, args: Args, context: GraphQLContext, info: GraphQLResolveInfo, run: (context: WriteContext) => Promise<unknown>) {
    const { plan } = this.plan(info);
    const declared = this.deps.declared.values(this.model.uid, action, args);
    const data = await run({ caller: scopeOf(context).caller, params: { fields: plan.fields, populate: plan.populate, ...declared } });
    return { data };
  }
}

/**
 * An update or delete of an id that names no entry answers `{ data: null }`, not an error: Strapi's
 * resolvers return what its entity service returns, null (recorded from Strapi 4.26.2:
 * `{"data":{"deleteArticle":{"data":null}}}`). REST's routes keep their 404.
 */
async function nullWhenAbsent<T>(write: Promise<T>): Promise<T | null> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/** GraphQL always reports pages: offset pagination is shown as the page it amounts to. */
export function pageMeta(result: FindResult): { page: number; pageSize: number; pageCount: number; total: number } {
  const meta: PaginationMeta = result.pagination;
  const total = meta.total ?? 0;
  if ('start' in meta) {
    const limit = Math.max(1, meta.limit);
    return { page: Math.floor(meta.start / limit) + 1, pageSize: limit, pageCount: Math.ceil(total / limit), total };
  }
  return { page: meta.page, pageSize: meta.pageSize, pageCount: meta.pageCount ?? Math.ceil(total / meta.pageSize), total };
}
