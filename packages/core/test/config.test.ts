/**
 * Configuration: `config/*.ts` with `env()`, environment variables winning
 * over defaults and over `.env`, and `config/env/<NODE_ENV>/` merged on top.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { App, createEnv } from '@tessera/core';
import restPlugin from '@tessera/plugin-rest';
import { bootError, createDatabase, databaseConnection, dropDatabase, eachDatabase, startApp } from '@tessera/testing';

const NOTE_SCHEMA = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: false },
  attributes: { title: { type: 'string' } },
};
const NOTE_FILES = { 'src/api/note/content-types/note/schema.json': NOTE_SCHEMA };
const PUBLIC_NOTES = { 'config/permissions.ts': `export default { public: ['api::note.note.find'] };` };

/** Sets environment variables for one test and restores them afterwards. */
function withEnv(values: Record<string, string | undefined>): () => void {
  const previous = Object.fromEntries(Object.keys(values).map((key) => [key, process.env[key]]));
  const apply = (entries: Record<string, string | undefined>) => {
    for (const [key, value] of Object.entries(entries)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
  apply(values);
  return () => apply(previous);
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('env() helper', () => {
  const env = createEnv({ NAME: 'tessera', PORT: '8080', RATIO: '0.75', ON: 'true', OFF: 'false', ONE: '1', LIST: 'a, b,c', JSON: '{"a":[1,2]}', EMPTY: '', BAD_INT: '12abc' });

  it('reads strings with fallbacks, treating empty values as unset', () => {
    expect(env('NAME')).to.equal('tessera');
    expect(env('MISSING')).to.equal(undefined);
    expect(env('MISSING', 'fallback')).to.equal('fallback');
    expect(env('EMPTY', 'fallback')).to.equal('fallback');
  });

  it('parses int, float, bool, array and json', () => {
    expect(env.int('PORT', 1337)).to.equal(8080);
    expect(env.int('MISSING', 1337)).to.equal(1337);
    expect(env.float('RATIO', 1)).to.equal(0.75);
    expect([env.bool('ON', false), env.bool('OFF', true), env.bool('ONE', false), env.bool('MISSING', true)]).to.deep.equal([true, false, true, true]);
    expect(env.array('LIST')).to.deep.equal(['a', 'b', 'c']);
    expect(env.json('JSON')).to.deep.equal({ a: [1, 2] });
  });

  it('refuses a number that is not one, naming the variable', () => {
    expect(() => env.int('BAD_INT', 1)).to.throw('environment variable BAD_INT must be an integer, got "12abc"');
    expect(() => env.float('NAME', 1)).to.throw('environment variable NAME must be a number, got "tessera"');
  });
});

eachDatabase('configuration', (dialect) => {
  let restore: (() => void) | undefined;
  afterEach(() => {
    restore?.();
    restore = undefined;
  });

  it('listens on the port env.int reads from PORT', async () => {
    const port = await freePort();
    restore = withEnv({ PORT: String(port), HOST: '127.0.0.1' });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-config-'));
    fs.mkdirSync(path.join(dir, 'config'));
    fs.writeFileSync(path.join(dir, 'config/server.ts'), `export default ({ env }) => ({ host: env('HOST', '0.0.0.0'), port: env.int('PORT', 1337) });`);
    const database = await createDatabase(dialect, dir);
    const app = new App({ dir, plugins: [restPlugin], config: { database: { connection: databaseConnection(database) } } });
    try {
      await app.start();
      expect(app.url).to.equal(`http://127.0.0.1:${port}`);
      const response = await fetch(`${app.url}/api/nothing`);
      expect(response.status).to.equal(404);
    } finally {
      await app.destroy();
      await dropDatabase(database);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lets environment variables override config values', async () => {
    restore = withEnv({ TESSERA_TEST_PAGE_SIZE: '7' });
    const app = await startApp({
      dialect,
      files: { ...NOTE_FILES, ...PUBLIC_NOTES, 'config/api.ts': `export default ({ env }) => ({ rest: { defaultLimit: env.int('TESSERA_TEST_PAGE_SIZE', 25) } });` },
    });
    try {
      // Strapi's default `prefix` is in the tree too, as Strapi's config holds it.
      expect((app.app.config.api as { rest: unknown }).rest).to.deep.equal({ defaultLimit: 7, prefix: '/api' });
      const response = await app.get('/api/notes');
      expect(response.status).to.equal(200);
      expect(response.body.meta.pagination.pageSize).to.equal(7);
    } finally {
      await app.stop();
    }
  });

  it('loads .env without overriding variables already set', async () => {
    restore = withEnv({ TESSERA_TEST_FROM_ENV: 'real environment', TESSERA_TEST_FROM_FILE: undefined });
    const app = await startApp({
      dialect,
      files: {
        ...NOTE_FILES,
        '.env': 'TESSERA_TEST_FROM_ENV=dotenv file\nTESSERA_TEST_FROM_FILE=dotenv file\n',
        'config/custom.ts': `export default ({ env }) => ({ a: env('TESSERA_TEST_FROM_ENV'), b: env('TESSERA_TEST_FROM_FILE') });`,
      },
    });
    try {
      expect(app.app.config.custom).to.deep.equal({ a: 'real environment', b: 'dotenv file' });
    } finally {
      await app.stop();
      delete process.env.TESSERA_TEST_FROM_FILE;
    }
  });

  it('merges config/env/<NODE_ENV>/ files over config/', async () => {
    restore = withEnv({ NODE_ENV: 'staging' });
    const app = await startApp({
      dialect,
      files: {
        ...NOTE_FILES,
        ...PUBLIC_NOTES,
        'config/api.ts': `export default { rest: { defaultLimit: 25, maxLimit: 50, withCount: true } };`,
        'config/env/staging/api.json': { rest: { defaultLimit: 3 } },
        'config/env/production/api.ts': `export default { rest: { defaultLimit: 99 } };`,
      },
    });
    try {
      expect(app.app.config.api).to.deep.equal({ rest: { defaultLimit: 3, maxLimit: 50, withCount: true, prefix: '/api' } });
      const response = await app.get('/api/notes');
      expect(response.body.meta.pagination).to.deep.equal({ page: 1, pageSize: 3, pageCount: 0, total: 0 });
    } finally {
      await app.stop();
    }
  });

  it('stops the boot with the file name when a config file throws', async () => {
    const error = await bootError({ dialect, files: { ...NOTE_FILES, 'config/api.ts': `export default () => { throw new Error('no api today'); };` } });
    expect(error.message).to.match(/config\/api\.ts: cannot load: no api today$/);
  });

  it('stops the boot when PORT is not a number', async () => {
    restore = withEnv({ PORT: 'eighty' });
    const error = await bootError({ dialect, files: { ...NOTE_FILES, 'config/server.ts': `export default ({ env }) => ({ port: env.int('PORT', 1337) });` } });
    expect(error.message).to.contain('config/server.ts: cannot load: environment variable PORT must be an integer, got "eighty"');
  });

  it("gives Strapi code server.url as Strapi's bootstrap leaves it, and stops the boot on one that is not a URL", async () => {
    const urls: Array<[unknown, string]> = [
      [undefined, ''],
      ['https://cms.example.com/', 'https://cms.example.com'],
      ['https://cms.example.com/base//', 'https://cms.example.com/base'],
      ['/cms/', '/cms'],
      [` ${' /'.repeat(20_000)}x${'/ '.repeat(20_000)}`, '/x'],
    ];
    for (const [url, expected] of urls) {
      const app = await startApp({ dialect, files: { ...NOTE_FILES, 'config/server.ts': `export default ${JSON.stringify(url === undefined ? {} : { url })};` } });
      try {
        expect(app.app.config.get('server.url'), String(url).slice(0, 40)).to.equal(expected);
      } finally {
        await app.stop();
      }
    }
    const error = await bootError({ dialect, files: { ...NOTE_FILES, 'config/server.ts': `export default { url: 'https://' };` } });
    expect(error.message).to.contain('server.url "https:" is not a URL');
  });
});
