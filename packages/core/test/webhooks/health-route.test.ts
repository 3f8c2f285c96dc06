import { expect } from 'chai';
import { eachDatabase, WebhookReceiver, type TestApp } from '@tessera/testing';
import { addWebhook, settled, startWebhookApp } from './fixture';

/**
 * Issue 36, finding 3: `/_health/webhooks` was anonymous and counted the
 * whole outbox (`GROUP BY status` over every row) on every request. It now
 * asks for a full-access API token and reads only the counters: the
 * statements a request runs never touch `tessera_webhook_deliveries`, however
 * many rows it holds, and the counts stay exact as rows are written, claimed,
 * delivered, failed, retried and pruned.
 */
eachDatabase('webhooks: /_health/webhooks', (dialect) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  let token: string;
  before(async () => {
    receiver = await WebhookReceiver.start();
    app = await startWebhookApp(dialect);
    token = await app.fullAccessToken();
    await addWebhook(app, receiver.url, ['entry.create']);
  });
  after(async () => {
    await app?.stop();
    await receiver?.stop();
  });

  it('refuses anonymous callers and tokens that are not full-access, in Strapi’s error envelope', async () => {
    const anonymous = await app.get('/_health/webhooks');
    // As on any route that needs a credential: no credential is a 401, a credential without the right a 403.
    expect(anonymous.status).to.equal(401);
    expect(anonymous.body.error).to.include({ status: 401, name: 'UnauthorizedError' });
    const { accessKey: readOnly } = await app.app.apiTokens.create({ name: 'read-only', type: 'read-only' });
    expect((await app.get('/_health/webhooks', { token: readOnly })).status).to.equal(403);
    const { accessKey: custom } = await app.app.apiTokens.create({ name: 'custom', type: 'custom', permissions: ['admin::webhooks.read'] });
    expect((await app.get('/_health/webhooks', { token: custom })).status, 'a custom token granted the action is still not full-access').to.equal(403);
    expect((await app.get('/_health/webhooks', { token: 'not-a-token' })).status).to.equal(401);
  });

  it('answers exact counts from the counters without reading the outbox’s rows', async () => {
    receiver.status = 503;
    await app.post('/api/categories', { data: { name: 'will fail' } }, { token });
    const [failing] = await receiver.waitFor(1);
    await settled(app, Number(failing!.headers['x-tessera-delivery']), 'failed');
    receiver.status = 200;
    await app.post('/api/categories', { data: { name: 'delivered' } }, { token });
    const [, , , delivered] = await receiver.waitFor(4);
    await settled(app, Number(delivered!.headers['x-tessera-delivery']), 'delivered');

    const statements: string[] = [];
    const stop = app.app.db.sql.onQuery((sql) => void statements.push(sql));
    const health = await app.get('/_health/webhooks', { token });
    stop();
    expect(health.status).to.equal(200);
    expect(health.body).to.deep.equal({ deliveries: { pending: 0, sending: 0, delivered: 1, failed: 1 }, webhooks: 1, paused: [] });
    expect(statements.filter((sql) => sql.includes('tessera_webhook_deliveries')), statements.join('\n')).to.deep.equal([]);
    // Counters and unfolded changes in one statement: one snapshot, whatever a fold commits meanwhile.
    expect(statements.filter((sql) => sql.includes('tessera_webhook_count'))).to.have.length(1);

    // The counters follow a retry and a prune as they follow deliveries.
    expect(await app.app.webhooks.outbox.retry(Number(failing!.headers['x-tessera-delivery']))).to.equal(true);
    await settled(app, Number(failing!.headers['x-tessera-delivery']), 'delivered');
    expect((await app.get('/_health/webhooks', { token })).body.deliveries).to.deep.equal({ pending: 0, sending: 0, delivered: 2, failed: 0 });
    expect(await app.app.webhooks.outbox.prune(Date.now() + 1)).to.equal(2);
    expect((await app.get('/_health/webhooks', { token })).body.deliveries).to.deep.equal({ pending: 0, sending: 0, delivered: 0, failed: 0 });
  });
});
