import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

const NOTE_SCHEMA = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: true },
  attributes: { text: { type: 'string' } },
};

/** A plugin declares a query parameter: validated by it, narrowing every read, REST included. */
eachDatabase('query parameters declared by plugins', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({
      dialect,
      files: {
        'src/api/note/content-types/note/schema.json': NOTE_SCHEMA,
        'config/permissions.ts': `export default { public: ['api::note.note.find'] };\n`,
        'src/index.ts': `
          import { ValidationError } from '@tessera/core';
          export default {
            register({ strapi }) {
              strapi.queryParameters.add('startsWith', {
                name: 'startsWith',
                filters(value, { uid }) {
                  if (value === undefined || uid !== 'api::note.note') return undefined;
                  if (typeof value !== 'string' || value.length !== 1) throw new ValidationError('startsWith must be one letter');
                  return { text: { $startsWith: value } };
                },
              });
            },
            async bootstrap({ strapi }) {
              for (const text of ['apple', 'avocado', 'banana']) await strapi.entityService.create('api::note.note', { data: { text, publishedAt: new Date() } });
            },
          };
        `,
      },
      config: { api: { rest: { strictParams: true } } },
    });
  });
  after(() => app?.stop());

  it('narrows reads, is validated by its plugin, and is known in strict mode', async () => {
    const texts = async (path: string) => (await app.get(path)).body.data.map((entry: { attributes: { text: string } }) => entry.attributes.text);
    expect(await texts('/api/notes?sort=text')).to.deep.equal(['apple', 'avocado', 'banana']);
    expect(await texts('/api/notes?sort=text&startsWith=a')).to.deep.equal(['apple', 'avocado']);
    expect(await texts('/api/notes?sort=text&startsWith=b&filters[text][$contains]=an')).to.deep.equal(['banana']);
    const bad = await app.get('/api/notes?startsWith=ab');
    expect(bad.status).to.equal(400);
    expect(bad.body.error.message).to.equal('startsWith must be one letter');
    expect((await app.get('/api/notes?unknownThing=1')).status).to.equal(400);
  });
});
