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

/**
 * The review's MariaDB case with the default bounds: a category linked to 60,000 posts made a payload over
 * max_allowed_packet (16 MB), so its outbox insert failed and every PUT answered 503. MySQL/MariaDB only (the other
 * databases have no packet limit; the bounds above apply to them alike).
 */
eachDatabase('webhooks: a payload over max_allowed_packet', (dialect) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  let categoryId: number;
  const POSTS = 60_000;

  before(async function () {
    if (dialect !== 'mysql') return this.skip();
    this.timeout(120_000);
    receiver = await WebhookReceiver.start();
    app = await startWebhookApp(dialect);
    const { sql } = app.app.db;
    const category = (await app.app.entityService.create('api::category.category', { data: { name: 'linked to 60,000' } })) as { id: number };
    categoryId = category.id;
    const digits = '(SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)';
    const numbers = `(SELECT a.n + 10 * b.n + 100 * c.n + 1000 * d.n + 10000 * e.n AS n FROM ${digits} a, ${digits} b, ${digits} c, ${digits} d, ${digits} e) numbers`;
    const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
    await sql.raw(`INSERT INTO posts (title, created_at, updated_at, published_at) SELECT CONCAT(REPEAT('x', 240), ' ', n), ?, ?, ? FROM ${numbers} WHERE n < ?`, [now, now, now, POSTS]);
    await sql.raw(`INSERT INTO posts_category_links (post_id, category_id) SELECT id, ? FROM posts`, [categoryId]);
    await addWebhook(app, receiver.url, ['entry.update']);
  });
  after(async () => {
    await app?.stop();
    await receiver?.stop();
  });

  it('answers the PUT with 200 and sends the relation as { count }', async () => {
    const token = await app.fullAccessToken();
    const answer = await app.put(`/api/categories/${categoryId}`, { data: { name: 'still writable' } }, { token });
    expect(answer.status).to.equal(200);
    const [request] = await receiver.waitFor(1);
    expect(request!.json.entry).to.include({ id: categoryId, name: 'still writable' });
    expect(request!.json.entry.posts).to.deep.equal({ count: POSTS });
  });
});
