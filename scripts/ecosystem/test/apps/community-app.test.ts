import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DIALECTS, type TestApp } from '@tessera/testing';
import { appFolder, bootFolder, npmInstall, registryUnreachable, stopFolderApp } from './app-folder';
import { COMMUNITY_FIXTURE, communityAppFolder } from './community-app-folder';

/**
 * A Strapi v4 app written as community apps write one (fixtures/community-app: comments by users, profiles, a
 * users-permissions extension), booted on Tessera unchanged, then asked what its frontend asks
 * (community-requests.js), compared with Strapi 4.26.2's answers to the same requests on the same files
 * (community-app-strapi-4.26.2.json, recorded with `node community-requests.js <peer url>`). What it shows:
 * - two attributes of a comment (`user`, `authorId`) both `inversedBy` the user's `comments`, which is `mappedBy`
 *   `authorId`: Strapi boots it, each with its own join table; the user's `comments` lists what `authorId` links;
 * - the extension adds a controller action (`auth.logout`) with its route, and wraps an existing one (`user.me`);
 * - the comment's lifecycle reads `strapi.requestContext.get()` on the first request after boot;
 * - a service's `entityService.findMany` with a filter naming no attribute (`status`): Strapi drops the key;
 * - `user.add({ …, profile: { displayName, bio } })`, a to-one relation given an object without an id: ignored;
 * - the app's code and its own plugin require url-join, purest, jwk-to-pem (Strapi's users-permissions' dependencies,
 *   hoisted into every Strapi app) and `@strapi/plugin-users-permissions/strapi-admin`: the boot names the packages
 *   in one `npm install` line, and after it the plugin answers as on Strapi.
 */
const RECORDED = path.join(__dirname, 'community-app-strapi-4.26.2.json');

/** Whether the kernel itself resolves `name` (the fallback load-module.ts gives an app's Strapi-hoisted requires). */
function kernelHas(name: string): boolean {
  try {
    require.resolve(`${name}/package.json`, { paths: [path.dirname(require.resolve('@tessera/core/package.json'))] });
    return true;
  } catch {
    return false;
  }
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { frontendRequests } = require('./community-requests.js') as { frontendRequests: (base: string) => Promise<Answer[]> };

interface Answer {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

/** The join tables as Strapi 4.26.2 laid them out for the same schema (its SQLite file after the same requests). */
const STRAPI_JOIN_TABLES = {
  comments_user_links: { columns: ['comment_id', 'comment_order', 'id', 'user_id'], rows: [{ comment_id: 1, user_id: 1, comment_order: 1 }] },
  comments_author_id_links: {
    columns: ['comment_id', 'comment_order', 'id', 'user_id'],
    rows: [
      { comment_id: 1, user_id: 1, comment_order: 1 },
      { comment_id: 2, user_id: 1, comment_order: 2 },
    ],
  },
};

describe("Strapi ecosystem: the community app's packages from Strapi's own dependencies", function () {
  this.timeout(600_000);
  let dir: string;
  before(function () {
    const unreachable = registryUnreachable();
    if (unreachable) {
      console.log(`    skipped: ${unreachable}`);
      this.skip();
    }
    dir = appFolder(COMMUNITY_FIXTURE, { variable: 'COMMUNITY_APP_MIRROR', folder: '.', rev: 'HEAD' });
  });
  after(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

  it('stops the boot with one npm install line naming exactly what is missing, which then suffices', async () => {
    const failure = await bootFolder(dir, 'sqlite').then(
      async (app) => {
        await stopFolderApp(app);
        return undefined;
      },
      (error: Error) => error,
    );
    if (kernelHas('url-join')) {
      // This checkout's install has Strapi's users-permissions (the example app's admin panel brings it), so the
      // kernel answers its hoisted packages from its own copies, as a Strapi app got them: the app boots as it is.
      console.log("      (the kernel has url-join here: the app's requires are answered from it, no install line)");
      expect(failure).to.equal(undefined);
    } else {
      expect(failure?.message.split(`${dir}/`).join('')).to.equal(
        "src/api/profile/services/profile.js: requires url-join, which a Strapi 4.26.2 app has from @strapi/plugin-users-permissions's dependencies; " +
          "Tessera does not install Strapi's packages. Add what the app's code uses to it: npm install jwk-to-pem@2.0.5 purest@4.0.2 url-join@4.0.1",
      );
      npmInstall(dir, failure!.message.split('npm install ')[1].split(' '));
    }
    const app = await bootFolder(dir, 'sqlite');
    try {
      const status = await fetch(`${app.url}/api/social-login/status`);
      const recorded = (JSON.parse(fs.readFileSync(RECORDED, 'utf8')) as { answers: Answer[] }).answers.find((answer) => answer.path === '/api/social-login/status');
      expect({ status: status.status, body: await status.json() }).to.deep.equal({ status: recorded!.status, body: recorded!.body });
    } finally {
      await stopFolderApp(app);
    }
  });
});

describe('Strapi ecosystem: a community Strapi v4 app (fixtures/community-app) on Tessera, unchanged', function () {
  this.timeout(600_000);
  let dir: string;

  before(function () {
    dir = communityAppFolder(this);
  });
  after(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

  for (const dialect of DIALECTS) {
    describe(`[${dialect}]`, () => {
      let app: TestApp;
      let answers: Answer[];
      const recorded = () => (JSON.parse(fs.readFileSync(RECORDED, 'utf8')) as { strapi: string; answers: Answer[] }).answers;

      before(async () => {
        app = await bootFolder(dir, dialect);
        answers = await frontendRequests(app.url);
      });
      after(() => stopFolderApp(app));

      it('asks the frontend requests Strapi 4.26.2 answered', () => {
        expect(answers.map((answer) => `${answer.method} ${answer.path}`)).to.deep.equal(recorded().map((answer) => `${answer.method} ${answer.path}`));
      });

      recorded().forEach((expected, index) => {
        it(`${expected.method} ${expected.path}: Strapi 4.26.2's answer`, () => {
          expect({ status: answers[index].status, body: answers[index].body }).to.deep.equal({ status: expected.status, body: expected.body });
        });
      });

      it("lays out and fills both owners' join tables as Strapi 4.26.2 does", async () => {
        for (const [table, expected] of Object.entries(STRAPI_JOIN_TABLES)) {
          const rows = (await app.app.db.connection(table).select('*').orderBy('id')) as Array<Record<string, unknown>>;
          expect(Object.keys(rows[0] ?? {}).sort(), table).to.deep.equal(expected.columns);
          expect(rows.map((row) => ({ comment_id: Number(row.comment_id), user_id: Number(row.user_id), comment_order: Number(row.comment_order) })), table).to.deep.equal(expected.rows);
        }
      });
    });
  }
});
