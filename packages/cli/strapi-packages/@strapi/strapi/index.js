'use strict';
// `tessera run` puts this folder on NODE_PATH: a script or Jest in a Tessera app (which does not install
// @strapi/strapi) finds Tessera's `@strapi/strapi`, the same module app code gets inside the kernel.
module.exports = require('@tessera/plugin-rest/dist/src/strapi-package');
