/**
 * strapi-plugin-migrations: at bootstrap (`autoStart`) it runs each file of the
 * app's migrations folder named `v<number>…js` whose number is above the
 * version kept in the core store (`strapi.store`, plugin `migrations`, key
 * `version`), in ascending order, loading each with a dynamic `import()`, and
 * stores the last one's number, so a file runs once (the number is in the
 * database, kept across restarts). Its service can be called again by app code
 * (`service('migrations').migrations()`). Its README's example edits
 * users-permissions' `advanced` row: stored as on Strapi, but Tessera's
 * users-permissions reads its settings from config (README, users-permissions).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { TestApp } from '@tessera/testing';
import { ARTICLE_APP, type EcosystemSuite } from './article-app';

async function categoryNames(app: TestApp): Promise<string[]> {
  const rows = await app.app.db.query('api::category.category').findMany({ orderBy: { id: 'asc' } });
  return rows.map((row) => row.name as string);
}

function storedVersion(app: TestApp): Promise<unknown> {
  return app.app.store({ environment: '', type: 'plugin', name: 'migrations' }).get({ key: 'version' });
}

export const MIGRATIONS: EcosystemSuite = {
  title: 'strapi-plugin-migrations@1.0.5',
  // users-permissions as a Strapi app lists it: its bootstrap writes the `advanced` row the README's example edits.
  packages: { 'strapi-plugin-migrations': '1.0.5', '@strapi/plugin-users-permissions': '4.26.2' },
  files: {
    ...ARTICLE_APP,
    // Its README's configuration; the folder is given as an absolute path (it resolves it from the working directory,
    // which is the app's under `strapi start` and the test runner's here).
    'config/plugins.js': `const path = require('path');
module.exports = {
  migrations: { enabled: true, config: { autoStart: true, migrationFolderPath: path.join(__dirname, '..', 'migrations') } },
};
`,
    // Its README's example: code that runs once, with the global strapi (the core store, the entity service).
    'migrations/v1_seed_categories.js': `module.exports = async () => {
  for (const name of ['News', 'Sports']) await strapi.entityService.create('api::category.category', { data: { name } });
};
`,
    'migrations/v2_edit_reset_password_url.js': `module.exports = async () => {
  const pluginStore = strapi.store({ environment: '', type: 'plugin', name: 'users-permissions' });
  const values = await pluginStore.get({ key: 'advanced' });
  await pluginStore.set({ key: 'advanced', value: { ...values, email_reset_password: 'https://front.example.com/reset-password' } });
};
`,
    // Ran after v2 (its numbers compare as numbers, not as text).
    'migrations/v10_rename.js': `module.exports = async () => {
  await strapi.db.query('api::category.category').update({ where: { name: 'Sports' }, data: { name: 'Sport' } });
};
`,
    // Not a migration: no version in its name.
    'migrations/notes.js': `module.exports = async () => { throw new Error('not a migration'); };`,
  },
  tests: {
    'ran each versioned file once at bootstrap, in version order, and stored the last version': async (app) => {
      expect(await categoryNames(app)).to.deep.equal(['News', 'Sport']);
      expect(await storedVersion(app)).to.equal(10);
      const advanced = await app.app.store({ environment: '', type: 'plugin', name: 'users-permissions' }).get({ key: 'advanced' });
      expect(advanced).to.deep.include({ email_reset_password: 'https://front.example.com/reset-password', allow_register: true });
    },
    'a later call runs only the files above the stored version': async (app) => {
      const migrations = app.app.plugin('migrations')!.service<{ migrations(): Promise<void> }>('migrations')!;
      await migrations.migrations();
      expect(await categoryNames(app)).to.deep.equal(['News', 'Sport']);
      const folder = path.join(app.dir, 'migrations');
      fs.writeFileSync(path.join(folder, 'v11_more.js'), `module.exports = async () => { await strapi.query('api::category.category').create({ data: { name: 'Culture' } }); };`);
      await migrations.migrations();
      expect(await categoryNames(app)).to.deep.equal(['News', 'Sport', 'Culture']);
      expect(await storedVersion(app)).to.equal(11);
      // A failing file stops the run, keeps the version of the last one that ran, and is reported.
      fs.writeFileSync(path.join(folder, 'v12_broken.js'), `module.exports = async () => { throw new Error('broken'); };`);
      let failure: unknown;
      await migrations.migrations().catch((error: unknown) => (failure = error));
      expect((failure as Error).message).to.equal('Error during the migration');
      expect(await storedVersion(app)).to.equal(11);
    },
  },
};
