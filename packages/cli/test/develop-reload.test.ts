import { expect } from 'chai';
import { CliProcess, count, request, tempApp, waitForHttp, type TempApp } from './helpers';

/**
 * `strapi.reload()` under `tessera develop` restarts the app, as Strapi 4.26.2's `strapi develop` does (its reload
 * sends 'reload' to the develop parent when autoReload is on): a plugin that creates content types through the
 * content-type builder's service, then reloads, finds them after the restart.
 */
describe('tessera develop: strapi.reload()', () => {
  let app: TempApp;
  let cli: CliProcess | undefined;
  after(async () => {
    if (cli?.running) await cli.stop('SIGKILL');
    await app?.remove();
  });

  it('restarts the app, once per call, saying who asked', async () => {
    app = await tempApp('sqlite');
    app.write(
      'src/index.ts',
      `export default {
  register({ strapi }) {
    strapi.server.routes([{ method: 'POST', path: '/reload-now', handler: (ctx) => { strapi.reload(); ctx.body = { reloading: strapi.reload.isReloading }; }, config: { auth: false } }]);
  },
};
`,
    );
    cli = new CliProcess(['develop'], { cwd: app.dir, env: app.env });
    await cli.waitForOutput((output) => count(output, 'ready at') === 1);
    const asked = await request(`${app.url}/reload-now`, 'POST', {});
    expect(asked.body).to.deep.equal({ reloading: true });
    await cli.waitForOutput((output) => count(output, 'ready at') === 2);
    expect(cli.stdout).to.contain("strapi.reload() by the app's code: restarting");
    expect(count(cli.stdout, 'restarting')).to.equal(1);
    await waitForHttp(`${app.url}/_health`, 204);
    expect(await cli.stop('SIGINT')).to.equal(0);
  });
});
