/**
 * The application: registries, the services made from them, Strapi's `strapi.*` members, and a lifecycle
 * (app-lifecycle.ts; docs/architecture.md, "Lifecycle"), nothing more.
 * Tessera's code reads no global: this object is handed to plugins, factories,
 * policies and hooks explicitly (Strapi code also finds it as `global.strapi`).
 */
import type { UnlistedFileStore } from './files/unlisted-files';
import type { TypedEntityService } from './typings/entity-service';
import type { Common } from './typings/registry';
import path from 'node:path';
import { ConfigurationError } from '@tessera/errors';
import { Database, type Component, type ContentType, type EntityRepository, type TableDefinition } from '@tessera/database';
import { createEnv, type Env } from './config/env';
import { withAccessors, type AppConfig } from './config/load-config';
import { Registry } from './registries/registry';
import { ContentTypeRegistry } from './registries/content-type-registry';
import { Instances } from './registries/instances';
import { Hooks } from './hooks';
import { Logger } from './logger';
import { ContentApi } from './content/content-api';
import { BodyParsing } from './http/body-parsing';
import type { QueryParameter } from './content/query-parameters';
import type { WriteRule } from './content/write-rules';
import { ConfigPermissions, Permissions } from './auth/permissions';
import { ApiTokens } from './auth/api-tokens';
import { authenticate } from './auth/authenticate';
import { PluginHandle } from './plugins/plugin-handle';
import { Webhooks } from './webhooks/webhooks';
import type { AuthState, AuthStrategy, KernelContext, MiddlewareFactory, Plugin, PolicyFunction, Provider, RouterDefinition } from './types';
import { createCoreStore } from './strapi/core-store';
import { CronService } from './strapi/cron';
import { CustomFields } from './strapi/custom-fields';
import { StrapiServer } from './strapi/server';
import { apiModules, type ApiModule } from './strapi/apis';
import { createContentApiSurface, FunctionRegistry } from './strapi/content-api-surface';
import { createAdminSurface } from './strapi/admin';
import { authSurface } from './strapi/auth';
import { appDirs, type AppDirs } from './strapi/config-info';
import { installAbsentMembers } from './strapi/absent-members';
import { RequestContext } from './strapi/request-context';
import { createReload, type Reload } from './strapi/reload';
import type { AppOptions } from './app-options';
import { AppLifecycle, type AppOperations } from './app-lifecycle';
export type { AppOptions } from './app-options';

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

  readonly contentTypes = new ContentTypeRegistry();
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
  /** Stores for files kept outside the media library (files/unlisted-files.ts); the upload plugin registers `media`. */
  readonly fileStores = new Registry<UnlistedFileStore>('file store');
  /** Tables plugins own beside the content types (rate-limit counters), synced with them; declare them during `register`. */
  readonly tables = new Registry<TableDefinition>('table');
  /** What plugins declare about request bodies on their paths (self-parsed multipart, upload bounds), read by `strapi::body`. */
  readonly bodyParsing = new BodyParsing();
  /** Where the anonymous caller's permissions come from (see auth/permissions.ts). */
  readonly permissions = new Permissions(new ConfigPermissions(undefined));
  readonly hooks = new Hooks();
  /** Strapi v4's webhooks over a transactional outbox (webhooks/webhooks.ts). */
  readonly webhooks = new Webhooks(this);

  // Strapi v4's `strapi.*` services (packages/core/src/strapi/; docs/extending.md, "The strapi object").
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

  private readonly instances = new Instances(() => this.context);
  private readonly pluginHandles = new Map<string, PluginHandle>();
  /** Plugins whose `register` ran: only these get `destroy` (also after a failed boot). */
  /** Strapi's `strapi.requestContext`: the per-request store (strapi/request-context.ts). */
  readonly requestContext = new RequestContext();
  /** Strapi's `strapi.reload()`: a restart under `tessera develop`, refused elsewhere (strapi/reload.ts). */
  readonly reload: Reload;

  private readonly lifecycle: AppLifecycle;

  constructor(options: AppOptions) {
    this.dir = path.resolve(options.dir);
    this.reload = createReload(options.restart);
    this.lifecycle = new AppLifecycle(this, options);
  }

  /** What lifecycle functions and factories receive: the app, also under Strapi's name. */
  get context(): KernelContext {
    return { strapi: this, app: this };
  }

  get db(): Database {
    if (!this.lifecycle.database) throw new ConfigurationError('the database is not connected yet (use it from bootstrap on)');
    return this.lifecycle.database;
  }

  /** Typed by uid once the app's types are generated (typings/entity-service.ts); the loose signatures before. */
  get entityService(): TypedEntityService {
    return this.ready().entityService;
  }

  /** The content operations (find, create, …) every transport calls; `contentAPI` is Strapi's sanitize/validate. */
  get contentOperations(): ContentApi {
    return this.ready().contentOperations;
  }

  get apiTokens(): ApiTokens {
    return this.ready().apiTokens;
  }

  /** Strapi's `strapi.server` (strapi/server.ts): from the start of `load` on, so `register` can add middlewares and routes. */
  get server(): StrapiServer {
    if (!this.lifecycle.strapiServer) throw new ConfigurationError('the HTTP server exists once the app is loading');
    return this.lifecycle.strapiServer;
  }

  /** `strapi.api[name]`: one app API's routes, content types, services, controllers (strapi/apis.ts). */
  get api(): Record<string, ApiModule> {
    return apiModules(this);
  }

  /** `src/index`'s `{ register, bootstrap, destroy }`, as Strapi's `strapi.app`. */
  get app(): object | undefined {
    return this.lifecycle.loadedApp?.entry;
  }

  get isLoaded(): boolean {
    return this.lifecycle.state === 'loaded' || this.lifecycle.state === 'listening';
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
    return this.lifecycle.listeningUrl;
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

  /** Everything up to (not including) listening (app-lifecycle.ts). */
  async load(): Promise<this> {
    await this.lifecycle.load();
    return this;
  }

  /** Loads (when needed) and listens on `server.host`/`server.port`. */
  async start(): Promise<this> {
    await this.lifecycle.start();
    return this;
  }

  /** Graceful stop, in reverse order of start. Safe to call twice. */
  destroy(): Promise<void> {
    return this.lifecycle.destroy();
  }

  private ready(): AppOperations {
    if (!this.lifecycle.operations) throw new ConfigurationError('the app is not loaded yet');
    return this.lifecycle.operations;
  }

}

installAbsentMembers(App.prototype);
