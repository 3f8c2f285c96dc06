/**
 * The app's type, for the kernel's own modules. `app.ts` imports most of
 * them (registries, HTTP, plugins, webhooks…) while they take the app as a
 * parameter: naming `App` through this module, which imports nothing, keeps
 * the module graph free of cycles. `app.ts` fills this interface in by
 * declaration merging (`declare module './app-type'`: it extends the class),
 * the mechanism plugins use for `PluginServices`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface App {}
