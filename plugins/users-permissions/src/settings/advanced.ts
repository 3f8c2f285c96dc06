/**
 * The "advanced settings" (Settings → Users & Permissions → Advanced settings), kept where Strapi v4 keeps them: the
 * core-store row `plugin_users-permissions_advanced`, in Strapi's shape (`unique_email`, `allow_register`, …).
 * Register, login, the JWT strategy and the mails read them from there, so a change in the panel (or by Strapi code
 * through `strapi.store`) takes effect at once, and a Strapi-made database's settings are honoured. The row is
 * written once, at the first boot, from the plugin's config (`advanced` in config/plugins): those values are the
 * defaults. `resetPasswordTokenTtl` has no place in Strapi's row and stays config.
 *
 * The JWT strategy reads the settings on every request, so they are cached as the roles' permissions are
 * (services/abilities.ts): a write to the core store empties the cache now and after its commit, another process's
 * write arrives through the database's committed-write notifications, and entries expire after
 * `permissionsCacheTtl` ms in any case.
 */
import type { App } from '@tessera/core';
import type { AdvancedConfig } from '../config';

/** Strapi 4.26.2's row (bootstrap's initAdvancedOptions; the panel's advanced-settings form). */
export interface StoredAdvancedSettings {
  unique_email: boolean;
  allow_register: boolean;
  email_confirmation: boolean;
  email_reset_password: string | null;
  email_confirmation_redirection: string | null;
  default_role: string;
}

/** The core store's model (core's strapi/core-store.ts): its writes are what invalidates the cache. */
const CORE_STORE_UID = 'strapi::core-store';

export const pluginStore = (app: App) => app.store({ type: 'plugin', name: 'users-permissions' });

export function toStored(advanced: AdvancedConfig): StoredAdvancedSettings {
  return {
    unique_email: advanced.uniqueEmail,
    allow_register: advanced.allowRegister,
    email_confirmation: advanced.emailConfirmation,
    email_reset_password: advanced.resetPasswordUrl,
    email_confirmation_redirection: advanced.emailConfirmationRedirection,
    default_role: advanced.defaultRole,
  };
}

/**
 * Writes the row from the config when there is none (first boot); an existing row is the settings and stays. A value
 * the config sets (not its default) that the row contradicts is named in a warning: before the panel, Tessera read
 * these settings from config, and an app changing them there now changes nothing.
 */
export async function writeAdvancedSettings(app: App, advanced: AdvancedConfig, defaults: AdvancedConfig): Promise<void> {
  const store = pluginStore(app);
  const row = await store.get({ key: 'advanced' });
  if (!row) {
    await store.set({ key: 'advanced', value: toStored(advanced) });
    return;
  }
  const stored = fromStored(row, advanced);
  const overridden = (Object.keys(toStored(advanced)) as Array<keyof StoredAdvancedSettings>)
    .map((key) => CONFIG_KEYS[key])
    .filter((key) => advanced[key] !== defaults[key] && stored[key] !== advanced[key]);
  if (overridden.length > 0) {
    app.log.warn(`users-permissions: the stored advanced settings (the admin panel's) apply, not config/plugins' advanced.${overridden.join(', advanced.')}: change them in the panel (Settings → Users & Permissions → Advanced settings)`);
  }
}

/** Which config key each of Strapi's row keys comes from. */
const CONFIG_KEYS: Record<keyof StoredAdvancedSettings, Exclude<keyof AdvancedConfig, 'resetPasswordTokenTtl'>> = {
  unique_email: 'uniqueEmail',
  allow_register: 'allowRegister',
  email_confirmation: 'emailConfirmation',
  email_reset_password: 'resetPasswordUrl',
  email_confirmation_redirection: 'emailConfirmationRedirection',
  default_role: 'defaultRole',
};

/**
 * The stored row read as Tessera's settings. Strapi tests the flags for truth (`if (!settings.allow_register)`), so
 * does this; a key the row lacks (a row some code wrote by hand) falls back to the config's value. A null reset URL
 * (Strapi's own default) stays empty, as Strapi's template prints it.
 */
export function fromStored(row: unknown, config: AdvancedConfig): AdvancedConfig {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) return config;
  const stored = row as Partial<Record<keyof StoredAdvancedSettings, unknown>>;
  const flag = (value: unknown, fallback: boolean) => (value === undefined ? fallback : Boolean(value));
  const text = (value: unknown, fallback: string) => (value === undefined ? fallback : value === null ? '' : String(value));
  return {
    uniqueEmail: flag(stored.unique_email, config.uniqueEmail),
    allowRegister: flag(stored.allow_register, config.allowRegister),
    emailConfirmation: flag(stored.email_confirmation, config.emailConfirmation),
    resetPasswordUrl: text(stored.email_reset_password, config.resetPasswordUrl),
    emailConfirmationRedirection: text(stored.email_confirmation_redirection, config.emailConfirmationRedirection),
    defaultRole: typeof stored.default_role === 'string' && stored.default_role !== '' ? stored.default_role : config.defaultRole,
    resetPasswordTokenTtl: config.resetPasswordTokenTtl,
  };
}

export class AdvancedSettings {
  private cached: { value: Promise<AdvancedConfig>; expiresAt: number } | undefined;

  constructor(
    private readonly app: App,
    private readonly config: () => AdvancedConfig,
    private readonly ttlMs: () => number,
  ) {}

  read(): Promise<AdvancedConfig> {
    const now = Date.now();
    if (this.cached && this.cached.expiresAt > now) return this.cached.value;
    const value = pluginStore(this.app)
      .get({ key: 'advanced' })
      .then((row) => fromStored(row, this.config()));
    // A failed read is not kept: the next caller tries again.
    value.catch(() => {
      if (this.cached?.value === value) this.cached = undefined;
    });
    this.cached = { value, expiresAt: now + this.ttlMs() };
    return value;
  }

  invalidate(): void {
    this.cached = undefined;
  }

  /** Any write to the core store empties the cache, now and once its transaction commits; other processes' too. */
  watchWrites(): void {
    const clear = async () => {
      this.invalidate();
      await this.app.db.sql.afterCommit(() => this.invalidate());
    };
    this.app.db.lifecycles.subscribe({ models: [CORE_STORE_UID], afterCreate: clear, afterUpdate: clear, afterDelete: clear });
    this.app.db.onCommittedWrite((uid) => {
      if (uid === CORE_STORE_UID || uid === '*') this.invalidate();
    });
  }
}
