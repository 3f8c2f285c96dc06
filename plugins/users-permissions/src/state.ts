/**
 * Users-permissions' state in one app (the kernel's one pattern for plugin
 * state, `pluginState`): the JWT service (its secret), the role abilities
 * (the kernel's permission provider), the advanced settings' cache, the
 * mailer and the mails still being sent. Made when the plugin registers in
 * the app, with the app, and found again from the app by every part of the
 * plugin — lifecycle functions, factories, middlewares, and Strapi code that
 * calls them through `strapi-server` — so no closure of one plugin instance
 * holds an app's state.
 */
import { pluginState, type App } from '@tessera/core';
import type { AdvancedConfig, UsersPermissionsConfig } from './config';
import { DatabaseRateLimitStore } from './database-rate-limit-store';
import type { RateLimitStore } from './rate-limit';
import { resolveJwtSecret } from './secret';
import { grantSessionKey } from './oauth/grant-session';
import { AdvancedSettings } from './settings/advanced';
import { RoleAbilities } from './services/abilities';
import { createEmailService, type EmailService } from './services/email';
import { createJwtService, type JwtService } from './services/jwt';

export class UsersPermissionsState {
  readonly jwt: JwtService;
  /** Signs the third-party sign-in cookie (oauth/grant-session.ts), derived from the JWT secret. */
  readonly grantSessionKey: Buffer;
  readonly abilities: RoleAbilities;
  readonly settings: AdvancedSettings;
  private mailer: EmailService | undefined;
  private readonly pending = new Set<Promise<void>>();
  private readonly databaseStore: RateLimitStore;

  constructor(readonly app: App) {
    const configured = this.config();
    const secret = resolveJwtSecret({ appDir: app.dir, configured: configured.jwtSecret, env: process.env, log: app.log });
    this.jwt = createJwtService(secret, configured.jwt.expiresIn);
    this.grantSessionKey = grantSessionKey(secret);
    this.abilities = new RoleAbilities(app, () => this.config().permissionsCacheTtl);
    this.settings = new AdvancedSettings(app, () => this.config().advanced, () => this.config().permissionsCacheTtl);
    this.databaseStore = new DatabaseRateLimitStore(() => app);
  }

  config(): UsersPermissionsConfig {
    return this.app.config.get<UsersPermissionsConfig>('plugin.users-permissions');
  }

  /** The advanced settings as stored (the panel's Advanced settings page), cached until a write to the store. */
  advanced(): Promise<AdvancedConfig> {
    return this.settings.read();
  }

  /** The mailer, made on first use: through the email plugin's service when the app runs it (Strapi's users-permissions mails through it). */
  email(): EmailService {
    this.mailer ??= createEmailService(this.config().email, this.app.log, this.app.plugin('email')?.service('email'));
    return this.mailer;
  }

  /** Where rate-limit counters live: `ratelimit.store` from the config, else the app's database (shared by every process). */
  rateLimitStore(): RateLimitStore {
    return (this.config().ratelimit.store as RateLimitStore | undefined) ?? this.databaseStore;
  }

  /** Work done after the answer (mail); failures are logged, and `close` waits for it. */
  background(work: () => Promise<void>): void {
    const task = work()
      .catch((error) => this.app.log.error('users-permissions: background work failed', error))
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.pending]);
    this.mailer?.close();
  }
}

export const stateOf = pluginState((app) => new UsersPermissionsState(app));
