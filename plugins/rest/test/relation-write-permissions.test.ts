import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

/**
 * Relation writes obey read permissions: a caller who may write posts but not
 * read vaults cannot link vaults — directly, inside a component or a dynamic
 * zone — cannot learn which vault ids exist (drafts included) from the
 * answer, and cannot take a vault away from another post. The refusal comes
 * before any look-up and names the key.
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
      keeper: { type: 'relation', relation: 'oneToOne', target: 'api::vault.vault', inversedBy: 'kept' },
      tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'posts' },
      cover: { type: 'media', multiple: false },
      seo: { type: 'component', repeatable: false, component: 'shared.meta' },
      blocks: { type: 'dynamiczone', components: ['shared.meta', 'shared.plain'] },
    },
  },
  'src/api/vault/content-types/vault/schema.json': {
    kind: 'collectionType',
    collectionName: 'vaults',
    info: { singularName: 'vault', pluralName: 'vaults', displayName: 'Vault' },
    options: { draftAndPublish: true },
    attributes: {
      code: { type: 'string' },
      posts: { type: 'relation', relation: 'oneToMany', target: 'api::post.post', mappedBy: 'vault' },
      kept: { type: 'relation', relation: 'oneToOne', target: 'api::post.post', mappedBy: 'keeper' },
    },
  },
  'src/api/tag/content-types/tag/schema.json': {
    kind: 'collectionType',
    collectionName: 'tags',
    info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
    options: { draftAndPublish: false },
    attributes: {
      name: { type: 'string' },
      posts: { type: 'relation', relation: 'manyToMany', target: 'api::post.post', mappedBy: 'tags' },
    },
  },
  'src/api/home/content-types/home/schema.json': {
    kind: 'singleType',
    collectionName: 'homes',
    info: { singularName: 'home', pluralName: 'homes', displayName: 'Home' },
    options: { draftAndPublish: false },
    attributes: {
      headline: { type: 'string' },
      vault: { type: 'relation', relation: 'oneToOne', target: 'api::vault.vault' },
    },
  },
  'src/components/shared/meta.json': {
    collectionName: 'components_shared_metas',
    info: { displayName: 'Meta' },
    attributes: { label: { type: 'string' }, vault: { type: 'relation', relation: 'oneToOne', target: 'api::vault.vault' } },
  },
  'src/components/shared/plain.json': {
    collectionName: 'components_shared_plains',
    info: { displayName: 'Plain' },
    attributes: { text: { type: 'string' } },
  },
};

const POST_WRITER = ['find', 'findOne', 'create', 'update'].map((action) => `api::post.post.${action}`);

function refusal(...paths: string[][]) {
  const errors = paths.map((path) => ({ path, message: `${path.join('.')}: you may not read api::vault.vault, so you may not link to it`, name: 'ValidationError' }));
  const message = errors.length === 1 ? errors[0].message : `${errors.length} errors occurred`;
  return { data: null, error: { status: 400, name: 'ValidationError', message, details: { errors } } };
}

eachDatabase('relation writes obey read permissions', (dialect) => {
  let app: TestApp;
  let full: string;
  let writer: string;
  let vaultWriter: string;
  let vaultId: number;
  let draftVaultId: number;
  let keptPostId: number;
  let tagId: number;

  const postCount = async () => (await app.get('/api/posts?pagination[pageSize]=1', { token: full })).body.meta.pagination.total;

  before(async () => {
    app = await startApp({ dialect, files: FILES });
    full = await app.fullAccessToken();
    writer = (await app.app.apiTokens.create({ name: 'post-writer', type: 'custom', permissions: [...POST_WRITER, 'api::tag.tag.find', 'api::home.home.update'] })).accessKey;
    vaultWriter = (await app.app.apiTokens.create({ name: 'vault-reader', type: 'custom', permissions: [...POST_WRITER, 'api::vault.vault.find'] })).accessKey;
    vaultId = (await app.post('/api/vaults', { data: { code: 'open' } }, { token: full })).body.data.id;
    draftVaultId = (await app.post('/api/vaults', { data: { code: 'draft', publishedAt: null } }, { token: full })).body.data.id;
    keptPostId = (await app.post('/api/posts', { data: { title: 'holder', keeper: vaultId } }, { token: full })).body.data.id;
    tagId = (await app.post('/api/tags', { data: { name: 'news' } }, { token: full })).body.data.id;
  });
  after(() => app?.stop());

  it('refuses a relation key to an unreadable type on create, naming it, and writes nothing', async () => {
    const before = await postCount();
    const response = await app.post('/api/posts', { data: { title: 'sneaky', vault: vaultId } }, { token: writer });
    expect(response.status).to.equal(400);
    expect(response.body).to.deep.equal(refusal(['vault']));
    expect(await postCount()).to.equal(before);
  });

  it('answers the same for an existing id, a draft id and an id that does not exist: no existence oracle', async () => {
    const answers = await Promise.all([vaultId, draftVaultId, 987654].map((id) => app.post('/api/posts', { data: { title: 'probe', vault: id } }, { token: writer })));
    for (const answer of answers) expect(answer.body).to.deep.equal(refusal(['vault']));
  });

  it('refuses every input form: connect, disconnect, set, a list and null', async () => {
    const forms = [{ connect: [vaultId] }, { disconnect: [vaultId] }, { set: [] }, [vaultId], null];
    for (const vault of forms) {
      const response = await app.put(`/api/posts/${keptPostId}`, { data: { vault } }, { token: writer });
      expect(response.body, JSON.stringify(vault)).to.deep.equal(refusal(['vault']));
    }
  });

  it('cannot take an entry away from another one through a one-to-one relation', async () => {
    const other = await app.post('/api/posts', { data: { title: 'thief' } }, { token: writer });
    expect(other.status).to.equal(200);
    const response = await app.put(`/api/posts/${other.body.data.id}`, { data: { keeper: vaultId } }, { token: writer });
    expect(response.body).to.deep.equal(refusal(['keeper']));
    const holder = await app.get(`/api/posts/${keptPostId}?populate[keeper][fields][0]=code&fields[0]=title`, { token: full });
    expect(holder.body.data.attributes.keeper).to.deep.equal({ data: { id: vaultId, attributes: { code: 'open' } } });
  });

  it('refuses relation keys inside components and dynamic zones, with their paths, all in one answer', async () => {
    const data = {
      title: 'nested',
      seo: { label: 'x', vault: vaultId },
      blocks: [{ __component: 'shared.plain', text: 'fine' }, { __component: 'shared.meta', vault: vaultId }],
      keeper: vaultId,
    };
    const response = await app.post('/api/posts', { data }, { token: writer });
    expect(response.body).to.deep.equal(refusal(['keeper'], ['seo', 'vault'], ['blocks', '1', 'vault']));
  });

  it('lets components without such keys, and relations to readable types, through', async () => {
    const data = { title: 'allowed', tags: [tagId], seo: { label: 'only a label' }, blocks: [{ __component: 'shared.meta', label: 'm' }] };
    const response = await app.post('/api/posts?populate[tags][fields][0]=name&fields[0]=title', { data }, { token: writer });
    expect(response.status).to.equal(200);
    expect(response.body.data.attributes).to.deep.equal({ title: 'allowed', tags: { data: [{ id: tagId, attributes: { name: 'news' } }] } });
  });

  it('lets a caller who may read the target link it', async () => {
    const response = await app.post('/api/posts?populate[vault][fields][0]=code&fields[0]=title', { data: { title: 'linked', vault: vaultId, seo: { vault: vaultId } } }, { token: vaultWriter });
    expect(response.status).to.equal(200);
    expect(response.body.data.attributes).to.deep.equal({ title: 'linked', vault: { data: { id: vaultId, attributes: { code: 'open' } } } });
  });

  it('applies to a single type\'s PUT (update or create) too', async () => {
    const response = await app.put('/api/home', { data: { headline: 'hi', vault: vaultId } }, { token: writer });
    expect(response.body).to.deep.equal(refusal(['vault']));
    expect((await app.get('/api/home', { token: full })).status).to.equal(404);
  });

  // Media follows populate's rule for files: the caller may link files exactly when populate shows them.
  it('refuses a media key exactly when populate would hide media from the caller', async () => {
    const file = await app.app.entityService.create('plugin::upload.file', { data: { name: 'a.png', hash: 'a', mime: 'image/png', size: 1, url: '/a.png', provider: 'local' } });
    const withCover = await app.post('/api/posts', { data: { title: 'covered', cover: file.id } }, { token: full });
    const shown = await app.get(`/api/posts/${withCover.body.data.id}?populate=cover`, { token: writer });
    const write = await app.post('/api/posts', { data: { title: 'cover', cover: file.id } }, { token: writer });
    if (shown.body.data.attributes.cover === undefined) {
      expect(write.status).to.equal(400);
      expect(write.body.error.details.errors[0].path).to.deep.equal(['cover']);
    } else {
      expect(shown.body.data.attributes.cover.data.id).to.equal(file.id);
      expect(write.status).to.equal(200);
    }
  });
});
