import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, eachDatabase, EXAMPLE_APP, startApp, type TestApp, type TestDialect } from '@tessera/testing';

/** Entries per content type, drafts included (the query engine, not the API). */
async function counts(app: TestApp): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const uid of app.app.contentTypes.keys()) {
    if (uid.startsWith('api::')) result[uid.slice(5, uid.indexOf('.'))] = await app.app.db.query(uid).count();
  }
  return result;
}

const SEEDED = { article: 30, category: 5, homepage: 1, page: 3, tag: 8, writer: 4, 'writer-profile': 4 };
const EMPTY = { article: 0, category: 0, homepage: 0, page: 0, tag: 0, writer: 0, 'writer-profile': 0 };

eachDatabase('example app: sample content on the first run', (dialect: TestDialect) => {
  let saved: string | undefined;
  let app: TestApp | undefined;
  let scratch: string | undefined;
  beforeEach(() => {
    saved = process.env.SEED;
    delete process.env.SEED;
  });
  afterEach(async () => {
    if (saved === undefined) delete process.env.SEED;
    else process.env.SEED = saved;
    await app?.stop();
    app = undefined;
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    scratch = undefined;
  });

  it('seeds an empty database with a blog that the API serves, drafts hidden', async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP });
    expect(await counts(app)).to.deep.equal(SEEDED);

    const list = await app.get('/api/articles?pagination[pageSize]=2&sort=id');
    expect(list.status).to.equal(200);
    expect(list.body.meta.pagination).to.deep.equal({ page: 1, pageSize: 2, pageCount: 13, total: 25 });
    expect(list.body.data[0].attributes).to.include({ title: 'Welcome to the Tessera blog', slug: 'welcome-to-the-tessera-blog', publishDate: '2024-01-01' });

    const populated = await app.get('/api/articles/1?populate=*');
    expect(populated.body.data.attributes.category.data.attributes.name).to.equal('News');
    expect(populated.body.data.attributes.tags.data.map((tag: { attributes: { name: string } }) => tag.attributes.name)).to.deep.equal(['api']);
    expect(populated.body.data.attributes.author.data.attributes.name).to.equal('Ravi Patel');
    expect(populated.body.data.attributes.seo).to.include({ metaTitle: 'Welcome to the Tessera blog' });

    const about = await app.get('/api/pages/1?populate[content][populate]=*&populate[links]=true');
    expect(about.body.data.attributes.content.map((block: { __component: string }) => block.__component)).to.deep.equal(['shared.rich-text', 'shared.quote', 'shared.feature']);
    expect(about.body.data.attributes.content[2].article.data.id).to.equal(1);
    expect(about.body.data.attributes.links).to.have.length(2);
    expect(about.body.data.attributes).not.to.have.property('notes');

    const home = await app.get('/api/homepage?populate=featuredArticles');
    expect(home.body.data.attributes.featuredArticles.data.map((article: { id: number }) => article.id)).to.deep.equal([1, 3, 15]);
  });

  it('runs once: a restart, or a database with any content, is left as it is', async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP });
    const token = await app.fullAccessToken();
    expect((await app.delete('/api/articles/2', { token })).status).to.equal(200);
    await app.stop({ keepDatabase: true });
    app = await startApp({ dialect, from: EXAMPLE_APP, database: app.database });
    expect(await counts(app)).to.deep.equal({ ...SEEDED, article: 29 });

    // Only tags left: still content, still untouched.
    for (const uid of ['api::homepage.homepage', 'api::page.page', 'api::article.article', 'api::writer-profile.writer-profile', 'api::writer.writer', 'api::category.category']) {
      await app.app.db.query(uid).deleteMany({});
    }
    await app.stop({ keepDatabase: true });
    app = await startApp({ dialect, from: EXAMPLE_APP, database: app.database });
    expect(await counts(app)).to.deep.equal({ ...EMPTY, tag: 8 });
  });

  it('two servers booting at once on one empty database seed it once', async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-seed-race-'));
    const database = await createDatabase(dialect, scratch);
    const [first, second] = await Promise.all([
      startApp({ dialect, from: EXAMPLE_APP, database }),
      startApp({ dialect, from: EXAMPLE_APP, database }),
    ]);
    try {
      expect(await counts(first)).to.deep.equal(SEEDED);
      expect((await second.get('/api/articles?pagination[pageSize]=1')).body.meta.pagination.total).to.equal(25);
    } finally {
      await second.stop({ keepDatabase: true });
      app = first;
    }
  });

  it('SEED=false leaves the database empty', async () => {
    process.env.SEED = 'false';
    app = await startApp({ dialect, from: EXAMPLE_APP });
    expect(await counts(app)).to.deep.equal(EMPTY);
  });

  it('is one transaction: a failure part-way leaves nothing behind', async () => {
    const failing = `export default { beforeCreate(event) { if (event.params.data.title === 'Postgres or SQLite?') throw new Error('hook refused'); } };\n`;
    const files = { 'src/api/article/content-types/article/lifecycles.ts': failing };
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-seed-'));
    const database = await createDatabase(dialect, scratch);
    const error = await startApp({ dialect, from: EXAMPLE_APP, files, database, noListen: true }).then(
      () => new Error('expected the boot to fail'),
      (failure: Error) => failure,
    );
    expect(error.message).to.equal('hook refused');
    process.env.SEED = 'false';
    app = await startApp({ dialect, from: EXAMPLE_APP, database, noListen: true });
    expect(await counts(app)).to.deep.equal(EMPTY);
  });
});
