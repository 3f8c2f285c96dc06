/**
 * The content manager writes as REST and GraphQL do — through the entity service: lifecycle hooks see each write,
 * content events (what webhooks send) are announced once it commits, a failed write changes nothing — and stamps
 * the signed-in admin in Strapi's `created_by_id`/`updated_by_id`, which the content API neither shows nor lets a
 * client set. Bad input is a 4xx in the admin error envelope, never a 500.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { registerFirstAdmin, startEntriesApp } from './entries-fixture';

const A = '/content-manager/collection-types/api::article.article';
const ARTICLE = 'api::article.article';

eachDatabase('content manager entries: writes', (dialect) => {
  let app: TestApp;
  let token: string;
  const lifecycle: string[] = [];
  const events: string[] = [];
  before(async () => {
    app = await startEntriesApp(dialect);
    token = await registerFirstAdmin(app);
    app.app.db.lifecycles.subscribe({
      models: [ARTICLE],
      beforeCreate: (event) => {
        lifecycle.push(`beforeCreate ${String((event.params.data as { title?: unknown }).title)}`);
      },
      afterUpdate: (event) => {
        lifecycle.push(`afterUpdate ${String((event.result as { title?: unknown }).title)}`);
      },
    });
    for (const name of ['entry.create', 'entry.update', 'entry.publish', 'entry.unpublish', 'entry.delete'] as const) {
      app.app.hooks.on(name, (event) => {
        if (event.uid === ARTICLE) events.push(`${name} ${String(event.entry.title)}`);
      });
    }
  });
  after(() => app?.stop());

  async function stamps(id: number): Promise<Record<string, unknown> | undefined> {
    const row = await app.app.db.query(ARTICLE).findOne({ where: { id }, select: ['createdBy', 'updatedBy'] });
    return row ? { createdBy: row.createdBy, updatedBy: row.updatedBy } : undefined;
  }

  it('runs lifecycles and content events, and stamps the admin as creator and last editor', async () => {
    const created = await app.post(A, { title: 'Stamped', slug: 'stamped', createdBy: 99, updatedBy: 99 }, { token });
    expect(created.status).to.equal(200);
    expect(created.body.createdBy).to.deep.equal({ id: 1, firstname: 'Cm', lastname: 'Entries', username: null });
    expect(await stamps(created.body.id)).to.deep.equal({ createdBy: 1, updatedBy: 1 });
    const id = created.body.id as number;
    expect((await app.put(`${A}/${id}`, { title: 'Stamped, edited' }, { token })).status).to.equal(200);
    expect((await app.post(`${A}/${id}/actions/publish`, {}, { token })).status).to.equal(200);
    expect((await app.post(`${A}/${id}/actions/unpublish`, {}, { token })).status).to.equal(200);
    expect((await app.delete(`${A}/${id}`, { token })).status).to.equal(200);
    expect(lifecycle).to.deep.equal(['beforeCreate Stamped', 'afterUpdate Stamped, edited', 'afterUpdate Stamped, edited', 'afterUpdate Stamped, edited']);
    expect(events).to.deep.equal(['entry.create Stamped', 'entry.update Stamped, edited', 'entry.publish Stamped, edited', 'entry.unpublish Stamped, edited', 'entry.delete Stamped, edited']);
  });

  it('keeps authorship away from the content API: never shown, never set by a client', async () => {
    const apiToken = await app.fullAccessToken();
    const created = await app.post('/api/articles', { data: { title: 'From the API', createdBy: 1 } }, { token: apiToken });
    expect(created.status).to.equal(200);
    expect(created.body.data.attributes).to.not.have.property('createdBy');
    expect(await stamps(created.body.data.id)).to.deep.equal({ createdBy: null, updatedBy: null });
    const adminOnApi = await app.get('/api/articles', { token });
    expect(adminOnApi.status).to.equal(401);
    const apiOnAdmin = await app.get(`${A}?page=1`, { token: apiToken });
    expect(apiOnAdmin.status).to.equal(401);
  });

  it('a bulk publish that cannot publish one entry publishes none', async () => {
    const ok = await app.post(A, { title: 'Complete', slug: 'complete' }, { token });
    const incomplete = await app.post(A, { views: 1 }, { token });
    const refused = await app.post(`${A}/actions/bulkPublish`, { ids: [ok.body.id, incomplete.body.id] }, { token });
    expect(refused.status).to.equal(400);
    expect(refused.body.error.message).to.equal('title must be a `string` type, but the final value was: `null`.');
    expect((await app.get(`${A}/${ok.body.id}`, { token })).body.publishedAt).to.equal(null);
  });

  it('answers bad input with a 4xx in the error envelope', async () => {
    const { id } = (await app.post(A, { title: 'Target', slug: 'target' }, { token })).body as { id: number };
    const cases: Array<[string, string, unknown, number, string]> = [
      ['POST', A, [1, 2], 400, 'ValidationError'],
      ['POST', `${A}/actions/bulkDelete`, { ids: Array.from({ length: 1001 }, (_, k) => k + 1) }, 400, 'ValidationError'],
      ['POST', `${A}/actions/bulkDelete`, { ids: ['x'] }, 400, 'ValidationError'],
      ['GET', `${A}/abc`, undefined, 400, 'ValidationError'],
      ['GET', `${A}?page=1&filters[title][$regex]=x`, undefined, 400, 'ValidationError'],
      ['GET', '/content-manager/relations/api::article.article/tags?idsToOmit[0]=abc', undefined, 400, 'ValidationError'],
      ['GET', '/content-manager/relations/api::nope.nope/tags', undefined, 400, 'BadRequestError'],
      ['GET', '/content-manager/collection-types/admin::user?page=1', undefined, 403, 'ForbiddenError'],
      ['PUT', `${A}/${id}`, { title: 'x'.repeat(300) }, 400, 'ValidationError'],
      ['PUT', `${A}/${id}`, { tags: { connect: [{ id: 999 }] } }, 400, 'ValidationError'],
    ];
    for (const [method, path, body, status, name] of cases) {
      const response = await app.request(method, encodeURI(path), { token, body });
      expect({ path, status: response.status, name: response.body?.error?.name }).to.deep.equal({ path, status, name });
    }
  });
});
