import { expect } from 'chai';
import { eachDatabase, WebhookReceiver } from '@tessera/testing';
import { CliProcess, runCli, tempApp, waitForHttp, type TempApp } from './helpers';

/** `tessera webhooks …` on the same table and outbox a running server uses. */
eachDatabase('tessera webhooks', (dialect) => {
  let app: TempApp;
  let receiver: WebhookReceiver;
  let server: CliProcess | undefined;
  const cli = (...args: string[]) => runCli(['webhooks', ...args], { cwd: app.dir, env: { ...app.env, API_TOKEN_SALT: 'webhooks-cli-salt' } });

  before(async () => {
    app = await tempApp(dialect);
    receiver = await WebhookReceiver.start();
    app.write(
      'config/server.ts',
      `export default ({ env }) => ({
        host: env('HOST', '0.0.0.0'),
        port: env.int('PORT', 1337),
        webhooks: {
          declared: [{ name: 'from-config', url: '${receiver.url}?config', events: ['media.create'] }],
          delivery: { backoffMs: 20, maxAttempts: 2, pollIntervalMs: 50 },
        },
      });`,
    );
  });
  after(async () => {
    if (server?.running) await server.stop('SIGKILL');
    await receiver.stop();
    await app.remove();
  });

  it('creates, lists, updates, triggers and deletes webhooks; config webhooks are listed as such', async function () {
    const created = await cli('create', '--name', 'search', '--url', receiver.url, '--events', 'entry.create,entry.update', '--headers', '{"X-Team":"web"}', '--secret', 'shh');
    expect(created.code, created.stderr).to.equal(0);
    const id = created.stdout.trim();
    expect(id).to.match(/^\d+$/);

    const listed = await cli('list', '--json');
    expect(listed.code, listed.stderr).to.equal(0);
    expect(JSON.parse(listed.stdout)).to.deep.equal([
      { id: 'from-config', name: 'from-config', url: `${receiver.url}?config`, headers: {}, events: ['media.create'], isEnabled: true, source: 'config', signed: false },
      { id: Number(id), name: 'search', url: receiver.url, headers: { 'X-Team': 'web' }, events: ['entry.create', 'entry.update'], isEnabled: true, source: 'database', signed: true },
    ]);
    expect((await cli('update', id, '--disable', '--events', 'entry.create')).code).to.equal(0);
    const updated = JSON.parse((await cli('list', '--json')).stdout)[1];
    expect(updated).to.include({ isEnabled: false, signed: true });
    expect(updated.events).to.deep.equal(['entry.create']);

    const triggered = await cli('trigger', 'search');
    expect(triggered.code, triggered.stderr).to.equal(0);
    expect(triggered.stdout.trim()).to.equal('200');
    const trigger = receiver.requests.at(-1)!;
    expect(trigger.json.event).to.equal('trigger-test');
    expect(trigger.headers['x-team']).to.equal('web');
    expect(trigger.headers['x-tessera-signature']).to.match(/^t=\d+,v1=[0-9a-f]{64}$/);

    const bad = await cli('create', '--name', 'x', '--url', 'ftp://nope', '--events', 'entry.create');
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.contain('url must be an http(s) URL');
    const unknownEvent = await cli('create', '--name', 'x', '--url', receiver.url, '--events', 'entry.explode');
    expect(unknownEvent.code).to.equal(1);
    expect(unknownEvent.stderr).to.contain('Webhook event entry.explode is not supported');
    expect((await cli('create', '--name', 'x')).code, 'usage error').to.equal(2);
    expect((await cli('delete', 'from-config')).code, 'not an id').to.equal(2);

    expect((await cli('delete', id)).code).to.equal(0);
    expect(JSON.parse((await cli('list', '--json')).stdout).map((webhook: { id: unknown }) => webhook.id)).to.deep.equal(['from-config']);
  });

  it('shows failed deliveries and retries one through the running server; a CLI-made webhook reaches a running server', async function () {
    server = new CliProcess(['start'], { cwd: app.dir, env: { ...app.env, API_TOKEN_SALT: 'webhooks-cli-salt' } });
    await waitForHttp(`${app.url}/_health`, 204, server);
    // Made while the server runs: it re-reads the table every poll interval (50 ms here).
    const created = await cli('create', '--name', 'flaky', '--url', receiver.url, '--events', 'entry.create');
    expect(created.code, created.stderr).to.equal(0);
    const token = (await runCli(['api-token', 'create', '--name', 'w', '--type', 'full-access'], { cwd: app.dir, env: { ...app.env, API_TOKEN_SALT: 'webhooks-cli-salt' } })).stdout.trim();

    receiver.requests.length = 0;
    receiver.status = 500;
    await fetch(`${app.url}/api/tags`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ data: { name: 'retry me' } }) });
    await receiver.waitFor(2);
    let failed: Array<{ id: number; status: string; attempts: number; lastStatus: number }> = [];
    for (let i = 0; i < 50 && failed.length === 0; i++) {
      failed = JSON.parse((await cli('deliveries', '--failed', '--json')).stdout);
      if (failed.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(failed).to.have.length(1);
    expect(failed[0]).to.include({ status: 'failed', attempts: 2, lastStatus: 500 });

    receiver.status = 200;
    const retried = await cli('retry', String(failed[0]!.id));
    expect(retried.code, retried.stderr).to.equal(0);
    const [, third] = [...(await receiver.waitFor(3))].slice(1);
    expect(third!.json.entry.name).to.equal('retry me');
    expect((await cli('retry', '999999')).code).to.equal(1);
    // --webhook resumes a paused webhook (packages/core/test/webhooks/queue-bounds.test.ts pauses one).
    const notPaused = await cli('retry', '--webhook', 'flaky');
    expect(notPaused.code, notPaused.stderr).to.equal(0);
    expect(notPaused.stderr).to.contain('Webhook "flaky" is not paused.');
    expect((await cli('retry', '--webhook', 'no-such-webhook')).code).to.equal(1);
    expect((await cli('retry', '7', '--webhook', 'flaky')).code, 'usage error').to.equal(2);
  });
});
