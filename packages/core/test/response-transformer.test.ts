/**
 * Entities as the reader hands them → Strapi v4's REST shape, row by row,
 * compared as JSON text (key order included, as clients see it). Expected
 * shapes from Strapi 4.26's answers: relations and media in `{ data }`
 * (samples 06 and 71), a relation count as `{ data: { attributes: { count } } }`
 * (sample 14), components inline with their id and `null` when absent
 * (samples 06 and 31), dynamic-zone items with `__component`.
 */
import { expect } from 'chai';
import { buildMetadata, FILE_CONTENT_TYPE, type Component, type Entity } from '@tessera/database';
import { ResponseTransformer } from '@tessera/core';
import { collection } from '../../database/test/pure/blog-model';

const metadata = buildMetadata(
  [
    collection('article', 'articles', false, {
      title: { type: 'string' },
      category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category', inversedBy: 'articles' },
      tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
      seo: { type: 'component', component: 'shared.seo' },
      links: { type: 'component', component: 'shared.link', repeatable: true },
      blocks: { type: 'dynamiczone', components: ['shared.seo', 'shared.quote'] },
      cover: { type: 'media' },
      gallery: { type: 'media', multiple: true },
    }),
    collection('category', 'categories', false, {
      name: { type: 'string' },
      articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'category' },
    }),
    collection('tag', 'tags', false, { name: { type: 'string' } }),
    FILE_CONTENT_TYPE,
  ],
  [
    component('shared.seo', { metaTitle: { type: 'string' } }),
    component('shared.link', { url: { type: 'string' } }),
    component('shared.quote', { text: { type: 'text' }, about: { type: 'relation', relation: 'oneToOne', target: 'api::tag.tag' } }),
  ],
);

function component(uid: string, attributes: Component['attributes']): Component {
  return { uid, category: 'shared', collectionName: `components_${uid.replace('.', '_')}s`, info: { displayName: uid }, attributes };
}

const ARTICLE = metadata.get('api::article.article')!;
const transformer = new ResponseTransformer(metadata);
const T = '2024-01-01T00:00:01.000Z';
const category = (): Entity => ({ id: 2, name: 'Category 2', createdAt: T, updatedAt: T });

type Row = [description: string, entity: Entity, expected: string, uid?: string];

const ROWS: Row[] = [
  ['scalars go under attributes, id stays out', { id: 1, title: 'A', createdAt: T }, `{"id":1,"attributes":{"title":"A","createdAt":"${T}"}}`],
  ['a to-one relation', { id: 1, title: 'A', category: category() },
    `{"id":1,"attributes":{"title":"A","category":{"data":{"id":2,"attributes":{"name":"Category 2","createdAt":"${T}","updatedAt":"${T}"}}}}}`],
  ['an empty to-one relation', { id: 1, category: null }, '{"id":1,"attributes":{"category":{"data":null}}}'],
  ['a to-many relation, in the reader\'s order', { id: 1, tags: [{ id: 9, name: 'T9' }, { id: 2, name: 'T2' }] },
    '{"id":1,"attributes":{"tags":{"data":[{"id":9,"attributes":{"name":"T9"}},{"id":2,"attributes":{"name":"T2"}}]}}}'],
  ['an empty to-many relation', { id: 1, tags: [] }, '{"id":1,"attributes":{"tags":{"data":[]}}}'],
  ['a relation count (sample 14)', { id: 2, name: 'C', articles: { count: 134 } } as Entity, '{"id":2,"attributes":{"name":"C","articles":{"data":{"attributes":{"count":134}}}}}', 'api::category.category'],
  ['links keep their place among the attributes (sample 06)', { id: 1, title: 'A', category: null, seo: null, cover: null, updatedAt: T },
    `{"id":1,"attributes":{"title":"A","category":{"data":null},"seo":null,"cover":{"data":null},"updatedAt":"${T}"}}`],
  ['an unpopulated link is not added', { id: 1, title: 'A' }, '{"id":1,"attributes":{"title":"A"}}'],
  ['single media (sample 71)', { id: 1, cover: { id: 2, name: 'Gradient', url: '/uploads/g.png' } },
    '{"id":1,"attributes":{"cover":{"data":{"id":2,"attributes":{"name":"Gradient","url":"/uploads/g.png"}}}}}'],
  ['multiple media, empty', { id: 1, gallery: [] }, '{"id":1,"attributes":{"gallery":{"data":[]}}}'],
  ['a component inline, with its id (sample 31)', { id: 1, seo: { id: 4, metaTitle: 'MT' } }, '{"id":1,"attributes":{"seo":{"id":4,"metaTitle":"MT"}}}'],
  ['a repeatable component', { id: 1, links: [{ id: 1, url: '/a' }, { id: 2, url: '/b' }] }, '{"id":1,"attributes":{"links":[{"id":1,"url":"/a"},{"id":2,"url":"/b"}]}}'],
  ['a dynamic zone: each item by its __component, its relations wrapped', {
    id: 1,
    blocks: [{ id: 3, __component: 'shared.seo', metaTitle: 'M' }, { id: 5, __component: 'shared.quote', text: 'Q', about: { id: 7, name: 'T7' } }],
  } as Entity, '{"id":1,"attributes":{"blocks":[{"id":3,"__component":"shared.seo","metaTitle":"M"},{"id":5,"__component":"shared.quote","text":"Q","about":{"data":{"id":7,"attributes":{"name":"T7"}}}}]}}'],
  ['nested relations at every level', { id: 1, category: { id: 2, name: 'C', articles: [{ id: 1, title: 'A', tags: [{ id: 3, name: 'T' }] }] } },
    '{"id":1,"attributes":{"category":{"data":{"id":2,"attributes":{"name":"C","articles":{"data":[{"id":1,"attributes":{"title":"A","tags":{"data":[{"id":3,"attributes":{"name":"T"}}]}}}]}}}}}}'],
  ['a component\'s relation that is empty', { id: 1, blocks: [{ id: 5, __component: 'shared.quote', text: 'Q', about: null }] } as Entity,
    '{"id":1,"attributes":{"blocks":[{"id":5,"__component":"shared.quote","text":"Q","about":{"data":null}}]}}'],
];

describe('ResponseTransformer: entities → Strapi v4 REST entries (pure)', () => {
  for (const [description, entity, expected, uid] of ROWS) {
    it(description, () => {
      expect(JSON.stringify(transformer.entry(entity, uid ? metadata.get(uid)! : ARTICLE))).to.equal(expected);
    });
  }

  it('leaves the entity it was given unchanged', () => {
    const entity: Entity = { id: 1, title: 'A', category: category() };
    const before = JSON.stringify(entity);
    transformer.entry(entity, ARTICLE);
    expect(JSON.stringify(entity)).to.equal(before);
  });

  it('a list: each entry transformed, an empty list stays empty', () => {
    expect(transformer.entries([], ARTICLE)).to.deep.equal([]);
    expect(JSON.stringify(transformer.entries([{ id: 1, title: 'A' }, { id: 2, title: 'B' }], ARTICLE))).to.equal(
      '[{"id":1,"attributes":{"title":"A"}},{"id":2,"attributes":{"title":"B"}}]',
    );
  });

  it('builds a related entry the reader shares between parents once, and shares the result', () => {
    const shared = category();
    const [first, second] = transformer.entries([{ id: 1, category: shared }, { id: 2, category: shared }], ARTICLE);
    const data = (entry: typeof first) => (entry.attributes.category as { data: unknown }).data;
    expect(data(first)).to.equal(data(second));
    expect(data(first)).to.deep.equal({ id: 2, attributes: { name: 'Category 2', createdAt: T, updatedAt: T } });
  });

  it('a separate call builds its own entries', () => {
    const shared = category();
    const first = transformer.entry({ id: 1, category: shared }, ARTICLE);
    const second = transformer.entry({ id: 2, category: shared }, ARTICLE);
    expect((first.attributes.category as { data: unknown }).data).to.not.equal((second.attributes.category as { data: unknown }).data);
  });
});
