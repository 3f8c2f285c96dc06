/**
 * The configured provider, created as Strapi v4's email plugin creates it:
 * `provider.init(providerOptions, settings)` of the package found for the
 * name (`@strapi/provider-email-<name>`, else `<name>`; core's
 * `providerPackage`). An unknown name stops the boot with Strapi's message.
 *
 * One exception: Strapi's default, `sendmail`, ships with Strapi
 * (`@strapi/plugin-email` depends on its package) but not with Tessera. When
 * the app neither installed it nor chose a provider, messages are logged
 * instead of sent, said once at boot: an app that never set up email keeps
 * booting, and nothing leaves the machine unasked.
 */
import { ConfigurationError } from '@tessera/errors';
import { providerPackage, type App, type ProviderModule } from '@tessera/core';
import type { EmailConfig, EmailMessage, EmailProvider } from './contract';

export function createProvider(app: App, config: EmailConfig, chosen: boolean): EmailProvider {
  const { provider, providerOptions, settings } = config;
  if (typeof provider === 'object' && provider !== null && typeof provider.init === 'function') return provider.init(providerOptions, settings);
  const name = String(provider).toLowerCase();
  let module: ProviderModule<EmailProvider> | undefined;
  try {
    module = providerPackage<EmailProvider>('email', name, app.dir);
  } catch (error) {
    throw new ConfigurationError(`Could not load email provider "${name}": ${(error as Error).message}`, 'config/plugins');
  }
  if (module) return module.init(providerOptions, settings);
  if (name === 'sendmail' && !chosen) {
    app.log.info('email: no provider is installed (Strapi\'s default, @strapi/provider-email-sendmail, is not); messages are logged, not sent');
    return loggingProvider(app);
  }
  throw new ConfigurationError(`Could not load email provider "${name}" (install @strapi/provider-email-${name} or a package named ${name})`, 'config/plugins');
}

function loggingProvider(app: App): EmailProvider {
  return {
    async send(message: EmailMessage) {
      app.log.info(`email (not sent, no provider): to ${JSON.stringify(message.to)}, subject ${JSON.stringify(message.subject)}`);
    },
  };
}
