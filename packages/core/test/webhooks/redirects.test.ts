import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { eachDatabase, WebhookReceiver, type TestApp } from '@tessera/testing';
import { addWebhook, settled, startWebhookApp } from './fixture';

/**
 * Issue 36, finding 5: delivery followed redirects (fetch's default), so a
 * receiver could send the payload, the signature and the webhook's own
 * headers anywhere — loopback included — and the delivery counted as
 * delivered. A 3xx is now the attempt's answer: a failed attempt, nothing
 * sent to the Location.
 */
eachDatabase('webhooks: redirects are not followed', (dialect) => {
  let app: TestApp;
  let target: WebhookReceiver;
  let redirector: http.Server;
  let redirectorUrl: string;
  const redirected: string[] = [];
  /** Each request to the redirector gets the next of these statuses, pointing at the target receiver. */
  const statuses = [302, 307, 308];

  before(async () => {
    target = await WebhookReceiver.start();
    redirector = http.createServer((request, response) => {
      redirected.push(`${request.method} ${request.url}`);
      request.resume();
      const status = statuses[(redirected.length - 1) % statuses.length]!;
      response.writeHead(status, { location: target.url }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    redirectorUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/hook`;
    app = await startWebhookApp(dialect);
    await addWebhook(app, redirectorUrl, ['entry.create'], { secret: 'whsec', headers: { 'X-Api-Key': 'key-for-the-receiver-only' } });
  });
  after(async () => {
    await app?.stop();
    await target?.stop();
    redirector?.closeAllConnections();
    await new Promise<void>((resolve) => (redirector ? redirector.close(() => resolve()) : resolve()));
  });

  it('records a 302, 307 or 308 as a failed attempt and sends nothing to the Location', async () => {
    const token = await app.fullAccessToken();
    const created = await app.post('/api/categories', { data: { name: 'Redirected' } }, { token });
    expect(created.status).to.equal(200);
    const [delivery] = await app.app.webhooks.outbox.list({ limit: 1 });
    // FAST_DELIVERY: three attempts, then failed for good.
    const failed = await settled(app, delivery!.id, 'failed');
    expect(failed).to.include({ attempts: 3, lastStatus: 308 });
    expect(failed.lastError).to.equal(`redirected to ${target.url}: redirects are not followed`);
    expect(redirected).to.deep.equal(['POST /hook', 'POST /hook', 'POST /hook']);
    expect(target.requests, 'nothing reached the Location').to.deep.equal([]);
  });

  it('answers webhookRunner.run (the trigger) with the 3xx itself', async () => {
    const before = redirected.length;
    const result = await app.app.webhookRunner.run({ id: 'redirecting', url: redirectorUrl, events: [], headers: {} }, 'trigger-test');
    expect(result.statusCode).to.equal(statuses[before % statuses.length]);
    expect(result.message).to.equal(`redirected to ${target.url}: redirects are not followed`);
    expect(target.requests).to.deep.equal([]);
  });
});
