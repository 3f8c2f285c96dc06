/**
 * Strapi v4 keeps users-permissions' "advanced settings" in the core store
 * (`plugin_users-permissions_advanced`), written at its first boot, and
 * Strapi code reads them there: a passwordless or magic-link plugin takes the
 * role of the users it creates from `default_role`. Tessera's settings are
 * config (config.ts); at bootstrap, when the row is absent, it is written
 * from that config in Strapi's shape, so such code finds them. A row that
 * exists (a Strapi-made database, or an earlier boot) is left as it is:
 * it is Strapi's data, and Tessera itself reads only its config.
 */
import type { App } from '@tessera/core';
import type { AdvancedConfig } from './config';

export async function writeAdvancedSettings(app: App, advanced: AdvancedConfig): Promise<void> {
  const store = app.store({ type: 'plugin', name: 'users-permissions' });
  if (await store.get({ key: 'advanced' })) return;
  await store.set({
    key: 'advanced',
    value: {
      unique_email: advanced.uniqueEmail,
      allow_register: advanced.allowRegister,
      email_confirmation: advanced.emailConfirmation,
      email_reset_password: advanced.resetPasswordUrl,
      email_confirmation_redirection: advanced.emailConfirmationRedirection,
      default_role: advanced.defaultRole,
    },
  });
}
