/**
 * The services plugins offer each other, typed by declaration merging (as
 * fastify types its decorators): core declares the empty map, and a plugin's
 * entry point fills in its own part.
 *
 *   declare module '@tessera/core' {
 *     interface PluginServices {
 *       graphql: { extension: GraphqlExtensionApi };
 *     }
 *   }
 *
 * A plugin that imports the provider's types (`import type … from
 * '@tessera/plugin-graphql'`) then gets `app.plugin('graphql')!.service('extension')`
 * typed. A plugin or service nobody declared (every published Strapi plugin)
 * keeps Strapi's loose answer.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface PluginServices {}

/** The short names of the services a plugin declared (none for an undeclared plugin). */
export type DeclaredServiceName<P extends string> = P extends keyof PluginServices ? keyof PluginServices[P] & string : never;

/** The declared type of one plugin service. */
export type DeclaredService<P extends string, S extends string> = P extends keyof PluginServices
  ? S extends keyof PluginServices[P]
    ? PluginServices[P][S]
    : never
  : never;

/** `service(name)`: the declared type for a declared service; Strapi's loose object (or the caller's type) otherwise. */
export interface ServiceLookup<P extends string> {
  <S extends DeclaredServiceName<P>>(name: S): DeclaredService<P, S>;
  /** Any other name: `undefined` when the plugin has no such service, as on Strapi. */
  <T extends object = Record<string, unknown>>(name: string): T | undefined;
}
