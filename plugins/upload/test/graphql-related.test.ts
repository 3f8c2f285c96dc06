/**
 * `UploadFile.related: [GenericMorph]` over GraphQL, on both databases: the
 * entries a file is linked to, each as its own type (`__typename`), in link
 * order; types the caller may not `find` left out; drafts hidden under the
 * live state; `null` when nothing readable is linked; one batch of queries
 * for every file of a page.
 *
 * Strapi 4.26.2 fails this field ("Missing schema in validateQuery", recorded
 * in data/strapi-4.26.2-upload-related.json); Tessera answers what Strapi 4.x
 * answered before that regression: the sanitized morph list, or null.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import graphqlPlugin from '@tessera/plugin-graphql';
import restPlugin from '@tessera/plugin-rest';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';
import uploadPlugin from '../src';
import { POST_SCHEMA, file, multipart } from './fixture';

const NOTE_SCHEMA = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: true },
  attributes: { title: { type: 'string' }, hidden: { type: 'string', private: true }, attachments: { type: 'media', multiple: true } },
};

const RELATED = `{ uploadFiles(sort: "id:asc") { data { id attributes { name related {
  __typename
  ... on Post { title }
  ... on Note { title publishedAt }
} } } } }`;

const RECORDED = JSON.parse(fs.readFileSync(path.join(__dirname, 'data', 'strapi-4.26.2-upload-related.json'), 'utf8'));

eachDatabase('upload: GraphQL UploadFile.related', (dialect) => {
  let app: TestApp;
  let token: string;
  const files: Record<string, number> = {};

  before(async () => {
    app = await startApp({
      dialect,
      files: {
        'src/api/post/content-types/post/schema.json': POST_SCHEMA,
        'src/api/note/content-types/note/schema.json': NOTE_SCHEMA,
        // The public may list files and posts, not notes.
        'config/permissions.ts': `export default { public: ['api::post.post.find', 'plugin::upload.file.find'] };`,
      },
      plugins: [restPlugin, uploadPlugin, graphqlPlugin],
      config: { plugins: { upload: { enabled: true } } },
    });
    token = await app.fullAccessToken();
    for (const name of ['shared', 'lonely', 'noteOnly']) {
      const response = await multipart(app, '/api/upload', [file(`${name} bytes`, `${name}.txt`)], token);
      expect(response.status).to.equal(200);
      files[name] = response.body[0].id;
    }
    const write = async (url: string, data: Record<string, unknown>) => {
      const response = await app.post(url, { data }, { token });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
    };
    await write('/api/posts', { title: 'First post', cover: files.shared, secret: 's1' });
    await write('/api/posts', { title: 'Second post', gallery: [files.shared] });
    await write('/api/notes', { title: 'Published note', hidden: 'h', attachments: [files.shared, files.noteOnly], publishedAt: '2024-01-01T00:00:00.000Z' });
    await write('/api/notes', { title: 'Draft note', attachments: [files.shared], publishedAt: null });
  });
  after(() => app?.stop());

  it('lists what each file is linked to, as its own type, in link order; drafts hidden; null when nothing is linked', async () => {
    const response = await app.post('/graphql', { query: RELATED }, { token });
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      data: {
        uploadFiles: {
          data: [
            {
              id: String(files.shared),
              attributes: {
                name: 'shared.txt',
                related: [
                  { __typename: 'Post', title: 'First post' },
                  { __typename: 'Post', title: 'Second post' },
                  { __typename: 'Note', title: 'Published note', publishedAt: '2024-01-01T00:00:00.000Z' },
                ],
              },
            },
            { id: String(files.lonely), attributes: { name: 'lonely.txt', related: null } },
            { id: String(files.noteOnly), attributes: { name: 'noteOnly.txt', related: [{ __typename: 'Note', title: 'Published note', publishedAt: '2024-01-01T00:00:00.000Z' }] } },
          ],
        },
      },
    });
  });

  it('leaves out the types the caller may not find (null when nothing readable is left), as Strapi v4 sanitizes it', async () => {
    const response = await app.post('/graphql', { query: RELATED });
    expect(response.status).to.equal(200);
    expect(response.body.errors).to.equal(undefined);
    const related = response.body.data.uploadFiles.data.map((entry: { attributes: { related: unknown } }) => entry.attributes.related);
    expect(related).to.deep.equal([[{ __typename: 'Post', title: 'First post' }, { __typename: 'Post', title: 'Second post' }], null, null]);
  });

  it('private attributes of a related entry are not in its type; the related entries carry links of their own', async () => {
    const invalid = await app.post('/graphql', { query: '{ uploadFiles { data { attributes { related { ... on Post { secret } } } } } }' }, { token });
    expect(invalid.status).to.equal(400);
    expect(invalid.body.errors[0].extensions.code).to.equal('GRAPHQL_VALIDATION_FAILED');
    const nested = await app.post('/graphql', { query: `{ uploadFile(id: ${files.noteOnly}) { data { attributes { related { ... on Note { attachments { data { attributes { name } } } } } } } } }` }, { token });
    expect(nested.body.errors).to.equal(undefined);
    expect(nested.body.data.uploadFile.data.attributes.related[0].attachments.data.map((entry: { attributes: { name: string } }) => entry.attributes.name)).to.deep.equal(['shared.txt', 'noteOnly.txt']);
  });

  it('every file of a page in one batch: the links, then one query per related type', async () => {
    const queries: string[] = [];
    const stop = app.app.db.sql.onQuery((sql) => queries.push(sql));
    try {
      const response = await app.post('/graphql', { query: '{ uploadFiles { data { attributes { related { __typename } } } } }' }, { token });
      expect(response.body.errors).to.equal(undefined);
    } finally {
      stop();
    }
    const own = queries.filter((sql) => !/strapi_api_token/.test(sql));
    // The page of files, their links, the posts, the notes.
    expect(own).to.have.length(4);
    expect(own.filter((sql) => /files_related_morphs/.test(sql))).to.have.length(1);
  });

  it('Strapi 4.26.2 answered the same selection with an internal error (recorded): the field is in the schema the same way', async () => {
    expect(RECORDED.strapi).to.equal('4.26.2');
    expect(RECORDED.response.errors[0].message).to.equal('Missing schema in validateQuery');
    const type = await app.post('/graphql', { query: '{ __type(name: "UploadFile") { fields { name type { kind name ofType { name } } } } }' });
    const related = type.body.data.__type.fields.find((field: { name: string }) => field.name === 'related');
    expect(related.type).to.deep.equal({ kind: 'LIST', name: null, ofType: { name: 'GenericMorph' } });
  });
});
