import { expect } from 'chai';
import { eachDatabase, WebhookReceiver, type TestApp } from '@tessera/testing';
import { addWebhook, startWebhookApp } from './fixture';

/**
 * Issue 36, finding 2: a webhook payload populated every relation with no
 * budget, inside the write's transaction (a category linked to 20,000
 * articles: a 31 MB payload and a 10–18 s PUT on PostgreSQL; on MariaDB the
 * outbox insert went over max_allowed_packet and the PUT answered 503).
 * The payload now keeps to the content API's entry budget and to
 * `maxPayloadBytes`, stepping down to relations as `{ count }`; the write
 * answers as it would without a webhook.
 */
const MAX_ENTRIES = 50;
const MAX_BYTES = 4096;

eachDatabase('webhooks: bounded payloads', (dialect) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  let token: string;
  const categories: Record<string, number> = {};

  before(async function () {
    this.timeout(60_000);
    receiver = await WebhookReceiver.start();
    app = await startWebhookApp(dialect, { maxPayloadBytes: MAX_BYTES }, undefined, { api: { rest: { maxPopulatedEntries: MAX_ENTRIES } } });
    token = await app.fullAccessToken();
    const { entityService } = app.app;
    // Before any webhook exists: these writes queue nothing.
    for (const [name, posts, title] of [['many', MAX_ENTRIES + 10, 'p'], ['heavy', 20, 'x'.repeat(240)], ['few', 3, 'small']] as const) {
      const category = (await entityService.create('api::category.category', { data: { name } })) as { id: number };
      categories[name] = category.id;
      for (let n = 0; n < posts; n++) await entityService.create('api::post.post', { data: { title: `${title} ${name} ${n}`, category: category.id } });
    }
    await addWebhook(app, receiver.url, ['entry.update', 'entry.delete']);
  });
  after(async () => {
    await app?.stop();
    await receiver?.stop();
  });

  const payloadOf = async (write: () => Promise<{ status: number }>) => {
    const before = receiver.requests.length;
    expect((await write()).status).to.equal(200);
    const requests = await receiver.waitFor(before + 1);
    return requests[before]!;
  };

  it('sends relations as { count } past the entry budget (api.rest.maxPopulatedEntries); the PUT answers 200', async () => {
    const request = await payloadOf(() => app.put(`/api/categories/${categories.many}`, { data: { name: 'many, renamed' } }, { token }));
    expect(request.json.entry).to.include({ id: categories.many, name: 'many, renamed' });
    expect(request.json.entry.posts).to.deep.equal({ count: MAX_ENTRIES + 10 });
  });

  it('sends relations as { count } past maxPayloadBytes, and stores no payload larger than that', async () => {
    const request = await payloadOf(() => app.put(`/api/categories/${categories.heavy}`, { data: { name: 'heavy, renamed' } }, { token }));
    expect(request.json.entry.posts).to.deep.equal({ count: 20 });
    const stored = await app.app.webhooks.outbox.list({ limit: 100 });
    expect(Math.max(...stored.map((delivery) => Buffer.byteLength(delivery.payload)))).to.be.at.most(MAX_BYTES);
  });

  it('keeps related entries when they fit, as Strapi’s content manager sends them', async () => {
    const request = await payloadOf(() => app.put(`/api/categories/${categories.few}`, { data: { name: 'few, renamed' } }, { token }));
    expect(request.json.entry.posts.map((post: { title: string }) => post.title).sort()).to.deep.equal(['small few 0', 'small few 1', 'small few 2']);
  });

  it('bounds a delete’s payload the same way', async () => {
    const request = await payloadOf(() => app.delete(`/api/categories/${categories.many}`, { token }));
    expect(request.json.event).to.equal('entry.delete');
    expect(request.json.entry).to.include({ id: categories.many, name: 'many, renamed' });
    expect(request.json.entry.posts).to.deep.equal({ count: MAX_ENTRIES + 10 });
  });
});
