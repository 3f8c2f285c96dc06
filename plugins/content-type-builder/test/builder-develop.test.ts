/**
 * The builder under `tessera develop` (the real restart, SQLite): the example app with the admin panel (its build
 * copied from the tests' panel cache, so develop finds it fresh), a type created through the builder's route, then
 * what the panel does after a save: it polls `/_health` until the server answers again. The app restarts once
 * (the builder's reload and the file watcher's events are one restart), `/_health` answers through it, and the new
 * type's REST route exists afterwards (403 for the public role, where it was 404). Deleting it removes its files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { EXAMPLE_APP } from '@tessera/testing';
import { CliProcess, count, request, tempApp, waitForHttp, type TempApp } from '../../../packages/cli/test/helpers';
import { EXAMPLE_PACKAGE, panelInto, panelUnavailable, ROOT_NODE_MODULES } from '../../admin/test/panel-build';
import { filesUnder, recorded, recordedJson } from './builder-fixture';

const CREATE_BOOK = recordedJson<unknown>('create-book/request.json');

describe('content-type builder under tessera develop: the restart the panel waits for', function () {
  let app: TempApp;
  let cli: CliProcess | undefined;
  before(function () {
    const reason = panelUnavailable();
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
  });
  after(async () => {
    if (cli?.running) await cli.stop('SIGKILL');
    await app?.remove();
  });

  it('writes the type, restarts once, answers /_health through the restart, then serves the new REST route; delete removes it', async () => {
    app = await tempApp('sqlite', EXAMPLE_APP);
    app.write('package.json', EXAMPLE_PACKAGE);
    fs.symlinkSync(ROOT_NODE_MODULES, path.join(app.dir, 'node_modules'), 'dir');
    await panelInto(app.dir, () => undefined);
    const env = { ...app.env, ADMIN_JWT_SECRET: 'ctb-write-develop-secret' };
    cli = new CliProcess(['develop'], { cwd: app.dir, env });
    await cli.waitForOutput((output) => count(output, 'ready at') === 1);
    expect(cli.output).to.not.contain('admin panel: build/ is missing');
    const registered = await request(`${app.url}/admin/register-admin`, 'POST', { email: 'dev@example.com', password: 'Secret123', firstname: 'Dev', lastname: 'Admin' });
    const token = String(registered.body.data.token);
    const information = await request(`${app.url}/admin/information`, 'GET', undefined, token);
    expect(information.body.data.autoReload).to.equal(true);
    expect((await request(`${app.url}/api/books`, 'GET')).status).to.equal(404);

    const created = await request(`${app.url}/content-type-builder/content-types`, 'POST', CREATE_BOOK, token);
    expect(created).to.deep.equal({ status: 201, body: { data: { uid: 'api::book.book' } } });
    expect(fs.readFileSync(path.join(app.dir, 'src/api/book/content-types/book/schema.json'), 'utf8')).to.equal(recorded('create-book/book/content-types/book/schema.json'));
    expect(fs.readFileSync(path.join(app.dir, 'src/api/book/routes/book.js'), 'utf8')).to.equal(recorded('create-book/book/routes/book.js'));
    // The panel's wait: /_health until it answers (during the restart the port is closed for a moment).
    await waitForHttp(`${app.url}/_health`, 204, cli);
    await cli.waitForOutput((output) => count(output, 'ready at') === 2);
    expect((await request(`${app.url}/_health`, 'GET')).status).to.equal(204);
    expect((await request(`${app.url}/api/books`, 'GET')).status).to.equal(403);
    const book = await request(`${app.url}/content-type-builder/content-types/api::book.book`, 'GET', undefined, token);
    expect(book.body.data.schema.attributes.category).to.deep.equal({ type: 'relation', relation: 'manyToOne', target: 'api::category.category', inversedBy: 'books', targetAttribute: 'books', private: false });

    const deleted = await request(`${app.url}/content-type-builder/content-types/api::book.book`, 'DELETE', undefined, token);
    expect(deleted).to.deep.equal({ status: 200, body: { data: { uid: 'api::book.book' } } });
    expect(filesUnder(path.join(app.dir, 'src/api/book'))).to.deep.equal([]);
    await cli.waitForOutput((output) => count(output, 'ready at') === 3);
    expect((await request(`${app.url}/api/books`, 'GET')).status).to.equal(404);
    // One restart per builder write: its reload and the watcher's events for the files it wrote are one.
    expect(count(cli.stdout, 'restarting')).to.equal(2);
    expect(await cli.stop('SIGINT')).to.equal(0);
  });
});
