import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { CliProcess, cleanEnv, count, freePort } from '../../../../packages/cli/test/helpers';
import { communityAppFolder } from './community-app-folder';

/**
 * `tessera develop` on the community app (fixtures/community-app) with `@strapi/plugin-documentation` 4.26.2
 * installed from npm: the plugin rewrites `src/api/<name>/documentation/**` and
 * `src/extensions/documentation/**` at every boot, which restarted the app forever. Strapi 4.26.2's develop
 * ignores those folders (its watcher's list in @strapi/admin's develop command) and the app's
 * `admin.watchIgnoreFiles` (`**\/config/sync/**` here); so does Tessera's. Restarts are counted from the output:
 * each change made here restarts once, the plugin's own writes never.
 */
const READY = 'ready at';

describe('Strapi ecosystem: tessera develop on the community app with @strapi/plugin-documentation', function () {
  this.timeout(600_000);
  let dir: string;
  let cli: CliProcess | undefined;

  before(function () {
    dir = communityAppFolder(this);
  });
  after(async () => {
    if (cli?.running) await cli.stop('SIGKILL');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const write = (relative: string, content: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    fs.writeFileSync(path.join(dir, relative), content);
  };

  it("restarts for the app's own changes only, not for the files the documentation plugin writes at boot", async () => {
    const port = await freePort();
    cli = new CliProcess(['develop'], { cwd: dir, env: { ...cleanEnv(), PORT: String(port), DATABASE_FILENAME: path.join(dir, '.tmp', 'develop.db') } });
    await cli.waitForOutput((output) => count(output, READY) === 1);
    // The plugin wrote its documents during this boot, inside the watched src/.
    expect(fs.existsSync(path.join(dir, 'src/extensions/documentation/documentation/1.0.0/full_documentation.json'))).to.equal(true);
    expect(fs.existsSync(path.join(dir, 'src/api/comment/documentation/1.0.0/comment.json'))).to.equal(true);

    write('config/sync/user-role.json', '{}'); // admin.watchIgnoreFiles
    write('src/api/comment/documentation/1.0.0/notes.json', '{}'); // Strapi's **/documentation/**
    write('src/admin/app.example.js', ''); // Strapi's **/src/admin/**
    write('src/notes.txt', 'the app changed');
    await cli.waitForOutput((output) => count(output, READY) === 2);
    expect(count(cli.stdout, 'restarting'), cli.stdout).to.equal(1);
    expect(cli.stdout).to.contain('src/notes.txt changed: restarting');

    // The second boot rewrote the documents again; one more change of the app's: exactly one more restart.
    write('src/notes.txt', 'changed again');
    await cli.waitForOutput((output) => count(output, READY) === 3);
    expect(count(cli.stdout, 'restarting'), cli.stdout).to.equal(2);
    expect(await cli.stop('SIGINT')).to.equal(0);
  });
});
