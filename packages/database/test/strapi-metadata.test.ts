/**
 * `strapi.db.metadata.get(uid).attributes` in Strapi v4's shape, compared with
 * what Strapi 4.26.2 itself answers for the same schema files
 * (`data/strapi-4.26.2-metadata.json`: `strapi.db.metadata.get(uid)` of a
 * loaded Strapi 4.26.2 serving ../shared/strapi4-peer/app, whose article,
 * category, homepage and seo schemas are the example app's). Then the use it
 * exists for: Strapi code finding a join table there and writing links through
 * `strapi.db.connection`, as the reference app's seed does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';

interface Recorded {
  entities: Record<string, { tableName: string; attributes: Record<string, Record<string, unknown>> }>;
}

const RECORDED = (JSON.parse(fs.readFileSync(path.join(__dirname, 'data', 'strapi-4.26.2-metadata.json'), 'utf8')) as Recorded).entities;
/** What Strapi code reads to reach the tables; schema options (required, unique…) are the schema files' own. */
const STRUCTURAL = ['type', 'columnName', 'relation', 'target', 'joinTable', 'joinColumn', 'component', 'repeatable', 'morphBy', 'inversedBy', 'mappedBy'];

function structure(attribute: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!attribute) return undefined;
  return Object.fromEntries(STRUCTURAL.filter((key) => attribute[key] !== undefined).map((key) => [key, attribute[key]]));
}

eachDatabase('strapi.db.metadata in Strapi v4’s shape', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP });
  });
  after(() => app?.stop());

  it('answers what Strapi 4.26.2 answers: columns, join tables, components, media, authors', () => {
    for (const [uid, recorded] of Object.entries(RECORDED)) {
      const ours = app.app.db.metadata.get(uid)!;
      expect(ours.tableName, uid).to.equal(recorded.tableName);
      for (const [name, attribute] of Object.entries(recorded.attributes)) {
        expect(structure(ours.attributes[name]), `${uid}.${name}`).to.deep.equal(structure(attribute));
      }
    }
  });

  it('lets Strapi code write links through the join table it names, and read them back through the API', async () => {
    const { attributes } = app.app.db.metadata.get('api::article.article')!;
    const joinTable = attributes.tags.joinTable!;
    const article = await app.app.entityService.create('api::article.article', { data: { title: 'Linked by hand', slug: 'linked-by-hand', publishedAt: new Date() } });
    const tags = await Promise.all(['one', 'two'].map((name) => app.app.entityService.create('api::tag.tag', { data: { name } })));
    await app.app.db.connection(joinTable.name).insert(
      tags.map((tag, index) => ({
        [joinTable.joinColumn.name]: article.id,
        [joinTable.inverseJoinColumn!.name]: tag.id,
        [joinTable.orderColumnName!]: index + 1,
        [joinTable.inverseOrderColumnName!]: 1,
      })),
    );
    const response = await app.get(`/api/articles/${article.id}?populate[tags][fields][0]=name`);
    expect(response.body.data.attributes.tags.data.map((tag: { attributes: { name: string } }) => tag.attributes.name)).to.deep.equal(['one', 'two']);
  });
});
