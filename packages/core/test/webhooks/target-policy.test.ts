/**
 * Where webhooks may not be sent (webhooks/target-policy.ts): link-local and
 * cloud metadata addresses always, loopback and private ranges when
 * `server.webhooks.refusePrivateAddresses` is on — judged on the literal
 * address and on every address a name resolves to, when a webhook is saved
 * and again before each attempt.
 */
import { expect } from 'chai';
import { addressRefusal, targetRefusal } from '@tessera/core';
import { bootError, eachDatabase, WebhookReceiver, type TestApp } from '@tessera/testing';
import { FILES, settled, startWebhookApp } from './fixture';

describe('webhooks: the target rule', () => {
  const open = { refusePrivate: false };
  const strict = { refusePrivate: true };

  it('always refuses link-local and metadata addresses, IPv4-mapped ones too', () => {
    for (const address of ['169.254.169.254', '169.254.0.1', 'fe80::1', '100.100.100.200', '168.63.129.16', 'fd00:ec2::254', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe']) {
      expect(addressRefusal(address, open), address).to.match(/link-local or cloud metadata/);
    }
  });

  it('refuses loopback and private ranges only when asked', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '100.64.0.1', '0.0.0.0', '::1', 'fd12::1', '::ffff:127.0.0.1']) {
      expect(addressRefusal(address, open), address).to.equal(null);
      expect(addressRefusal(address, strict), address).to.match(/loopback or private/);
    }
    for (const address of ['93.184.216.34', '172.32.0.1', '2606:4700::1111']) expect(addressRefusal(address, strict), address).to.equal(null);
  });

  it('judges a name by every address it resolves to, and lets a name that does not resolve through', async () => {
    const resolver = (answers: Record<string, string[]>) => async (host: string) => {
      if (!answers[host]) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return answers[host]!;
    };
    const dns = resolver({ 'metadata.example': ['93.184.216.34', '169.254.169.254'], 'inside.example': ['10.0.0.5'], 'public.example': ['93.184.216.34'] });
    expect(await targetRefusal('http://metadata.example/x', open, dns)).to.equal('metadata.example resolves to 169.254.169.254 is a link-local or cloud metadata address');
    expect(await targetRefusal('https://inside.example/x', open, dns)).to.equal(null);
    expect(await targetRefusal('https://inside.example/x', strict, dns)).to.match(/^inside.example resolves to 10.0.0.5 is a loopback/);
    expect(await targetRefusal('https://public.example/x', strict, dns)).to.equal(null);
    expect(await targetRefusal('https://nowhere.example/x', strict, dns)).to.equal(null);
    expect(await targetRefusal('http://[fe80::1]:8080/x', open, dns)).to.match(/fe80::1 is a link-local/);
  });
});

eachDatabase('webhooks: targets the server refuses', (dialect) => {
  let app: TestApp;
  let receiver: WebhookReceiver;

  before(async () => {
    receiver = await WebhookReceiver.start();
    app = await startWebhookApp(dialect, { refusePrivateAddresses: true });
  });
  after(async () => {
    await app?.stop();
    await receiver?.stop();
  });

  it('refuses to save a loopback, private or metadata target (a name by its resolved address), writing nothing', async () => {
    for (const url of [receiver.url, 'http://localhost:9/hook', 'http://10.0.0.1/hook', 'http://169.254.169.254/latest/meta-data']) {
      let refused: Error | undefined;
      await app.app.webhookStore.createWebhook({ name: 'x', url, headers: {}, events: ['entry.create'] }).catch((error: Error) => (refused = error));
      expect(refused?.name, url).to.equal('ValidationError');
      expect(refused?.message, url).to.match(/^url is refused: /);
    }
    expect(await app.app.webhookStore.findWebhooks()).to.deep.equal([]);
  });

  it('refuses before each attempt a target stored before the rule (never connecting): deliveries fail, the trigger says why', async () => {
    // A row written by another tool (an older Strapi, SQL): the store's check never saw it.
    const { knex } = app.app.db.sql;
    await app.app.db.sql.run(knex('strapi_webhooks').insert({ name: 'old', url: receiver.url, headers: '{}', events: JSON.stringify(['entry.create']), enabled: true }));
    const [row] = await app.app.webhookStore.findWebhooks();
    app.app.webhookRunner.add(row!);
    const token = await app.fullAccessToken();
    expect((await app.post('/api/posts', { data: { title: 'refused' } }, { token })).status).to.equal(200);
    const [delivery] = await app.app.webhooks.outbox.list({});
    const failed = await settled(app, delivery!.id, 'failed');
    expect(failed.lastError).to.equal('refused: 127.0.0.1 is a loopback or private address (server.webhooks.refusePrivateAddresses)');
    expect(await app.app.webhookRunner.run(row!, 'trigger-test')).to.deep.equal({
      statusCode: 500,
      message: `request to ${receiver.url} failed, reason: refused: 127.0.0.1 is a loopback or private address (server.webhooks.refusePrivateAddresses)`,
    });
    expect(receiver.requests).to.deep.equal([]);
  });

  it('judges a name at the connection itself, on the addresses it looks up (no window for re-pointing it)', async () => {
    const url = receiver.url.replace('127.0.0.1', 'localhost');
    const result = await app.app.webhookRunner.run({ id: 'by-name', url, events: [], headers: {} }, 'trigger-test');
    expect(result.statusCode).to.equal(500);
    expect(result.message).to.match(new RegExp(`^request to ${url} failed, reason: refused: localhost resolves to (127\\.0\\.0\\.1|::1) is a loopback or private address`));
    const metadata = 'http://169.254.169.254/latest/meta-data';
    expect(await app.app.webhookRunner.run({ id: 'metadata', url: metadata, events: [], headers: {} }, 'trigger-test')).to.deep.equal({
      statusCode: 500,
      message: `request to ${metadata} failed, reason: refused: 169.254.169.254 is a link-local or cloud metadata address`,
    });
    expect(receiver.requests).to.deep.equal([]);
  });

  it('stops the boot on a refusePrivateAddresses that is not a boolean', async () => {
    const error = await bootError({ dialect, files: FILES, config: { server: { webhooks: { refusePrivateAddresses: 'yes' } } } });
    expect(error.message).to.contain('server.webhooks.refusePrivateAddresses must be true or false');
  });
});
