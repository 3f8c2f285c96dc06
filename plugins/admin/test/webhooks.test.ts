/**
 * The panel's webhook pages on Tessera, answered as Strapi 4.26.2 answers
 * them (recorded/strapi-4.26.2-webhooks.json, replayed step by step on a
 * fresh database of each kind) over the webhook store and outbox that
 * `tessera webhooks` uses; and the targets the server refuses to call.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import recorded from './recorded/strapi-4.26.2-webhooks.json';
import { normalise, RecordingReceiver, startSettingsApp, type RecordedCall } from './settings-fixture';

type Answer = { data: unknown };
const urlRefused = (message: string) => ({
  data: null,
  error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path: ['url'], message, name: 'ValidationError' }] } },
});
/** Strapi's rows Tessera never writes (a URL it cannot deliver to, one it must never call), gone from its lists. */
const unsaved = (answer: Answer) => ({ data: (answer.data as Array<{ url: string }>).filter((webhook) => webhook.url !== 'ftp://example.com' && !webhook.url.includes('169.254.')) });

/**
 * Where Tessera answers differently, on purpose: it refuses a URL that is not http(s) (Strapi accepts any scheme, and
 * can never deliver to it), a metadata address (always), a header that is not a string; and answers a trigger for
 * a webhook that does not exist with a 404 where Strapi fails with a 500.
 */
const DEVIATIONS: Record<string, (answer: Answer) => unknown> = {
  'webhooks: create bad url': () => urlRefused('url must be a valid URL'),
  'webhooks: create metadata url': () => urlRefused('url is refused: 169.254.169.254 is a link-local or cloud metadata address'),
  'webhooks: list': unsaved,
  'webhooks: list end': unsaved,
  'webhooks: trigger missing': () => ({ data: null, error: { status: 404, name: 'NotFoundError', message: 'webhook.notFound', details: {} } }),
  'webhooks create: headers value number': () => ({ data: null, error: { status: 400, name: 'ValidationError', message: 'header "X-A" is not a valid HTTP header', details: {} } }),
  'webhooks list: after': (answer) => ({ data: (answer.data as Array<{ headers: Record<string, unknown> }>).filter((webhook) => webhook.headers['X-A'] !== 5) }),
};

function statusOf(answer: unknown, recordedStatus: number): number {
  const error = (answer as { error?: { status: number } }).error;
  return error ? error.status : recordedStatus;
}

function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, key === 'id' ? '<id>' : withoutIds(item)]));
  return value;
}

function fill(value: unknown, origin: string, ids: Record<string, number>): unknown {
  if (typeof value === 'string') {
    const named = /^\{(\w+)\}$/.exec(value);
    return named ? ids[named[1]!] : value.split('<receiver>').join(origin).replace(/\{(\w+)\}/g, (_, name: string) => String(ids[name]));
  }
  if (Array.isArray(value)) return value.map((item) => fill(item, origin, ids));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item, origin, ids)]));
  return value;
}

eachDatabase('admin webhooks (Strapi 4.26.2 answers)', (dialect) => {
  let app: TestApp;
  let jwt: string;
  let receiver: RecordingReceiver;

  before(async () => {
    receiver = await RecordingReceiver.start();
    ({ app, jwt } = await startSettingsApp(dialect));
  });
  after(async () => {
    await app?.stop();
    await receiver?.stop();
  });

  for (const step of recorded.sequence as RecordedCall[]) {
    it(`${step.method} ${step.path}: ${step.title}`, async () => {
      const token = /no auth/.test(step.title) ? undefined : jwt;
      const response = await app.request(step.method, step.path, { body: fill(step.body, receiver.origin, {}), token });
      const deviates = step.title in DEVIATIONS;
      const expected = deviates ? DEVIATIONS[step.title]!(step.answer as Answer) : step.answer;
      expect([response.status, normalise(response.body, receiver.origin)]).to.deep.equal([deviates ? statusOf(expected, step.status) : step.status, expected]);
    });
  }

  it('sent each trigger once, with Strapi\'s event and headers, and nothing else yet', () => {
    expect(receiver.requests.map((request) => request.path)).to.deep.equal(['/ok?v=2', '/fail', '/teapot']);
    const [first] = receiver.requests;
    expect(first!.headers).to.deep.include({ 'x-api-key': 'k2', 'x-strapi-event': 'trigger-test', 'content-type': 'application/json' });
    expect(Object.keys(JSON.parse(first!.body))).to.deep.equal(['event', 'createdAt']);
  });

  it('delivers a REST create to the webhook the panel made, through the outbox', async () => {
    const token = await app.fullAccessToken();
    expect((await app.post('/api/notes', { data: { title: 'hello' } }, { token })).status).to.equal(200);
    const [delivery] = await waitFor(receiver, (request) => request.headers['x-strapi-event'] === 'entry.create');
    expect(delivery!.path).to.equal('/ok?v=2');
    expect(JSON.parse(delivery!.body)).to.deep.include({ event: 'entry.create', model: 'note' });
  });

  it('manages the rows tessera webhooks reads (the store), and a panel delete stops deliveries', async () => {
    const stored = await app.app.webhookStore.findWebhooks();
    const listed = (await app.get('/admin/webhooks', { token: jwt })).body.data;
    expect(listed).to.deep.equal(stored);
    const fromCli = await app.app.webhookStore.createWebhook({ name: 'cli', url: `${receiver.origin}/ok?cli`, headers: {}, events: ['entry.update'] });
    expect((await app.get(`/admin/webhooks/${fromCli.id}`, { token: jwt })).body.data).to.deep.equal(fromCli);
    const ids = stored.map((webhook) => webhook.id);
    const deleted = await app.post('/admin/webhooks/batch-delete', { ids: [...ids, fromCli.id] }, { token: jwt });
    expect([deleted.status, deleted.body]).to.deep.equal([200, { data: [...ids, fromCli.id] }]);
    expect(await app.app.webhookStore.findWebhooks()).to.deep.equal([]);
    expect(app.app.webhookRunner.forEvent('entry.create')).to.deep.equal([]);
  });

  it('keeps a webhook\'s signing secret when the panel updates it', async () => {
    const created = await app.post('/admin/webhooks', { name: 'signed', url: `${receiver.origin}/ok`, headers: {}, events: [] }, { token: jwt });
    const id = created.body.data.id as number;
    await app.app.webhookStore.setSecret(id, 'whsec-panel');
    app.app.webhookRunner.update({ ...created.body.data, secret: 'whsec-panel' });
    const updated = await app.put(`/admin/webhooks/${id}`, { name: 'signed 2', url: `${receiver.origin}/ok`, headers: {}, events: ['entry.update'] }, { token: jwt });
    expect(updated.status).to.equal(200);
    expect(app.app.webhookRunner.byKey(`db:${id}`)).to.deep.include({ name: 'signed 2', secret: 'whsec-panel' });
    await app.delete(`/admin/webhooks/${id}`, { token: jwt });
  });

  it('refuses a batch delete over its budget, deleting nothing', async () => {
    const kept = await app.app.webhookStore.createWebhook({ name: 'kept', url: `${receiver.origin}/ok`, headers: {}, events: [] });
    const response = await app.post('/admin/webhooks/batch-delete', { ids: Array.from({ length: 1001 }, () => kept.id) }, { token: jwt });
    expect([response.status, response.body.error.message]).to.deep.equal([400, 'ids must name at most 1000 webhooks']);
    expect(await app.app.webhookStore.findWebhook(kept.id)).to.deep.equal(kept);
    await app.app.webhookStore.deleteWebhook(kept.id);
  });

  describe('edge cases (a second recorded sequence)', () => {
    const ids: Record<string, number> = {};
    for (const step of recorded.edges as RecordedCall[]) {
      it(`${step.method} ${step.path}: ${step.title}`, async () => {
        const response = await app.request(step.method, String(fill(step.path, receiver.origin, ids)), { body: fill(step.body, receiver.origin, ids), token: jwt });
        if (step.title === 'webhooks create: good') ids.good = response.body.data.id;
        const deviates = step.title in DEVIATIONS;
        const expected = fill(deviates ? DEVIATIONS[step.title]!(step.answer as Answer) : step.answer, '<receiver>', ids);
        expect([response.status, withoutIds(normalise(response.body, receiver.origin))]).to.deep.equal([deviates ? statusOf(expected, step.status) : step.status, withoutIds(expected)]);
      });
    }
  });
});

async function waitFor(receiver: RecordingReceiver, match: (request: RecordingReceiver['requests'][number]) => boolean) {
  for (;;) {
    const found = receiver.requests.filter(match);
    if (found.length > 0) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
