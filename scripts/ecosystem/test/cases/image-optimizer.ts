/**
 * strapi-plugin-image-optimizer replaces the upload's image-manipulation
 * service through `src/extensions/upload/strapi-server.ts`, its README's
 * TypeScript verbatim (an ES `import` of its compiled service, whose default
 * export spreads Strapi's factory, taken bare from
 * `@strapi/plugin-upload/strapi-server`, and replaces
 * `generateResponsiveFormats`). Its config validator is async (a yup
 * schema's `validate`): awaited, a wrong config stops the boot naming the
 * plugin.
 *
 * Not shown: the formats it makes. Its sharp pipeline sets `.heif({ quality })`
 * without `compression`, which sharp 0.33 and later refuse ("Expected one of:
 * av1, hevc for compression"): it needs the sharp 0.32.6 a Strapi 4.26.2 app
 * has through @strapi/plugin-upload (it does not declare sharp), whose binary
 * comes only from an install script, which this suite does not run.
 */
import path from 'node:path';
import { expect } from 'chai';
import { bootError } from '@tessera/testing';
import type { EcosystemSuite } from './article-app';

/** Its README's example config, smaller: two formats, three sizes (fit, position, withoutEnlargement), a 2x resolution. */
const CONFIG = {
  include: ['jpeg', 'jpg', 'png'],
  exclude: ['gif'],
  formats: ['original', 'webp'],
  sizes: [
    { name: 'xs', width: 300 },
    { name: 'sq', width: 100, height: 100, fit: 'cover', position: 'top' },
    { name: 'xl', width: 2840, withoutEnlargement: true },
  ],
  additionalResolutions: [2],
  quality: 70,
};

const pluginsFile = (config: object) => `module.exports = () => ({
  upload: { enabled: true },
  'image-optimizer': { enabled: true, config: ${JSON.stringify(config)} },
});
`;

const FILES = {
  'config/plugins.js': pluginsFile(CONFIG),
  // Its README's extension, verbatim (TypeScript).
  'src/extensions/upload/strapi-server.ts': `// ./src/extensions/upload/strapi-server.ts

import imageOptimizerService from "strapi-plugin-image-optimizer/dist/server/services/image-optimizer-service";

module.exports = (plugin) => {
  plugin.services["image-manipulation"] = imageOptimizerService;
  return plugin;
};
`,
};

export const IMAGE_OPTIMIZER: EcosystemSuite = {
  title: 'strapi-plugin-image-optimizer@2.2.1',
  // yup is its peer (its config schema; ^1.4.0, but the suite's one install holds the 0.32.9 another case pins, whose
  // object/array/mixed/number API and messages the schema uses alike); sharp (which it requires undeclared) and @strapi/utils come with a Strapi app.
  packages: { 'strapi-plugin-image-optimizer': '2.2.1', yup: '0.32.9', sharp: '0.33.5', '@strapi/utils': '4.26.2' },
  files: FILES,
  tests: {
    "boots with its README's config: the upload's image-manipulation service is its own, its config is the app's": async (app) => {
      const service = app.app.plugin('upload')!.service<Record<string, unknown>>('image-manipulation')!;
      expect((service.generateResponsiveFormats as { name: string }).name).to.equal('optimizeImage');
      // Strapi's functions, spread from the bare factory, are there beside it.
      expect(Object.keys(service).sort()).to.include.members(['getDimensions', 'generateThumbnail', 'optimize', 'isImage', 'resizeFileTo']);
      expect(app.app.config.get('plugin.image-optimizer')).to.deep.equal(CONFIG);
    },
    'its async validator refuses a wrong config: the boot stops naming the plugin': async (app) => {
      // The validator runs before any database is opened: one boot on SQLite shows it.
      const error = await bootError({
        dialect: 'sqlite',
        nodeModules: path.join(app.dir, 'node_modules'),
        files: { 'package.json': { name: 'ecosystem-app', private: true, dependencies: { 'strapi-plugin-image-optimizer': '2.2.1' } }, ...FILES, 'config/plugins.js': pluginsFile({ ...CONFIG, quality: 200 }) },
      });
      expect(error.message).to.equal('config/plugins: plugin "image-optimizer" has an invalid config: quality must be less than or equal to 100');
    },
  },
};
