/**
 * A TypeScript Strapi app runs from its build under Strapi (`dist/config/database.js`), and its files compute paths
 * from there: create-strapi-app's TypeScript database config puts SQLite at `path.join(__dirname, '..', '..',
 * '.tmp/data.db')`, the app's own `.tmp`. Tessera runs the sources, and gives each file of an app whose tsconfig
 * emits the `__dirname`/`__filename` of its built copy (loader/compiled-layout.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { App } from '@tessera/core';
import restPlugin from '@tessera/plugin-rest';

/** What create-strapi-app 4.26.2 writes for a TypeScript app (its tsconfig has comments and a trailing comma). */
const STRAPI_TSCONFIG = `{
  // Strapi's server settings
  "extends": "@strapi/typescript-utils/tsconfigs/server",
  "compilerOptions": { "outDir": "dist", "rootDir": ".", },
  "include": ["./", "./**/*.ts", "./**/*.js", "src/**/*.json"], /* what tsc compiles */
}`;
const DATABASE_TS = `import path from 'path';
export default ({ env }) => ({
  connection: { client: 'sqlite', connection: { filename: path.join(__dirname, '..', '..', env('DATABASE_FILENAME', '.tmp/data.db')) }, useNullAsDefault: true },
});
`;
/** A JavaScript file whose 'use strict' follows a comment: it must stay a directive. */
const PATHS_JS = `/** where this file thinks it is */
'use strict';
const { where } = require('../src/utils/where');
module.exports = { dir: __dirname, file: __filename, nested: where(), strict: (function () { return this === undefined; })() };
`;
const WHERE_TS = `export function where(): string {
  return __dirname;
}
`;

function appFolder(tsconfig: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-ts-layout-'));
  const files: Record<string, string> = { 'tsconfig.json': tsconfig, 'config/database.ts': DATABASE_TS, 'config/paths.js': PATHS_JS, 'src/utils/where.ts': WHERE_TS };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

async function boot(dir: string): Promise<App> {
  const app = new App({ dir, plugins: [restPlugin], config: { server: { host: '127.0.0.1', port: 0 }, admin: { apiToken: { salt: 'test-salt' } } } });
  await app.load();
  return app;
}

describe('a TypeScript Strapi app sees the paths of its build (__dirname, __filename)', () => {
  const made: string[] = [];
  after(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("keeps create-strapi-app's SQLite file in the app's .tmp, as `strapi start` does", async () => {
    const dir = appFolder(STRAPI_TSCONFIG);
    made.push(dir);
    const app = await boot(dir);
    try {
      expect(app.config.get('database.connection.connection.filename')).to.equal(path.join(dir, '.tmp', 'data.db'));
      expect(fs.existsSync(path.join(dir, '.tmp', 'data.db'))).to.equal(true);
      expect(app.config.get('paths')).to.deep.equal({
        dir: path.join(dir, 'dist', 'config'),
        file: path.join(dir, 'dist', 'config', 'paths.js'),
        nested: path.join(dir, 'dist', 'src', 'utils'),
        strict: true,
      });
    } finally {
      await app.destroy();
    }
  });

  it("keeps the source paths of an app whose tsconfig does not emit (Tessera's own template: noEmit)", async () => {
    const dir = appFolder('{ "compilerOptions": { "noEmit": true, "outDir": "dist" } }');
    made.push(dir);
    fs.writeFileSync(path.join(dir, 'config/database.ts'), DATABASE_TS.replace("'..', '..', ", "'..', "));
    const app = await boot(dir);
    try {
      expect(app.config.get('paths')).to.deep.include({ dir: path.join(dir, 'config'), nested: path.join(dir, 'src', 'utils'), strict: true });
      expect(fs.existsSync(path.join(dir, '.tmp', 'data.db'))).to.equal(true);
    } finally {
      await app.destroy();
    }
  });
});
