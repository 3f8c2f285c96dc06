/**
 * The application: registries plus a lifecycle (docs/architecture.md, "Lifecycle"), nothing more.
 * Tessera's code reads no global: this object is handed to plugins, factories,
 * policies and hooks explicitly (Strapi code also finds it as `global.strapi`).
 */
import type { TypedEntityService } from './typings/entity-service';
import type { Common } from './typings/registry';
import path from 'node:path';
import { ConfigurationError } from '@tessera/errors';
import {
  Database,
  FILE_CONTENT_TYPE,
  FILE_UID,
  type Component,
  type ContentType,
  type DatabaseConfig,
  type EntityRepository,
  type LifecycleHandlers,
  type TableDefinition,
} from '@tessera/database';
import { createEnv, type Env } from './config/env';
import { restConfig } from './config/rest-config';
import { openDatabase } from './config/open-database';
import { getConfig, loadConfig, loadDotEnv, withAccessors, type AppConfig, type ConfigTree } from './config/load-config';
import { loadApp, type LoadedApp } from './loader/load-app';
import { exposeToStrapiCode, withdrawFromStrapiCode } from './loader/strapi-global';
import { asFunction, asRouter } from './loader/app-entries';
import { validateModel } from './loader/validate-schema';
import { copyPlain } from './loader/content-type';
import { Registry } from './registries/registry';
import { Instances } from './registries/instances';
import { Hooks } from './hooks';
import { Logger } from './logger';
import { HttpServer, proxyHops } from './http/server';
import { globalMiddlewares } from './http/middlewares/stack';
import { mountRouters, restPrefix } from './http/routes';
import { routeIndex } from './http/route-index';
import { openApiEnabled, openApiRouter } from './openapi/route';
import { healthRouter } from './http/health';
import { EntityService } from './content/entity-service';
import { ContentApi } from './content/content-api';
import { announceContentEvent, type ContentEventName } from './content/content-events';
import type { QueryParameter } from './content/query-parameters';
import type { WriteRule } from './content/write-rules';
import { ConfigPermissions, Permissions } from './auth/permissions';
import { API_TOKEN_CONTENT_TYPES, ApiTokens } from './auth/api-tokens';
import { adminApiTokenService } from './auth/admin-api-token-service';
import { authenticate } from './auth/authenticate';
import { pluginSettings, resolvePlugins } from './plugins/resolve-plugins';
import { registerPlugin } from './plugins/register-plugin';
import { applyExtensions } from './plugins/extensions';
import { PluginHandle } from './plugins/plugin-handle';
import { Webhooks } from './webhooks/webhooks';
import type { AuthState, AuthStrategy, KernelContext, MiddlewareFactory, Plugin, PolicyFunction, Provider, RouterDefinition } from './types';
import { CORE_STORE_CONTENT_TYPE, createCoreStore } from './strapi/core-store';
import { CronService, type CronTasks } from './strapi/cron';
import { CustomFields } from './strapi/custom-fields';
import { StrapiServer } from './strapi/server';
import { apiModules, type ApiModule } from './strapi/apis';
import { createContentApiSurface, FunctionRegistry } from './strapi/content-api-surface';
import { createAdminSurface } from './strapi/admin';
import { authSurface } from './strapi/auth';
import { appDirs, rootConfig, withStrapiDefaults, type AppDirs } from './strapi/config-info';
import { installAbsentMembers } from './strapi/absent-members';
import { RequestContext } from './strapi/request-context';
import { createReload, type Reload } from './strapi/reload';
import type { AppOptions } from './app-options';
export type { AppOptions } from './app-options';
type LifecycleState = 'created' | 'loaded' | 'listening' | 'destroyed';

// app-type.ts's `App` is this class for the modules this one imports (no cycle); the alias: `App` inside means that one.
type AppInstance = App;
declare module './app-type' {
  interface App extends AppInstance {}
}

export class App {
  readonly dir: string;
  readonly env: Env = createEnv();
  config: AppConfig = withAccessors({});
  log = new Logger(process.env.TESSERA_LOG_LEVEL);

  readonly contentTypes = new Registry<ContentType>('content type');
  readonly components = new Registry<Component>('component');
  // Strapi code reads `strapi.services[uid]` and `strapi.plugins.x.services.y` as instances (registry.ts).
  readonly services = new Registry<Provider<object>>('service', (uid) => this.service(uid));
  readonly controllers = new Registry<Provider<object>>('controller', (uid) => this.controller(uid));
  readonly routes = new Registry<RouterDefinition>('router');
  readonly policies = new Registry<PolicyFunction>('policy');
  readonly middlewares = new Registry<MiddlewareFactory>('middleware');
  readonly plugins = new Registry<Plugin>('plugin', (name) => this.plugin(name));
  readonly authStrategies = new Registry<AuthStrategy>('auth strategy');
  /** Strapi's strategies of type `admin`: the only ones that authenticate admin routes (auth/authenticate.ts). */
  readonly adminAuthStrategies = new Registry<AuthStrategy>('admin auth strategy');
  /** Content-API query parameters plugins add (`locale`); declare them during `register`. */
  readonly queryParameters = new Registry<QueryParameter>('query parameter');
  /** Rules plugins add to the writes of some content types (i18n's localizations); declare them during `register`. */
  readonly writeRules = new Registry<WriteRule>('write rule');
  /** Tables plugins own beside the content types (rate-limit counters), synced with them; declare them during `register`. */
  readonly tables = new Registry<TableDefinition>('table');
  /** Where the anonymous caller's permissions come from (see auth/permissions.ts). */
  readonly permissions = new Permissions(new ConfigPermissions(undefined));
  readonly hooks = new Hooks();
  /** Strapi v4's webhooks over a transactional outbox (webhooks/webhooks.ts). */
  readonly webhooks = new Webhooks(this);

  // Strapi v4's `strapi.*` services (packages/core/src/strapi/; README "The strapi object").
  readonly store = createCoreStore(() => this.db);
  readonly cron = new CronService(() => this.context);
  readonly customFields = new CustomFields((name) => this.plugins.has(name));
  readonly sanitizers = new FunctionRegistry();
  readonly validators = new FunctionRegistry();
  readonly contentAPI = createContentApiSurface(() => this.db, this.sanitizers, this.validators);
  readonly admin = createAdminSurface();
  readonly auth = authSurface;
  /** Strapi's Enterprise flag (never) and telemetry (a no-op: Tessera sends nothing). */
  readonly EE = false;
  readonly telemetry = { isDisabled: true, register() {}, bootstrap() {}, destroy() {}, send: async () => true };

  private state: LifecycleState = 'created';
  private readonly instances = new Instances(() => this.context);
  private readonly pluginHandles = new Map<string, PluginHandle>();
  private loadedApp: LoadedApp | undefined;
  /** Plugins whose `register` ran: only these get `destroy` (also after a failed boot). */
  private registeredPlugins: Plugin[] = [];
  private pendingLifecycles: Array<{ uid: string; handlers: LifecycleHandlers }> = [];
  private appRegistered = false;
  private database: Database | undefined;
  private http: HttpServer | undefined;
  private strapiServer: StrapiServer | undefined;
  private services_: { entityService: EntityService; contentApi: ContentApi; apiTokens: ApiTokens } | undefined;
  private listeningUrl: string | undefined;
  private loadStartedAt = 0; // "booted in" counts from here: config, plugins, schema sync, bootstrap and seed, listen
  /** Strapi's `strapi.requestContext`: the per-request store (strapi/request-context.ts). */
  readonly requestContext = new RequestContext();
  /** Strapi's `strapi.reload()`: a restart under `tessera develop`, refused elsewhere (strapi/reload.ts). */
  readonly reload: Reload;

  constructor(private readonly options: AppOptions) {
    this.dir = path.resolve(options.dir);
    this.reload = createReload(options.restart);
  }

  /** What lifecycle functions and factories receive: the app, also under Strapi's name. */
  get context(): KernelContext {
    return { strapi: this, app: this };
  }

  get db(): Database {
    if (!this.database) throw new ConfigurationError('the database is not connected yet (use it from bootstrap on)');
    return this.database;
  }

  /** Typed by uid once the app's types are generated (typings/entity-service.ts); the loose signatures before. */
  get entityService(): TypedEntityService {
    return this.ready().entityService;
  }

  get contentApi(): ContentApi {
    return this.ready().contentApi;
  }

  get apiTokens(): ApiTokens {
    return this.ready().apiTokens;
  }

  /** Strapi's `strapi.server` (strapi/server.ts): from the start of `load` on, so `register` can add middlewares and routes. */
  get server(): StrapiServer {
    if (!this.strapiServer) throw new ConfigurationError('the HTTP server exists once the app is loading');
    return this.strapiServer;
  }

  /** `strapi.api[name]`: one app API's routes, content types, services, controllers (strapi/apis.ts). */
  get api(): Record<string, ApiModule> {
    return apiModules(this);
  }

  /** `src/index`'s `{ register, bootstrap, destroy }`, as Strapi's `strapi.app`. */
  get app(): object | undefined {
    return this.loadedApp?.entry;
  }

  get isLoaded(): boolean {
    return this.state === 'loaded' || this.state === 'listening';
  }

  /** Strapi's `strapi.dirs`: where the app's folders are. */
  get dirs(): AppDirs {
    return appDirs(this.dir);
  }

  /** A content type or component by uid, undefined when none (Strapi's `getModel`). */
  getModel(uid: string): ContentType | Component | undefined {
    return this.contentTypes.find(uid) ?? this.components.find(uid);
  }

  /** Strapi v4's `strapi.eventHub`. */
  get eventHub(): Webhooks['eventHub'] {
    return this.webhooks.eventHub;
  }

  /** Strapi v4's `strapi.webhookRunner`. */
  get webhookRunner(): Webhooks['runner'] {
    return this.webhooks.runner;
  }

  /** Strapi v4's `strapi.webhookStore`. */
  get webhookStore(): Webhooks['store'] {
    return this.webhooks.store;
  }

  get url(): string | undefined {
    return this.listeningUrl;
  }

  /** Strapi v4's `strapi.query(uid)`: the same as `app.db.query(uid)`. */
  query(uid: Common.UID.ContentType): EntityRepository {
    return this.db.query(uid);
  }

  /**
   * One plugin's services, controllers, content types and config by short name; `undefined`
   * when it is not enabled (Strapi code tests `if (strapi.plugin('graphql'))`). The same
   * handle on every call.
   */
  plugin<P extends string>(name: P): PluginHandle<P> | undefined {
    if (!this.plugins.has(name)) return undefined;
    const handle = this.pluginHandles.get(name) ?? new PluginHandle(this, name);
    this.pluginHandles.set(name, handle);
    return handle as PluginHandle<P>;
  }

  /** `undefined` for an unknown uid, as Strapi's: plugins probe for optional types so (the kernel uses contentTypes.get). */
  contentType(uid: string): ContentType | undefined {
    return this.contentTypes.find(uid);
  }

  /** Instantiated service (`api::article.article`, `plugin::x.y`); `undefined` for an unknown uid, as Strapi's. */
  service<T extends object = Record<string, unknown>>(uid: string): T | undefined {
    if (!this.services.has(uid)) return undefined;
    return this.instances.of('service', uid, this.services) as T;
  }

  controller<T extends object = Record<string, unknown>>(uid: string): T | undefined {
    if (!this.controllers.has(uid)) return undefined;
    return this.instances.of('controller', uid, this.controllers) as T;
  }

  policy(uid: string): PolicyFunction {
    return this.policies.get(uid);
  }

  middleware(uid: string): MiddlewareFactory {
    return this.middlewares.get(uid);
  }

  /** Who is calling, from an Authorization header value. */
  authenticate(header: string | undefined): Promise<AuthState> {
    return authenticate(header, this.authStrategies.values(), () => this.permissions.publicAbility());
  }

  /** Everything up to (not including) listening. */
  async load(): Promise<this> {
    if (this.state !== 'created') throw new ConfigurationError(`cannot load an app that is ${this.state}`);
    const started = (this.loadStartedAt = Date.now());
    exposeToStrapiCode(this);
    this.loadConfig();
    this.http = new HttpServer(
      {
        proxyHops: proxyHops(getConfig<unknown>(this.config, 'server.proxy', false)),
        shutdownTimeoutMs: Number(getConfig(this.config, 'server.shutdownTimeout', 10_000)),
        routeHintsUnder: (process.env.NODE_ENV ?? 'development') === 'development' ? restPrefix(this) : undefined,
      },
      this.log,
    );
    this.http.use(this.requestContext.middleware());
    this.strapiServer = new StrapiServer(this, this.http);
    this.loadedApp = loadApp(this.dir);
    this.registerAppFiles(this.loadedApp);
    for (const contentType of [...API_TOKEN_CONTENT_TYPES, CORE_STORE_CONTENT_TYPE]) this.contentTypes.add(contentType.uid, copyPlain(contentType));
    this.routes.add('global::health', healthRouter(this));
    if (openApiEnabled(this)) this.routes.add('global::openapi', openApiRouter(this));

    const plugins = resolvePlugins(this, this.options.plugins ?? []);
    const settings = pluginSettings(this);
    for (const plugin of plugins) {
      const extended = applyExtensions(this.dir, plugin, () => this.context);
      this.plugins.add(extended.name, extended);
      this.pendingLifecycles.push(...(await registerPlugin(this, extended, settings.get(extended.name) ?? {})).lifecycles);
    }
    // Media attributes need the file type; an upload plugin brings its own.
    if (!this.contentTypes.has(FILE_UID)) this.contentTypes.add(FILE_UID, copyPlain(FILE_CONTENT_TYPE));
    for (const plugin of this.plugins.values()) {
      this.registeredPlugins.push(plugin);
      await plugin.register?.(this.context);
    }
    this.appRegistered = true;
    await this.loadedApp.entry.register?.(this.context);
    await this.hooks.call('app:registered', this);

    this.customFields.resolveAttributes(this.contentTypes.values(), this.components.values());
    for (const repair of validateModel(this.contentTypes.values(), this.components.values())) this.log.warn(`${repair.uid}: ${repair.message}`);
    await this.connectDatabase();
    if (getConfig<unknown>(this.config, 'server.cron.enabled', true) !== false) this.cron.add(getConfig<CronTasks>(this.config, 'server.cron.tasks', {}));

    this.http.use(globalMiddlewares(this, this.http.router));
    for (const plugin of this.plugins.values()) await plugin.bootstrap?.(this.context);
    await this.loadedApp.entry.bootstrap?.(this.context);
    await this.hooks.call('app:bootstrapped', this);

    mountRouters(this, this.http.router);
    this.strapiServer!.markMounted();
    // Development only: a production root stays a plain 404.
    if (process.env.NODE_ENV === 'development') this.http.router.get('/', routeIndex(this, this.http.router, restPrefix(this)));
    this.http.finalize();
    this.cron.start();
    this.state = 'loaded';
    this.log.debug(`loaded in ${Date.now() - started} ms`);
    return this;
  }

  /** Loads (when needed) and listens on `server.host`/`server.port`. */
  async start(): Promise<this> {
    if (this.state === 'created') await this.load();
    const host = String(getConfig(this.config, 'server.host', '0.0.0.0'));
    const port = Number(getConfig(this.config, 'server.port', 1337));
    const actualPort = await this.http!.listen(port, host);
    // Port 0 (any free port): the config answers the chosen one, for `getAbsoluteServerUrl(strapi.config)` callers.
    if (port === 0) this.config.set('server.port', actualPort);
    this.listeningUrl = `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${actualPort}`;
    this.state = 'listening';
    await this.hooks.call('server:listening', this);
    this.log.info(`ready at ${this.listeningUrl} — database ${this.db.description} — booted in ${Date.now() - this.loadStartedAt} ms`);
    return this;
  }

  /** Graceful stop, in reverse order of start. Safe to call twice. */
  async destroy(): Promise<void> {
    if (this.state === 'destroyed') return;
    this.state = 'destroyed';
    try {
      this.cron.destroy();
      await this.http?.close();
      if (this.appRegistered) {
        await this.hooks.call('app:destroy', this);
        await this.loadedApp?.entry.destroy?.(this.context);
      }
      for (const plugin of [...this.registeredPlugins].reverse()) await plugin.destroy?.(this.context);
    } finally {
      // The database closes even when a destroy handler throws: no open handle keeps the process alive.
      withdrawFromStrapiCode(this);
      await this.database?.destroy();
    }
  }

  private ready() {
    if (!this.services_) throw new ConfigurationError('the app is not loaded yet');
    return this.services_;
  }

  private loadConfig(): void {
    loadDotEnv(this.dir);
    const tree: ConfigTree = { ...rootConfig(this.dir), ...loadConfig(this.dir, this.env) };
    for (const [key, value] of Object.entries(this.options.config ?? {})) tree[key] = { ...(tree[key] as object), ...(value as object) };
    withStrapiDefaults(tree);
    this.config = withAccessors(tree);
    this.log = new Logger(process.env.TESSERA_LOG_LEVEL ?? getConfig(this.config, 'server.logger.level', 'info'));
    this.permissions.use(new ConfigPermissions(this.config.permissions));
  }

  private registerAppFiles(loaded: LoadedApp): void {
    for (const contentType of loaded.contentTypes) this.contentTypes.add(contentType.uid, contentType);
    for (const component of loaded.components) this.components.add(component.uid, component);
    for (const entry of loaded.controllers) this.controllers.add(entry.uid, entry.value as Provider<object>);
    for (const entry of loaded.services) this.services.add(entry.uid, entry.value as Provider<object>);
    for (const entry of loaded.policies) this.policies.add(entry.uid, asFunction(entry.value, entry.file) as PolicyFunction);
    for (const entry of loaded.middlewares) this.middlewares.add(entry.uid, asFunction(entry.value, entry.file) as MiddlewareFactory);
    for (const entry of loaded.routes) this.routes.add(entry.uid, asRouter(entry.value, entry.file));
    this.pendingLifecycles.push(...loaded.lifecycles);
  }

  private async connectDatabase(): Promise<void> {
    const model = { contentTypes: this.contentTypes.values(), components: this.components.values(), tables: this.tables.values() };
    this.database = await openDatabase(this.config.database as DatabaseConfig | undefined, this.dir, model, this.log);
    for (const { uid, handlers } of this.pendingLifecycles) this.database.lifecycles.subscribe({ models: [uid], ...handlers });
    await this.database.listenForWrites();
    await this.webhooks.connect(this.database);

    const announce = (name: ContentEventName, uid: string, entry: Parameters<typeof announceContentEvent>[3]) => announceContentEvent(this, name, uid, entry);
    const entityService = new EntityService(this.database, announce, this.queryParameters.values(), this.writeRules.values(), this.webhooks);
    const contentApi = new ContentApi(this.database, entityService, restConfig(this.config), this.queryParameters.values());
    const salt = getConfig<string | undefined>(this.config, 'admin.apiToken.salt', undefined) ?? this.env('API_TOKEN_SALT');
    const apiTokens = new ApiTokens(this.database, salt);
    this.authStrategies.add(apiTokens.name, apiTokens);
    this.services.add('admin::api-token', adminApiTokenService(this.database, apiTokens));
    this.services_ = { entityService, contentApi, apiTokens };
  }
}

installAbsentMembers(App.prototype);
