/**
 * The GraphQL plugin, in Strapi v4's plugin server format. Enabled with
 * `config/plugins.ts`: `{ graphql: { enabled: true, config: {...} } }`.
 *
 *   register   the `extension` service exists: apps and plugins call `use()` and `shadowCRUD()`
 *   before listening   the schema is built once (shadow CRUD + extensions), or at first use when not listening
 *   routes     POST/GET `<endpoint>`; the explorer page and its assets under it
 */
import type Koa from 'koa';
import type { GraphQLSchema } from 'graphql';
import { pluginState, type App, type KernelContext, type Plugin, type RouteConfig } from '@tessera/core';
import { ConfigurationError } from '@tessera/errors';
import { DEFAULT_CONFIG, isProduction, readConfig, validateConfig, warnIgnoredOptions, type GraphqlConfig } from './config';
import { ExtensionService } from './extension';
import { buildSchema, type BuiltSchema } from './schema/build-schema';
import { GraphqlEndpoint } from './http/endpoint';
import { Explorer } from './http/explorer';
import { limitRules } from './http/limits';
import { formatService } from './format';
import { buildersService, constantsService, internalsService, utilsService } from './strapi-helpers';
import { selectionService } from './selection-service';
import { uploadsService } from './uploads-service';

/** Per app: the extension service and, once built, the schema (with its model and planner). */
interface PluginState {
  extension: ExtensionService;
  /** Every register and bootstrap (the app's included) has had its say: the schema may be built. */
  bootstrapped: boolean;
  /** The schema once built, or why it could not be: built once either way, never again per request. */
  built?: BuiltSchema | { failed: unknown };
}

/** The kernel's one pattern for plugin state (plugin-state.ts): one object per app, found from the app. */
const stateOf = pluginState((): PluginState => ({ extension: new ExtensionService(), bootstrapped: false }));

/**
 * The schema, built on first need: before the server listens (`server:starting`, so a bad extension stops the start
 * before the port opens), or at the first query or `selection` call of an app loaded without listening. A command
 * that loads the app and serves nothing (`tessera webhooks list`) never builds it: the build was a quarter of
 * such a command's CPU.
 */
function builtOf(app: App): BuiltSchema {
  const state = stateOf(app);
  if (!state.built) {
    if (!state.bootstrapped) throw new ConfigurationError('graphql: the schema is built after the app bootstrap');
    const config = readConfig(app);
    try {
      state.built = buildSchema(app, state.extension, { shadowCRUD: config.shadowCRUD, limits: limitsOf(config) });
    } catch (error) {
      state.built = { failed: error };
    }
  }
  if ('failed' in state.built) throw state.built.failed;
  return state.built;
}

function schemaOf(app: App): GraphQLSchema {
  return builtOf(app).schema;
}

function limitsOf(config: GraphqlConfig) {
  return { defaultLimit: config.defaultLimit, maxLimit: config.maxLimit ?? config.amountLimit, withCount: true };
}

function routes({ app }: KernelContext): RouteConfig[] {
  const config = readConfig(app);
  const endpoint = new GraphqlEndpoint(app, () => schemaOf(app), {
    maxDocumentSize: config.maxDocumentSize,
    batchRequests: config.batchRequests,
    maxBatchSize: config.maxBatchSize,
    limitRules: limitRules({
      depthLimit: config.depthLimit,
      maxAliases: config.maxAliases,
      maxFields: config.maxFields,
      introspection: config.introspection ?? !isProduction(),
    }),
  });
  const explorer = new Explorer(config.endpoint);
  const explorerOn = config.playgroundAlways || !isProduction();
  const open = { auth: false } as const;
  // The endpoint, GET and POST alike, is authenticated by the kernel as Strapi 4.26.2 does it (before
  // anything else: a refused token, or an anonymous caller whose public role grants nothing, is a 401
  // in the REST envelope), and each field is authorized with the same decision (resolve/wrap-resolvers.ts).
  const perOperation = { auth: 'per-operation' } as const;
  const get = async (ctx: Koa.Context) => {
    if (explorerOn && ctx.accepts('application/json', 'text/html') === 'text/html' && ctx.query.query === undefined) {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = explorer.page();
      return;
    }
    await endpoint.handle(ctx);
  };
  const routes: RouteConfig[] = [
    { method: 'POST', path: config.endpoint, handler: (ctx) => endpoint.handle(ctx), config: perOperation },
    { method: 'GET', path: config.endpoint, handler: get, config: perOperation },
  ];
  if (explorerOn) {
    routes.push({
      method: 'GET',
      path: explorer.assetPath,
      config: open,
      handler: (ctx) => {
        const asset = explorer.asset(String(ctx.params.asset));
        if (!asset) return;
        ctx.type = asset.type;
        ctx.set('Cache-Control', 'public, max-age=86400');
        ctx.body = asset.body;
      },
    });
  }
  return routes;
}

export const graphqlPlugin: Plugin = {
  name: 'graphql',
  config: { default: { ...DEFAULT_CONFIG }, validator: validateConfig },
  services: {
    extension: ({ app }) => stateOf(app).extension,
    format: formatService,
    utils: ({ app }) => utilsService(app),
    constants: constantsService,
    internals: internalsService,
    builders: ({ app }) => buildersService(app),
    selection: ({ app }) => selectionService(() => builtOf(app)),
    uploads: uploadsService,
  },
  routes: { 'content-api': { type: 'raw', prefix: '', routes } },
  register({ app }) {
    const config = readConfig(app);
    warnIgnoredOptions(app, config);
    // The endpoint's multipart files are `Upload` values, meant to be stored: the kernel's body parser bounds them
    // by the app's upload size (declared by whichever plugin stores files) while streaming.
    app.bodyParsing.acceptUploads(config.endpoint);
    app.hooks.on('app:bootstrapped', () => {
      stateOf(app).bootstrapped = true;
    });
    app.hooks.on('server:starting', () => {
      builtOf(app);
    });
  },
};

export default graphqlPlugin;

export { ExtensionService, TypeSettings, FieldSettings } from './extension';
export type { ExtensionConfig, Extension, ExtensionContext, ResolverConfig, GraphQLContext } from './extension';
export type { GraphqlConfig } from './config';
export type { ReadParams, SelectionService } from './selection-service';
export { GraphqlUpload, UPLOAD_BRAND } from './upload';
export type {
  ContentTypeArgs,
  FilterOperator,
  FormatOptions,
  GraphqlArg,
  GraphqlAttribute,
  GraphqlBuilders,
  GraphqlConstants,
  GraphqlExtensionApi,
  GraphqlFormat,
  GraphqlInternals,
  GraphqlMappers,
  GraphqlModel,
  GraphqlNaming,
  GraphqlResolver,
  GraphqlServices,
  GraphqlUtils,
} from './contract';
export type { GraphqlUploads } from './uploads-service';
