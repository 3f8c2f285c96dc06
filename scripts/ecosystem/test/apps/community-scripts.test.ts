import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createDatabase, DIALECTS, dropDatabase, type DatabaseHandle, type TestDialect } from '@tessera/testing';
import { cleanEnv, databaseEnv, runCli } from '../../../../packages/cli/test/helpers';
import { COMMUNITY_FIXTURE, communityAppFolder } from './community-app-folder';

/**
 * Strapi 4.26.2's programmatic API on the community app (fixtures/community-app), run by `tessera run`:
 * - `npm run seed`'s script: `require('@strapi/strapi').compile()`, then `require('@strapi/strapi')({ appDir, distDir
 *   }).load()`, the entity service, `destroy()`. Strapi 4.26.2 printed the line below for the same files, twice (the
 *   second run finds the profiles the first made).
 * - Strapi's documented Jest setup (tests/helpers/strapi.js: `Strapi().load()`, `strapi.server.mount()`, supertest on
 *   `strapi.server.httpServer`, `strapi.db.connection.destroy()`), with jest and supertest from npm as the app's
 *   devDependencies.
 */
const STRAPI_SEED_OUTPUT = { strapi: '4.26.2', line: '{"seeded":["Grace H.","Alan T."],"global":true}' };

describe("Strapi ecosystem: the community app's seed script and Jest suite through Strapi's programmatic API (tessera run)", function () {
  this.timeout(600_000);
  let dir: string;

  before(function () {
    const pkg = JSON.parse(fs.readFileSync(path.join(COMMUNITY_FIXTURE, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    dir = communityAppFolder(this, Object.entries(pkg.devDependencies).map(([name, version]) => `${name}@${version}`));
  });
  after(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

  // `tessera run` keeps its entry-point folder, and Jest its cache, in the temporary folder: this test's own, removed after it.
  let scratchTmp: string;
  before(() => {
    scratchTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-run-tmp-'));
  });
  after(() => fs.rmSync(scratchTmp, { recursive: true, force: true }));

  /** A database in a folder of its own, removed when it is dropped. */
  async function scratchDatabase(dialect: TestDialect): Promise<DatabaseHandle> {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-eco-db-'));
    return { ...(await createDatabase(dialect, folder)), folder };
  }

  for (const dialect of DIALECTS) {
    it(`[${dialect}] seeds with require('@strapi/strapi')({ appDir, distDir }).load(), as on Strapi ${STRAPI_SEED_OUTPUT.strapi}`, async () => {
      const database = await scratchDatabase(dialect);
      try {
        const env = { ...cleanEnv(), TMPDIR: scratchTmp, TESSERA_LOG_LEVEL: 'error', ...databaseEnv(database) };
        for (const round of [1, 2]) {
          const seeded = await runCli(['run', 'node', 'scripts/seed.js'], { cwd: dir, env });
          expect(seeded.code, `round ${round}: ${seeded.stderr}`).to.equal(0);
          expect(seeded.stdout.trim().split('\n').pop()).to.equal(STRAPI_SEED_OUTPUT.line);
        }
      } finally {
        await dropDatabase(database);
      }
    });

    // Jest on SQLite only, as Strapi's documented setup runs it (a test database in a file): the seed above shows the
    // programmatic API on each database, and a Jest process per database cost the run about 25 s of CPU more.
    if (dialect !== 'sqlite') continue;
    it(`[${dialect}] runs Strapi's documented Jest setup and the app's Jest tests`, async () => {
      const database = await scratchDatabase(dialect);
      try {
        const env = { ...cleanEnv(), TMPDIR: scratchTmp, NODE_ENV: 'test', TESSERA_LOG_LEVEL: 'error', ...databaseEnv(database) };
        // The app's jest config ignores paths matching `.tmp`, which every folder under /tmp does (on Strapi too):
        // the run names the one ignore that matters here, and a timeout for a machine the test suite shares (Jest's 5 s
        // default is shorter than a boot there).
        const jest = await runCli(['run', 'npx', 'jest', '--forceExit', '--testPathIgnorePatterns', '/node_modules/', '--testTimeout', '120000'], { cwd: dir, env });
        expect(jest.code, jest.stdout + jest.stderr).to.equal(0);
        expect(jest.stderr).to.match(/Tests: +3 passed, 3 total/);
      } finally {
        await dropDatabase(database);
      }
    });
  }

  it('answers `tessera run` without a command with its usage and exit code 1', async () => {
    const answer = await runCli(['run'], { cwd: dir, env: cleanEnv() });
    expect(answer.code).to.equal(1);
    expect(answer.stderr).to.contain('Usage: tessera run <command> [args…]');
  });
});
