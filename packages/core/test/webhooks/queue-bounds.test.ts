import { expect } from 'chai';
import { eachDatabase, WebhookReceiver, type TestApp } from '@tessera/testing';
import { PAUSED_DUE } from '../../src/webhooks/outbox';
import { addWebhook, settled, sleep, startWebhookApp } from './fixture';

/**
 * Issue 36, finding 1's size bound: a receiver gone for days must not grow
 * the outbox without end. A webhook whose attempts have all failed for
 * `pauseAfterMs` is paused (its deliveries wait, new events for it are not
 * queued) until it is resumed; a webhook with `maxQueued` deliveries waiting
 * gets no more.
 */
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

eachDatabase('webhooks: a receiver gone for good pauses its webhook', (dialect) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  let token: string;
  before(async () => {
    receiver = await WebhookReceiver.start();
    app = await startWebhookApp(dialect, { delivery: { pauseAfterMs: 300, maxAttempts: 1000, backoffMs: 20, maxBackoffMs: 40 } });
    token = await app.fullAccessToken();
    await addWebhook(app, receiver.url, ['entry.create']);
  });
  after(async () => {
    await app?.stop();
    await receiver?.stop();
  });

  it('pauses after pauseAfterMs of failures, queues nothing more for it, and sends what waited once resumed', async () => {
    receiver.status = 500;
    await app.post('/api/categories', { data: { name: 'waits' } }, { token });
    const health = await until('the pause', async () => {
      const answer = await app.get('/_health/webhooks', { token });
      return answer.body.paused.length > 0 ? answer.body : undefined;
    });
    expect(health.paused).to.deep.equal(['hook entry.create']);
    const [waiting] = await app.app.webhooks.outbox.list();
    await until('the last attempt to settle', async () => ((await app.app.webhooks.outbox.find(waiting!.id))!.status === 'pending' ? true : undefined));
    expect((await app.app.webhooks.outbox.find(waiting!.id))!.nextAttemptAt, 'not due until resumed').to.equal(PAUSED_DUE);

    // Paused: a new event for it is not queued (the write itself answers as always).
    expect((await app.post('/api/categories', { data: { name: 'dropped' } }, { token })).status).to.equal(200);
    expect((await app.app.webhooks.outbox.list()).map((delivery) => delivery.id)).to.deep.equal([waiting!.id]);

    receiver.status = 200;
    const [webhook] = app.app.webhookRunner.list();
    expect(await app.app.webhooks.resume(webhook!)).to.equal(true);
    const delivered = await settled(app, waiting!.id, 'delivered');
    expect(JSON.parse(delivered.payload).entry.name).to.equal('waits');
    expect((await app.get('/_health/webhooks', { token })).body.paused).to.deep.equal([]);
    await app.post('/api/categories', { data: { name: 'after the resume' } }, { token });
    const requests = await receiver.waitFor(1, (request) => request.json.entry.name === 'after the resume');
    expect(requests).to.have.length(1);
  });
});

eachDatabase('webhooks: maxQueued', (dialect) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await WebhookReceiver.start();
    app = await startWebhookApp(dialect, { delivery: { maxQueued: 2, concurrency: 1, timeoutMs: 30_000 } });
    await addWebhook(app, receiver.url, ['entry.create']);
  });
  after(async () => {
    await app?.stop();
    await receiver?.stop();
  });

  it('queues no more events for a webhook with maxQueued deliveries waiting', async () => {
    const token = await app.fullAccessToken();
    const release = receiver.hold();
    for (const name of ['one', 'two']) await app.post('/api/categories', { data: { name } }, { token });
    await receiver.waitFor(1);
    // The sizes are re-read at every poll; read them now rather than wait for one.
    await app.app.webhooks.bounds.refresh();
    expect((await app.post('/api/categories', { data: { name: 'three' } }, { token })).status).to.equal(200);
    expect((await app.app.webhooks.outbox.list()).map((delivery) => JSON.parse(delivery.payload).entry.name)).to.deep.equal(['two', 'one']);
    release();
    await receiver.waitFor(2);
  });
});
