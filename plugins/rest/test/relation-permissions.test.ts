import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

/**
 * Filters and sorts through a relation obey the caller's permissions like
 * populate does: a type the caller may not `find` cannot be probed through
 * another type's filters.
 */
const FILES = {
  'src/api/post/content-types/post/schema.json': {
    kind: 'collectionType',
    collectionName: 'posts',
    info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
    options: { draftAndPublish: false },
    attributes: {
      title: { type: 'string' },
      vault: { type: 'relation', relation: 'manyToOne', target: 'api::vault.vault', inversedBy: 'posts' },
    },
  },
  'src/api/vault/content-types/vault/schema.json': {
    kind: 'collectionType',
    collectionName: 'vaults',
    info: { singularName: 'vault', pluralName: 'vaults', displayName: 'Vault' },
    options: { draftAndPublish: false },
    attributes: {
      code: { type: 'string' },
      posts: { type: 'relation', relation: 'oneToMany', target: 'api::post.post', mappedBy: 'vault' },
    },
  },
  'config/permissions.ts': `export default { public: ['api::post.post.find'] };\n`,
};

const INVALID_VAULT = { data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid parameter vault', details: {} } };

eachDatabase('relation filters and sorts obey read permissions', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startApp({ dialect, files: FILES });
    token = await app.fullAccessToken();
    const vault = await app.post('/api/vaults', { data: { code: 'secret-42' } }, { token });
    await app.post('/api/posts', { data: { title: 'In the vault', vault: vault.body.data.id } }, { token });
    await app.post('/api/posts', { data: { title: 'Outside' } }, { token });
  });
  after(() => app?.stop());

  it('refuses an anonymous filter into a type the public may not read', async () => {
    const response = await app.get('/api/posts?filters[vault][code][$eq]=secret-42');
    expect(response.status).to.equal(400);
    expect(response.body).to.deep.equal(INVALID_VAULT);
  });

  it('refuses an anonymous sort through that relation', async () => {
    const response = await app.get('/api/posts?sort=vault.code:asc');
    expect(response.status).to.equal(400);
    expect(response.body).to.deep.equal(INVALID_VAULT);
  });

  it('lets a caller who may read the type filter through it', async () => {
    const response = await app.get('/api/posts?filters[vault][code][$eq]=secret-42&fields[0]=title', { token });
    expect(response.status).to.equal(200);
    expect(response.body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title)).to.deep.equal(['In the vault']);
  });

  it('still serves the anonymous list without the relation', async () => {
    const response = await app.get('/api/posts?fields[0]=title&sort=title:asc');
    expect(response.status).to.equal(200);
    expect(response.body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title)).to.deep.equal(['In the vault', 'Outside']);
  });

  it('leaves that relation out of an anonymous populate, named or through *', async () => {
    const named = await app.get('/api/posts?populate=vault&fields[0]=title&sort=title:asc');
    expect(named.status).to.equal(200);
    expect(named.body.data.map((entry: { attributes: Record<string, unknown> }) => entry.attributes)).to.deep.equal([{ title: 'In the vault' }, { title: 'Outside' }]);
    const star = await app.get('/api/posts?populate=*&fields[0]=title&sort=title:asc');
    expect(star.status).to.equal(200);
    expect(star.body.data.map((entry: { attributes: Record<string, unknown> }) => entry.attributes)).to.deep.equal([{ title: 'In the vault' }, { title: 'Outside' }]);
  });

  // Read plans are cached per parameters and read scope: the same query string must
  // still answer each caller by their own permissions, and each page by its own rows.
  it('answers the same populate by each caller\'s permissions, in any order', async () => {
    const path = '/api/posts?populate=*&fields[0]=title&sort=title:asc';
    const vaults = (body: { data: Array<{ attributes: { vault?: { data: unknown } } }> }) => body.data.map((entry) => entry.attributes.vault);
    const anonymous = await app.get(path);
    const trusted = await app.get(path, { token });
    const anonymousAgain = await app.get(path);
    expect(vaults(anonymous.body)).to.deep.equal([undefined, undefined]);
    expect(trusted.body.data[0].attributes.vault.data.attributes.code).to.equal('secret-42');
    expect(vaults(anonymousAgain.body)).to.deep.equal([undefined, undefined]);
  });

  it('answers each page of one cached plan with its own rows', async () => {
    const page = (n: number) => app.get(`/api/posts?fields[0]=title&sort=title:asc&pagination[page]=${n}&pagination[pageSize]=1`);
    const [first, second, firstAgain] = [await page(1), await page(2), await page(1)];
    expect(first.body.data[0].attributes.title).to.equal('In the vault');
    expect(second.body.data[0].attributes.title).to.equal('Outside');
    expect(firstAgain.body).to.deep.equal(first.body);
    expect(second.body.meta).to.deep.equal({ pagination: { page: 2, pageSize: 1, pageCount: 2, total: 2 } });
  });
});

