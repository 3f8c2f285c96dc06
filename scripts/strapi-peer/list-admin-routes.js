#!/usr/bin/env node
/**
 * Lists the admin routes a community-edition Strapi 4.26.2 mounts, from the peer itself: loads the peer app (as
 * `strapi routes:list` does: no port opened) and writes its koa router's routes under the admin plugins' prefixes to
 * apps/example/test/admin-routes/strapi-4.26.2-ce-mounted.tsv (HEAD and the panel's own `GET /admin/:path*` left
 * out). The route table's test checks its reference list against it.
 *
 *   cd /tmp/strapi4-peer/strapi4-app && DATABASE_FILENAME=.tmp/<scratch>.db SERVE_ADMIN_PANEL=true NODE_ENV=production \
 *     node <repo>/scripts/strapi-peer/list-admin-routes.js
 */
const fs = require('node:fs');
const path = require('node:path');

const out = path.join(__dirname, '../../apps/example/test/admin-routes/strapi-4.26.2-ce-mounted.tsv');
const ADMIN_PREFIXES = /^\/(admin|content-manager|content-type-builder|content-releases|email|upload|users-permissions|i18n)(\/|$)/;
const HEADER = `# The admin routes a community-edition Strapi 4.26.2 mounts: the peer (shared/strapi4-peer, the plugins of a new
# Strapi app: admin, content-manager, content-type-builder, email, upload, users-permissions, i18n; no licence) loaded
# and its koa router listed (server.listRoutes()), HEAD left out, and the panel's own GET /admin/:path* too.
# columns: method, path
`;

async function main() {
  const Strapi = require(path.join(process.cwd(), 'node_modules/@strapi/strapi/dist/Strapi.js'));
  const app = await Strapi(await Strapi.compile()).load();
  const lines = [];
  for (const layer of app.server.mount().listRoutes()) {
    if (!ADMIN_PREFIXES.test(layer.path) || layer.path === '/admin/:path*') continue;
    for (const method of layer.methods) if (method !== 'HEAD') lines.push(`${method}\t${layer.path}`);
  }
  fs.writeFileSync(out, `${HEADER}\n${lines.join('\n')}\n`);
  console.log(`${lines.length} routes written to ${out}`);
  await app.destroy();
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
