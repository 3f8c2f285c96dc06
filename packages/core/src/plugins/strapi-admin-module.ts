/**
 * `require('@strapi/plugin-<name>/strapi-admin')` for the Strapi plugins Tessera implements (load-module.ts): on
 * Strapi it is the admin-panel half of the plugin, `{ register, bootstrap, registerTrads }`, which plugins' server
 * code sometimes requires. Tessera serves no admin panel, so each does nothing.
 */
const adminPanelPlugin = {
  register(): void {},
  bootstrap(): void {},
  async registerTrads(): Promise<unknown[]> {
    return [];
  },
};

export = adminPanelPlugin;
