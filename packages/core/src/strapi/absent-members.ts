/**
 * Members of Strapi 4.26.2's `Strapi` class that Tessera does not have. Each
 * becomes a getter on the app that throws an error naming it, why it is
 * absent and where the whole object is described, so server code written for
 * Strapi fails where it reaches for the member, not later with "x is not a
 * function" on an `undefined`. (Getters on the prototype, not a Proxy: the
 * members Tessera has cost nothing extra to reach.)
 */
import { ConfigurationError } from '@tessera/errors';

export const STRAPI_OBJECT_DOC = 'docs/extending.md, "The strapi object"';

/** Absent member → why. Keep in step with that page. */
export const ABSENT_MEMBERS: Record<string, string> = {
  container: "Tessera has no service container; use strapi.service(uid), strapi.plugin(name) and the registries",
  fs: 'Tessera does not write app or plugin files at run time',
  startupLogger: 'Tessera logs its own start-up line',
  entityValidator: 'validation is part of strapi.entityService writes',
  fetch: 'use the global fetch',
  features: 'Strapi feature flags do not apply',
  hook: "Strapi's internal hooks (strapi::content-types.beforeSync, …) do not exist; see app.hooks",
  sendStartupTelemetry: 'Tessera sends no telemetry',
  openAdmin: 'Tessera has no admin panel',
  postListen: 'internal to Strapi start-up',
  listen: 'use strapi.start()',
  stopWithError: 'internal to Strapi start-up; throw from register/bootstrap instead',
  stop: 'use strapi.destroy()',
  loadAdmin: 'Tessera has no admin panel',
  loadPlugins: 'internal to Strapi loading; strapi.load() does it',
  loadPolicies: 'internal to Strapi loading; strapi.load() does it',
  loadAPIs: 'internal to Strapi loading; strapi.load() does it',
  loadComponents: 'internal to Strapi loading; strapi.load() does it',
  loadMiddlewares: 'internal to Strapi loading; strapi.load() does it',
  loadApp: 'internal to Strapi loading; strapi.load() does it',
  loadSanitizers: 'internal to Strapi loading; strapi.load() does it',
  loadValidators: 'internal to Strapi loading; strapi.load() does it',
  registerInternalHooks: 'internal to Strapi loading',
  register: 'strapi.load() runs register and bootstrap',
  bootstrap: 'strapi.load() runs register and bootstrap',
  startWebhooks: 'webhook delivery starts with the app (docs/webhooks.md)',
  runLifecyclesFunctions: 'internal to Strapi loading; strapi.load() does it',
};

export function absentMemberError(name: string): ConfigurationError {
  return new ConfigurationError(`strapi.${name} is not available in Tessera: ${ABSENT_MEMBERS[name]} (see ${STRAPI_OBJECT_DOC})`);
}

/** Installs the throwing getters on a prototype, skipping any member it already has. */
export function installAbsentMembers(prototype: object): void {
  for (const name of Object.keys(ABSENT_MEMBERS)) {
    if (name in prototype) continue;
    Object.defineProperty(prototype, name, {
      configurable: true,
      enumerable: false,
      get() {
        throw absentMemberError(name);
      },
    });
  }
}
