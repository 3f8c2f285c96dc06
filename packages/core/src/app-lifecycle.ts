/**
 * The app's lifecycle (docs/architecture.md, "Lifecycle"): `load` (config, the HTTP server, the app's files, plugins
 * resolved and registered, the model validated, the database connected, bootstrap, routes mounted), `start` (listen)
 * and `destroy`, each once and in that order. It owns what the lifecycle makes — the HTTP server, the database, the
 * content operations — and the app reaches them through its getters (app.ts), which is all app.ts knows of it.
 */
import { ConfigurationError } from '@tessera/errors';
import { FILE_CONTENT_TYPE, FILE_UID, type Database, type DatabaseConfig, type LifecycleHandlers } from '@tessera/database';
import type { App } from './app-type';
import type { AppOptions } from './app-options';
import { restConfig } from './config/rest-config';
import { openDatabase } from './config/open-database';
import { getConfig, loadConfig, loadDotEnv, withAccessors, type ConfigTree } from './config/load-config';
import { loadApp, type LoadedApp } from './loader/load-app';
import { exposeToStrapiCode, withdrawFromStrapiCode } from './loader/strapi-global';
import { asFunction, asRouter } from './loader/app-entries';
import { validateModel } from './loader/validate-schema';
import { copyPlain } from './loader/content-type';
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
import { ConfigPermissions } from './auth/permissions';
import { API_TOKEN_CONTENT_TYPES, ApiTokens } from './auth/api-tokens';
import { adminApiTokenService } from './auth/admin-api-token-service';
import { pluginSettings, resolvePlugins } from './plugins/resolve-plugins';
import { registerPlugin } from './plugins/register-plugin';
import { applyExtensions } from './plugins/extensions';
import type { MiddlewareFactory, Plugin, PolicyFunction, Provider } from './types';
import { CORE_STORE_CONTENT_TYPE } from './strapi/core-store';
import type { CronTasks } from './strapi/cron';
import { StrapiServer } from './strapi/server';
import { fileReadingRequestContext } from './strapi/reads-request-context';
import { rootConfig, withStrapiDefaults } from './strapi/config-info';

export type LifecycleState = 'created' | 'loaded' | 'listening' | 'destroyed';

/** The operations the database's connection makes possible: what `app.entityService`, `app.contentOperations` and `app.apiTokens` answer. */
export interface AppOperations {
  entityService: EntityService;
  contentOperations: ContentApi;
  apiTokens: ApiTokens;
}

export class AppLifecycle {
  state: LifecycleState = 'created';
  http: HttpServer | undefined;
  strapiServer: StrapiServer | undefined;
  loadedApp: LoadedApp | undefined;
  database: Database | undefined;
  operations: AppOperations | undefined;
  listeningUrl: string | undefined;
  private loadStartedAt = 0; // "booted in" counts from here: config, plugins, schema sync, bootstrap and seed, listen
  private readonly registeredPlugins: Plugin[] = [];
  private readonly pendingLifecycles: Array<{ uid: string; handlers: LifecycleHandlers }> = [];
  private appRegistered = false;
  /** Folders of the Strapi plugin code the boot loaded (resolve-plugins.ts). */
  private pluginCodeFolders: string[] = [];

  constructor(
    private readonly app: App,
    private readonly options: AppOptions,
  ) {}

  /** Everything up to (not including) listening. */
  async load(): Promise<void> {
    if (this.state !== 'created') throw new ConfigurationError(`cannot load an app that is ${this.state}`);
    const started = (this.loadStartedAt = Date.now());
    exposeToStrapiCode(this.app);
    this.loadConfig();
    this.http = new HttpServer(
      {
        proxyHops: proxyHops(getConfig<unknown>(this.app.config, 'server.proxy', false)),
        shutdownTimeoutMs: Number(getConfig(this.app.config, 'server.shutdownTimeout', 10_000)),
        routeHintsUnder: (process.env.NODE_ENV ?? 'development') === 'development' ? restPrefix(this.app) : undefined,
      },
      this.app.log,
    );
    this.http.use(this.app.requestContext.middleware());
    this.strapiServer = new StrapiServer(this.app, this.http);
    this.loadedApp = loadApp(this.app.dir);
    this.registerAppFiles(this.loadedApp);
    for (const contentType of [...API_TOKEN_CONTENT_TYPES, CORE_STORE_CONTENT_TYPE]) this.app.contentTypes.add(contentType.uid, copyPlain(contentType));
    this.app.routes.add('global::health', healthRouter(this.app));
    if (openApiEnabled(this.app)) this.app.routes.add('global::openapi', openApiRouter(this.app));

    const { plugins, codeFolders } = resolvePlugins(this.app, this.options.plugins ?? []);
    this.pluginCodeFolders = codeFolders;
    const settings = pluginSettings(this.app);
    for (const plugin of plugins) {
      const extended = applyExtensions(this.app.dir, plugin, () => this.app.context);
      this.app.plugins.add(extended.name, extended);
      this.pendingLifecycles.push(...(await registerPlugin(this.app, extended, settings.get(extended.name) ?? {})).lifecycles);
    }
    // Media attributes need the file type; an upload plugin brings its own.
    if (!this.app.contentTypes.has(FILE_UID)) this.app.contentTypes.add(FILE_UID, copyPlain(FILE_CONTENT_TYPE));
    for (const plugin of this.app.plugins.values()) {
      this.registeredPlugins.push(plugin);
      await plugin.register?.(this.app.context);
    }
    this.appRegistered = true;
    await this.loadedApp.entry.register?.(this.app.context);
    await this.app.hooks.call('app:registered', this.app);

    this.app.customFields.resolveAttributes(this.app.contentTypes.values(), this.app.components.values());
    for (const repair of validateModel(this.app.contentTypes.values(), this.app.components.values())) this.app.log.warn(`${repair.uid}: ${repair.message}`);
    await this.connectDatabase();
    if (getConfig<unknown>(this.app.config, 'server.cron.enabled', true) !== false) this.app.cron.add(getConfig<CronTasks>(this.app.config, 'server.cron.tasks', {}));

    this.http.use(globalMiddlewares(this.app, this.http.router));
    for (const plugin of this.app.plugins.values()) await plugin.bootstrap?.(this.app.context);
    await this.loadedApp.entry.bootstrap?.(this.app.context);
    await this.app.hooks.call('app:bootstrapped', this.app);

    mountRouters(this.app, this.http.router);
    this.strapiServer!.markMounted();
    this.enableRequestContextIfRead();
    // Development only: a production root stays a plain 404.
    if (process.env.NODE_ENV === 'development') this.http.router.get('/', routeIndex(this.app, this.http.router, restPrefix(this.app)));
    this.http.finalize();
    this.app.cron.start();
    this.state = 'loaded';
    this.app.log.debug(`loaded in ${Date.now() - started} ms`);
  }

  /** Strapi code loaded by now that reads `strapi.requestContext` gets it from the first request (strapi/request-context.ts). */
  private enableRequestContextIfRead(): void {
    if (this.app.requestContext.enabled) return;
    const reader = fileReadingRequestContext([this.app.dir, ...this.pluginCodeFolders]);
    if (!reader) return;
    this.app.log.debug(`strapi.requestContext: on, ${reader} reads it`);
    this.app.requestContext.enable();
  }

  /** Loads (when needed) and listens on `server.host`/`server.port`. */
  async start(): Promise<void> {
    if (this.state === 'created') await this.load();
    await this.app.hooks.call('server:starting', this.app);
    const host = String(getConfig(this.app.config, 'server.host', '0.0.0.0'));
    const port = Number(getConfig(this.app.config, 'server.port', 1337));
    const actualPort = await this.http!.listen(port, host);
    // Port 0 (any free port): the config answers the chosen one, for `getAbsoluteServerUrl(strapi.config)` callers.
    if (port === 0) this.app.config.set('server.port', actualPort);
    this.listeningUrl = `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${actualPort}`;
    this.state = 'listening';
    await this.app.hooks.call('server:listening', this.app);
    this.app.log.info(`ready at ${this.listeningUrl} — database ${this.app.db.description} — booted in ${Date.now() - this.loadStartedAt} ms`);
  }

  /** Graceful stop, in reverse order of start. Safe to call twice. */
  async destroy(): Promise<void> {
    if (this.state === 'destroyed') return;
    this.state = 'destroyed';
    try {
      this.app.cron.destroy();
      await this.http?.close();
      if (this.appRegistered) {
        await this.app.hooks.call('app:destroy', this.app);
        await this.loadedApp?.entry.destroy?.(this.app.context);
      }
      for (const plugin of [...this.registeredPlugins].reverse()) await plugin.destroy?.(this.app.context);
    } finally {
      // The database closes even when a destroy handler throws: no open handle keeps the process alive.
      withdrawFromStrapiCode(this.app);
      await this.database?.destroy();
    }
  }

  private loadConfig(): void {
    loadDotEnv(this.app.dir);
    const tree: ConfigTree = { ...rootConfig(this.app.dir), ...loadConfig(this.app.dir, this.app.env) };
    // A section given in code is merged into the file's; a scalar (Strapi's top-level `autoReload`) replaces it.
    for (const [key, value] of Object.entries(this.options.config ?? {})) {
      tree[key] = typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(tree[key] as object), ...value } : value;
    }
    withStrapiDefaults(tree);
    this.app.config = withAccessors(tree);
    this.app.log = new Logger(process.env.TESSERA_LOG_LEVEL ?? getConfig(this.app.config, 'server.logger.level', 'info'));
    this.app.permissions.use(new ConfigPermissions(this.app.config.permissions));
  }

  private registerAppFiles(loaded: LoadedApp): void {
    for (const contentType of loaded.contentTypes) this.app.contentTypes.add(contentType.uid, contentType);
    for (const component of loaded.components) this.app.components.add(component.uid, component);
    for (const entry of loaded.controllers) this.app.controllers.add(entry.uid, entry.value as Provider<object>);
    for (const entry of loaded.services) this.app.services.add(entry.uid, entry.value as Provider<object>);
    for (const entry of loaded.policies) this.app.policies.add(entry.uid, asFunction(entry.value, entry.file) as PolicyFunction);
    for (const entry of loaded.middlewares) this.app.middlewares.add(entry.uid, asFunction(entry.value, entry.file) as MiddlewareFactory);
    for (const entry of loaded.routes) this.app.routes.add(entry.uid, asRouter(entry.value, entry.file));
    this.pendingLifecycles.push(...loaded.lifecycles);
  }

  private async connectDatabase(): Promise<void> {
    const model = { contentTypes: this.app.contentTypes.values(), components: this.app.components.values(), tables: this.app.tables.values() };
    this.database = await openDatabase(this.app.config.database as DatabaseConfig | undefined, this.app.dir, model, this.app.log);
    for (const { uid, handlers } of this.pendingLifecycles) this.database.lifecycles.subscribe({ models: [uid], ...handlers });
    await this.database.listenForWrites();
    await this.app.webhooks.connect(this.database);

    const announce = (name: ContentEventName, uid: string, entry: Parameters<typeof announceContentEvent>[3]) => announceContentEvent(this.app, name, uid, entry);
    const entityService = new EntityService(this.database, announce, this.app.queryParameters.values(), this.app.writeRules.values(), this.app.webhooks);
    const contentApi = new ContentApi(this.database, entityService, restConfig(this.app.config), this.app.queryParameters.values());
    const salt = getConfig<string | undefined>(this.app.config, 'admin.apiToken.salt', undefined) ?? this.app.env('API_TOKEN_SALT');
    const apiTokens = new ApiTokens(this.database, salt);
    this.app.authStrategies.add(apiTokens.name, apiTokens);
    this.app.services.add('admin::api-token', adminApiTokenService(this.database, apiTokens, this.app));
    this.operations = { entityService, contentOperations: contentApi, apiTokens };
  }
}
