import crypto from 'node:crypto';
import fs from 'node:fs';
import { expect } from 'chai';
import { verifySignature } from '@tessera/core';
import { eachDatabase, WebhookReceiver, type TestApp } from '@tessera/testing';
import { ALL_EVENTS, addWebhook, settled, sleep, startWebhookApp } from './fixture';

/**
 * Strapi v4's webhooks through the outbox, on a real app with a real local
 * receiver: every event's payload, the headers and signature, retries,
 * giving up, per-entry order and rolled-back writes.
 */
eachDatabase('webhooks: delivery', (dialect) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  let token: string;
  const SECRET = 'whsec-test-secret';

  before(async () => {
    receiver = await WebhookReceiver.start();
    app = await startWebhookApp(dialect);
    token = await app.fullAccessToken();
    await addWebhook(app, receiver.url, ALL_EVENTS, { secret: SECRET, headers: { 'X-Own': 'from-webhook' } });
  });
  beforeEach(() => {
    receiver.requests.length = 0;
    receiver.replies = [];
    receiver.status = 200;
    receiver.delayMs = 0;
  });
  after(async () => {
    await app?.stop();
    await receiver?.stop();
  });

  const bodies = (uid?: string) => receiver.requests.map((request) => request.json).filter((body) => !uid || body.uid === uid);

  it('sends Strapi’s payload for every entry event, sanitised, with components, media and relations populated', async () => {
    const category = await app.post('/api/categories', { data: { name: 'News' } }, { token });
    const created = await app.post('/api/posts', { data: { title: 'First', secret: 's3cret', category: category.body.data.id, seo: { metaTitle: 'M', note: 'private note' }, publishedAt: null } }, { token });
    expect(created.status).to.equal(200);
    const id = created.body.data.id;
    await app.put(`/api/posts/${id}`, { data: { title: 'First, edited' } }, { token });
    await app.put(`/api/posts/${id}`, { data: { publishedAt: '2025-01-01T00:00:00.000Z' } }, { token });
    await app.put(`/api/posts/${id}`, { data: { publishedAt: null } }, { token });
    expect((await app.delete(`/api/posts/${id}`, { token })).status).to.equal(200);

    await receiver.waitFor(5, (request) => request.json.uid === 'api::post.post');
    const posts = bodies('api::post.post');
    expect(posts.map((body) => body.event)).to.deep.equal(['entry.create', 'entry.update', 'entry.publish', 'entry.unpublish', 'entry.delete']);
    for (const body of posts) {
      expect(Object.keys(body)).to.deep.equal(['event', 'createdAt', 'model', 'uid', 'entry']);
      expect(body).to.include({ model: 'post', uid: 'api::post.post' });
      expect(new Date(body.createdAt).toISOString()).to.equal(body.createdAt);
      expect(body.entry.id).to.equal(id);
      expect(body.entry).to.not.have.property('secret');
      expect(body.entry.category).to.deep.include({ id: category.body.data.id, name: 'News' });
      expect(body.entry.seo).to.deep.include({ metaTitle: 'M' });
      expect(body.entry.seo).to.not.have.property('note');
      expect(body.entry.cover).to.equal(null);
    }
    expect(posts.map((body) => [body.entry.title, body.entry.publishedAt === null])).to.deep.equal([
      ['First', true],
      ['First, edited', true],
      ['First, edited', false],
      ['First, edited', true],
      ['First, edited', true],
    ]);
    const [categoryEvent] = bodies('api::category.category');
    expect(categoryEvent).to.deep.include({ event: 'entry.create', model: 'category' });
    expect(categoryEvent.entry).to.include({ id: category.body.data.id, name: 'News' });
    expect(categoryEvent.entry.posts).to.deep.equal([]);
    for (const request of receiver.requests) expect(request.headers['x-strapi-event']).to.equal(request.json.event);
  });

  it('sends media.create, media.update and media.delete with the file, sanitised', async () => {
    const form = new FormData();
    form.append('files', new Blob(['hello webhooks'], { type: 'text/plain' }), 'notes.txt');
    const uploaded = await fetch(`${app.url}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
    expect(uploaded.status).to.equal(200);
    const [file] = (await uploaded.json()) as Array<{ id: number }>;
    const info = new FormData();
    info.append('fileInfo', JSON.stringify({ alternativeText: 'notes' }));
    expect((await fetch(`${app.url}/api/upload?id=${file!.id}`, { method: 'POST', body: info, headers: { authorization: `Bearer ${token}` } })).status).to.equal(200);
    expect((await app.delete(`/api/upload/files/${file!.id}`, { token })).status).to.equal(200);

    await receiver.waitFor(3, (request) => String(request.json.event).startsWith('media.'));
    const media = receiver.requests.map((request) => request.json).filter((body) => String(body.event).startsWith('media.'));
    expect(media.map((body) => body.event)).to.deep.equal(['media.create', 'media.update', 'media.delete']);
    for (const body of media) {
      expect(Object.keys(body)).to.deep.equal(['event', 'createdAt', 'media']);
      expect(body.media).to.include({ id: file!.id, name: 'notes.txt', mime: 'text/plain' });
      expect(body.media).to.not.have.property('folderPath');
    }
    expect(media[0].media.alternativeText).to.equal(null);
    expect(media[1].media.alternativeText).to.equal('notes');
  });

  it('sends default and own headers, an event id, and a signature the receiver can verify', async () => {
    await app.post('/api/categories', { data: { name: 'Signed' } }, { token });
    const [request] = await receiver.waitFor(1);
    expect(request!.method).to.equal('POST');
    expect(request!.headers).to.include({ 'x-default': 'from-config', 'x-own': 'from-webhook', 'content-type': 'application/json', 'x-strapi-event': 'entry.create', 'x-tessera-attempt': '1' });
    expect(request!.headers['x-tessera-event-id']).to.match(/^[0-9a-f-]{36}$/);
    expect(request!.headers['x-tessera-delivery']).to.match(/^\d+$/);
    // Verified the way the README tells a receiver to: HMAC-SHA256 of "<t>.<raw body>" with the secret.
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(request!.headers['x-tessera-signature'] ?? '');
    expect(match, request!.headers['x-tessera-signature']).to.not.equal(null);
    const expected = crypto.createHmac('sha256', SECRET).update(`${match![1]}.${request!.body}`).digest('hex');
    expect(match![2]).to.equal(expected);
    expect(Math.abs(Date.now() / 1000 - Number(match![1]))).to.be.below(60);
    const forged = crypto.createHmac('sha256', 'another secret').update(`${match![1]}.${request!.body}`).digest('hex');
    expect(match![2]).to.not.equal(forged);
    // The exported helper agrees, and refuses a changed body, another secret and an old timestamp.
    const header = request!.headers['x-tessera-signature']!;
    expect(verifySignature(SECRET, request!.body, header)).to.equal(true);
    expect(verifySignature(SECRET, request!.body.replace('Signed', 'Signet'), header)).to.equal(false);
    expect(verifySignature('another secret', request!.body, header)).to.equal(false);
    expect(verifySignature(SECRET, request!.body, header, 300, Date.now() + 3_600_000)).to.equal(false);
  });

  it('retries after 500s with growing delays and the same event id, then records the delivery', async () => {
    receiver.replies = [500, 500];
    await app.post('/api/categories', { data: { name: 'Retried' } }, { token });
    const requests = await receiver.waitFor(3);
    await sleep(100);
    expect(requests).to.have.length(3);
    expect(new Set(requests.map((request) => request.headers['x-tessera-event-id'])).size).to.equal(1);
    expect(new Set(requests.map((request) => request.body)).size, 'the same bytes each time').to.equal(1);
    expect(requests.map((request) => request.headers['x-tessera-attempt'])).to.deep.equal(['1', '2', '3']);
    expect(requests[1]!.at - requests[0]!.at).to.be.at.least(20);
    expect(requests[2]!.at - requests[1]!.at).to.be.at.least(40);
    const delivery = await settled(app, Number(requests[0]!.headers['x-tessera-delivery']), 'delivered');
    expect(delivery).to.include({ attempts: 3, lastStatus: 200 });
  });

  it('marks a delivery failed after maxAttempts and keeps it; retry sends it again', async () => {
    receiver.status = 503;
    await app.post('/api/categories', { data: { name: 'Gives up' } }, { token });
    const requests = await receiver.waitFor(3);
    const id = Number(requests[0]!.headers['x-tessera-delivery']);
    let delivery = await settled(app, id, 'failed');
    expect(delivery).to.include({ attempts: 3, lastStatus: 503 });
    expect(delivery!.lastError).to.equal('refused with 503');
    const health = await app.get('/_health/webhooks', { token });
    expect(health.status).to.equal(200);
    expect(health.body.deliveries.failed).to.equal(1);
    expect(receiver.requests).to.have.length(3);

    receiver.status = 200;
    expect(await app.app.webhooks.outbox.retry(id)).to.equal(true);
    await receiver.waitFor(4);
    expect(receiver.requests[3]!.headers['x-tessera-event-id']).to.equal(requests[0]!.headers['x-tessera-event-id']);
    delivery = await settled(app, id, 'delivered');
    expect(delivery.attempts).to.equal(1);
    expect((await app.get('/_health/webhooks', { token })).body.deliveries).to.include({ failed: 0, pending: 0, sending: 0 });
  });

  it('delivers an entry’s events in order even when the receiver is slow and fails in between', async () => {
    receiver.delayMs = 15;
    receiver.replies = [200, 500, 200, 500];
    const created = await app.post('/api/categories', { data: { name: 'v0' } }, { token });
    const id = created.body.data.id;
    for (let version = 1; version <= 5; version++) await app.put(`/api/categories/${id}`, { data: { name: `v${version}` } }, { token });
    await receiver.waitFor(8);
    await sleep(100);
    // Only attempts answered with a 2xx count as delivered (the 2nd and 4th requests got a 500 and were sent again).
    const answered = [200, 500, 200, 500];
    const delivered = receiver.requests.filter((_, index) => (answered[index] ?? 200) < 300).map((request) => request.json.entry.name);
    expect(delivered).to.deep.equal(['v0', 'v1', 'v2', 'v3', 'v4', 'v5']);
  });

  it('queues nothing for a rolled-back write, and exactly one delivery for a committed one', async () => {
    const before = (await app.app.webhooks.outbox.counts()).delivered;
    const failed = await app.app.db
      .transaction(async () => {
        await app.app.entityService.create('api::category.category', { data: { name: 'Rolled back' } });
        throw new Error('abort');
      })
      .catch((error: Error) => error);
    expect((failed as Error).message).to.equal('abort');
    await app.app.db.transaction(async () => {
      await app.app.entityService.create('api::category.category', { data: { name: 'Committed' } });
    });
    const [committed] = await receiver.waitFor(1);
    await settled(app, Number(committed!.headers['x-tessera-delivery']), 'delivered');
    await sleep(200);
    expect(receiver.requests.map((request) => request.json.entry.name)).to.deep.equal(['Committed']);
    const counts = await app.app.webhooks.outbox.counts();
    expect(counts).to.include({ pending: 0, sending: 0, failed: 0, delivered: before + 1 });
  });

  it('prunes delivered rows settled before the retention cut-off, none after it', async () => {
    const { delivered } = await app.app.webhooks.outbox.counts();
    expect(delivered).to.be.above(0);
    expect(await app.app.webhooks.outbox.prune(0)).to.equal(0);
    expect(await app.app.webhooks.outbox.prune(Date.now() + 1)).to.equal(delivered);
    expect((await app.app.webhooks.outbox.counts()).delivered).to.equal(0);
  });

  it('gives server code Strapi’s eventHub and webhookRunner', async () => {
    const heard: unknown[] = [];
    const off = app.app.eventHub.on('entry.create', (info) => void heard.push(info));
    app.app.eventHub.once('custom.event', (info) => void heard.push(info));
    // A subscriber hears every event, content events included (they are built only when someone hears them).
    const subscribed: string[] = [];
    const unsubscribe = app.app.eventHub.subscribe((name) => void subscribed.push(name));
    // A webhook on an event of server code's own: what it emits is delivered through the outbox too.
    app.app.webhookStore.addAllowedEvent('CUSTOM', 'custom.event');
    app.app.webhookRunner.add({ id: 'custom', url: receiver.url, events: ['custom.event'], headers: {} });
    const created = await app.post('/api/categories', { data: { name: 'Heard' } }, { token });
    await app.app.eventHub.emit('custom.event', { hello: 'world' });
    await app.app.eventHub.emit('custom.event', { hello: 'again' });
    off();
    unsubscribe();
    const requests = await receiver.waitFor(3);
    expect(heard).to.have.length(2);
    expect(subscribed).to.deep.equal(['entry.create', 'custom.event', 'custom.event']);
    expect(heard[0]).to.have.all.keys('model', 'uid', 'entry');
    expect(heard[0]).to.deep.include({ model: 'category', uid: 'api::category.category' });
    expect((heard[0] as { entry: { id: number } }).entry.id).to.equal(created.body.data.id);
    expect(heard[1]).to.deep.equal({ hello: 'world' });
    const custom = requests.filter((request) => request.json.event === 'custom.event').map((request) => request.json.hello);
    expect(custom).to.deep.equal(['world', 'again']);
    app.app.webhookRunner.remove({ id: 'custom' });

    receiver.replies = [418];
    const result = await app.app.webhookRunner.run({ id: 1, url: receiver.url, events: [], headers: {} }, 'trigger-test');
    expect(result).to.deep.equal({ statusCode: 418, message: 'refused with 418' });
    expect(receiver.requests.at(-1)!.json).to.have.keys(['event', 'createdAt']);
  });
});

eachDatabase('webhooks: populateRelations false', (dialect) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await WebhookReceiver.start();
    app = await startWebhookApp(dialect, { populateRelations: false });
    await addWebhook(app, receiver.url, ['entry.create']);
  });
  after(async () => {
    await app?.stop();
    await receiver?.stop();
  });

  it('sends relations as Strapi’s { count }, components still populated', async () => {
    const token = await app.fullAccessToken();
    const category = await app.post('/api/categories', { data: { name: 'Counted' } }, { token });
    await app.post('/api/posts', { data: { title: 'Counting', category: category.body.data.id, seo: { metaTitle: 'T' } } }, { token });
    const requests = await receiver.waitFor(2);
    const [categoryEntry, postEntry] = requests.map((request) => request.json.entry);
    expect(categoryEntry.posts).to.deep.equal({ count: 0 });
    expect(postEntry.category).to.deep.equal({ count: 1 });
    expect(postEntry.seo).to.deep.include({ metaTitle: 'T' });
  });
});

eachDatabase('webhooks: a receiver that hangs', (dialect) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  let leftover: string | undefined;
  before(async () => {
    receiver = await WebhookReceiver.start();
    app = await startWebhookApp(dialect, { delivery: { concurrency: 2, timeoutMs: 60_000 } });
    await addWebhook(app, receiver.url, ['entry.create']);
  });
  after(async () => {
    await app?.stop();
    await receiver?.stop();
    if (leftover) fs.rmSync(leftover, { recursive: true, force: true });
  });

  it('never makes content requests wait for it: delivery is off the request path, `concurrency` at a time', async () => {
    const token = await app.fullAccessToken();
    const release = receiver.hold();
    // Every write is answered while the receiver answers nothing at all.
    for (let n = 0; n < 12; n++) expect((await app.post('/api/categories', { data: { name: `busy ${n}` } }, { token })).status).to.equal(200);
    await receiver.waitFor(2);
    await sleep(150);
    expect(receiver.requests, 'two attempts in flight, no more').to.have.length(2);
    expect(await app.app.webhooks.outbox.counts()).to.include({ sending: 2, pending: 10, delivered: 0 });
    release();
    const requests = await receiver.waitFor(12);
    expect(requests.map((request) => request.json.entry.name).sort()).to.deep.equal(Array.from({ length: 12 }, (_, n) => `busy ${n}`).sort());
  });

  it('stops at once with an attempt hanging, gives the delivery back, and the next start sends it', async () => {
    receiver.requests.length = 0;
    const token = await app.fullAccessToken();
    const release = receiver.hold();
    await app.post('/api/categories', { data: { name: 'cut short' } }, { token });
    const [first] = await receiver.waitFor(1);
    // The receiver holds the attempt until release() below: were stop waiting for it (up to the 60 s delivery
    // timeout), this would never settle within the test's timeout. An order, not a clock.
    await app.stop({ keepDatabase: true });
    leftover = app.dir; // a SQLite database lives in it
    release();
    app = await startWebhookApp(dialect, { delivery: { concurrency: 2, timeoutMs: 60_000 } }, app.database);
    const [, second] = await receiver.waitFor(2);
    expect(second!.headers['x-tessera-event-id']).to.equal(first!.headers['x-tessera-event-id']);
    expect(second!.headers['x-tessera-attempt'], 'the cut-short attempt is not counted').to.equal('1');
    expect((await settled(app, Number(second!.headers['x-tessera-delivery']), 'delivered')).attempts).to.equal(1);
  });
});
