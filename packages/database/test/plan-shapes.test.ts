/**
 * A new filter value is not a new SQL statement (sql/plan-shape.ts): lists that differ only in the value of an
 * `$eq`, `$ne` or range comparison share one compiled statement per level and bind their own values into it, while
 * values that change the SQL (null, list lengths, text matches) keep statements of their own. Real HTTP, each
 * database; answers are computed from the seed, and the SQL knex compiles is counted at knex's own compiler.
 */
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

const ARTICLE = 'api::article.article';

const files = {
  'src/api/article/content-types/article/schema.json': {
    kind: 'collectionType',
    collectionName: 'articles',
    info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
    options: { draftAndPublish: true },
    attributes: {
      title: { type: 'string' },
      slug: { type: 'uid' },
      views: { type: 'integer' },
      featured: { type: 'boolean' },
      day: { type: 'date' },
      category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category', inversedBy: 'articles' },
      tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'articles' },
    },
  },
  'src/api/category/content-types/category/schema.json': {
    kind: 'collectionType',
    collectionName: 'categories',
    info: { singularName: 'category', pluralName: 'categories', displayName: 'Category' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'category' } },
  },
  'src/api/tag/content-types/tag/schema.json': {
    kind: 'collectionType',
    collectionName: 'tags',
    info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'tags' } },
  },
};

interface Seed {
  slug: string;
  views: number | null;
  featured: boolean;
  day: string;
  category: 'news' | 'tips' | null;
  tags: Array<'red' | 'blue'>;
  published: boolean;
}

const SEEDS: Seed[] = [
  { slug: 'a-1', views: 5, featured: true, day: '2024-01-05', category: 'news', tags: ['red', 'blue'], published: true },
  { slug: 'a-2', views: 1, featured: false, day: '2024-02-05', category: 'tips', tags: [], published: true },
  { slug: 'a-3', views: null, featured: true, day: '2024-03-05', category: null, tags: ['blue'], published: true },
  { slug: 'a-4', views: 9, featured: false, day: '2024-04-05', category: 'news', tags: ['red'], published: false },
  { slug: 'a-5', views: 3, featured: true, day: '2024-05-05', category: 'tips', tags: ['red'], published: true },
];
const LIVE = SEEDS.filter((seed) => seed.published);

eachDatabase('read plans by shape: a new filter value binds into SQL built once', (dialect) => {
  let app: TestApp;
  let token: string;
  let compiled = 0;

  before(async () => {
    app = await startApp({ dialect, files });
    token = await app.fullAccessToken();
    const db = app.app.db;
    const categories = new Map<string, number>();
    for (const name of ['news', 'tips']) categories.set(name, ((await db.query('api::category.category').create({ data: { name } })) as { id: number }).id);
    const tags = new Map<string, number>();
    for (const name of ['red', 'blue']) tags.set(name, ((await db.query('api::tag.tag').create({ data: { name } })) as { id: number }).id);
    for (const seed of SEEDS) {
      await db.query(ARTICLE).create({
        data: {
          title: seed.slug,
          slug: seed.slug,
          views: seed.views,
          featured: seed.featured,
          day: seed.day,
          category: seed.category ? categories.get(seed.category) : null,
          tags: seed.tags.map((name) => tags.get(name)),
          publishedAt: seed.published ? new Date().toISOString() : null,
        },
      });
    }
    // Every statement knex makes passes its query compiler: the count of SQL built through knex for this test's tables
    // (not for what runs beside the requests meanwhile: token and permission reloads, MySQL's write-version polls).
    type Compiler = { toSQL: (...args: unknown[]) => { sql?: string } };
    const client = db.sql.knex.client as { queryCompiler: (...args: unknown[]) => Compiler };
    const original = client.queryCompiler.bind(client);
    client.queryCompiler = (...args: unknown[]) => {
      const compiler = original(...args);
      const toSQL = compiler.toSQL.bind(compiler);
      compiler.toSQL = (...inner: unknown[]) => {
        const compiledSql = toSQL(...inner);
        if (/articles/.test(compiledSql.sql ?? '')) compiled++;
        return compiledSql;
      };
      return compiler;
    };
  });
  after(() => app?.stop());

  async function slugs(query: string): Promise<{ slugs: string[]; total: number; built: number }> {
    const before = compiled;
    const response = await app.get(`/api/articles?${query}&sort=id:asc`, { token });
    expect(response.status, response.text).to.equal(200);
    const data = response.body.data as Array<{ attributes: { slug: string } }>;
    return { slugs: data.map((entry) => entry.attributes.slug), total: response.body.meta.pagination.total, built: compiled - before };
  }

  function live(predicate: (seed: Seed) => boolean): string[] {
    return LIVE.filter(predicate).map((seed) => seed.slug);
  }

  it('a slug with its category and tags: the second slug builds no SQL (MySQL too: its id lists are padded to a power of two)', async () => {
    const populate = 'populate[category][fields][0]=name&populate[tags][fields][0]=name';
    const first = await app.get(`/api/articles?filters[slug][$eq]=a-1&${populate}`, { token });
    const [one] = first.body.data as Array<{ attributes: Record<string, unknown> }>;
    expect([one.attributes.slug, one.attributes.category, one.attributes.tags]).to.deep.equal([
      'a-1',
      { data: { id: 1, attributes: { name: 'news' } } },
      { data: [{ id: 1, attributes: { name: 'red' } }, { id: 2, attributes: { name: 'blue' } }] },
    ]);
    expect(compiled).to.be.greaterThan(0);
    for (const [slug, category, tags] of [
      ['a-5', { data: { id: 2, attributes: { name: 'tips' } } }, { data: [{ id: 1, attributes: { name: 'red' } }] }],
      ['a-3', { data: null }, { data: [{ id: 2, attributes: { name: 'blue' } }] }],
      ['a-2', { data: { id: 2, attributes: { name: 'tips' } } }, { data: [] }],
    ] as const) {
      const before = compiled;
      const response = await app.get(`/api/articles?filters[slug][$eq]=${slug}&${populate}`, { token });
      const built = compiled - before;
      const [entry] = response.body.data as Array<{ attributes: Record<string, unknown> }>;
      expect([entry.attributes.slug, entry.attributes.category, entry.attributes.tags, response.body.meta.pagination.total]).to.deep.equal([slug, category, tags, 1]);
      expect(built, slug).to.equal(0);
    }
    // A draft's slug under live: nothing, through the same statements.
    const before = compiled;
    const draft = await app.get(`/api/articles?filters[slug][$eq]=a-4&${populate}`, { token });
    expect([draft.body.data, draft.body.meta.pagination.total, compiled - before]).to.deep.equal([[], 0, 0]);
  });

  it('numbers, booleans, dates and relation filters: each value its own answer and total from one statement per shape', async () => {
    const pairs: Array<[string, (seed: Seed) => boolean]> = [
      ['filters[views][$gt]=2', (seed) => seed.views !== null && seed.views > 2],
      ['filters[views][$gt]=4', (seed) => seed.views !== null && seed.views > 4],
      ['filters[views][$lte]=3', (seed) => seed.views !== null && seed.views <= 3],
      ['filters[views][$lte]=1', (seed) => seed.views !== null && seed.views <= 1],
      ['filters[featured][$eq]=true', (seed) => seed.featured],
      ['filters[featured][$eq]=false', (seed) => !seed.featured],
      ['filters[day][$lt]=2024-03-01', (seed) => seed.day < '2024-03-01'],
      ['filters[day][$lt]=2024-06-01', (seed) => seed.day < '2024-06-01'],
      ['filters[slug][$ne]=a-1', (seed) => seed.slug !== 'a-1'],
      ['filters[slug][$ne]=a-2', (seed) => seed.slug !== 'a-2'],
      ['filters[category][name][$eq]=news', (seed) => seed.category === 'news'],
      ['filters[category][name][$eq]=tips', (seed) => seed.category === 'tips'],
      ['filters[tags][name][$eq]=red&filters[views][$gte]=3', (seed) => seed.tags.includes('red') && (seed.views ?? -1) >= 3],
      ['filters[tags][name][$eq]=blue&filters[views][$gte]=5', (seed) => seed.tags.includes('blue') && (seed.views ?? -1) >= 5],
    ];
    for (const [index, [query, predicate]] of pairs.entries()) {
      const expected = live(predicate);
      const answer = await slugs(query);
      // The second of each pair shares the first's statements: the page and its count, built by neither.
      expect(answer, query).to.deep.equal({ slugs: expected, total: expected.length, built: index % 2 === 1 ? 0 : answer.built });
    }
  });

  it('a new value of a known filter shape compiles no plan; values the shape cannot take compile their own', async () => {
    // Plans compiled for articles: the content API compiles through the repository's plan().
    const repository = app.app.db.query(ARTICLE);
    const plan = repository.plan.bind(repository);
    let plans = 0;
    repository.plan = (...args) => {
      plans++;
      return plan(...args);
    };
    try {
      const compiledFor = async (query: string) => {
        const before = plans;
        return { ...(await slugs(query)), plans: plans - before };
      };
      const shape = 'populate[category][fields][0]=name&filters[views][$gte]={views}&filters[$or][0][slug][$ne]={slug}&filters[$or][1][featured][$eq]=false';
      const ask = (views: number, slug: string) => compiledFor(shape.replace('{views}', String(views)).replace('{slug}', slug));
      const expected = (views: number, slug: string) => live((seed) => (seed.views ?? -1) >= views && (seed.slug !== slug || !seed.featured));
      expect((await ask(2, 'a-1')).plans).to.equal(1);
      for (const [views, slug] of [[3, 'a-5'], [1, 'a-2'], [5, 'a-1'], [0, 'zz']] as const) {
        const answer = await ask(views, slug);
        expect([answer.slugs, answer.total, answer.plans], `${views} ${slug}`).to.deep.equal([expected(views, slug), expected(views, slug).length, 0]);
      }
      // A value the compiler refuses is refused the same way through a known shape.
      const refused = await app.get('/api/articles?populate[category][fields][0]=name&filters[views][$gte]=many&filters[$or][0][slug][$ne]=a&filters[$or][1][featured][$eq]=false&sort=id:asc', { token });
      const fresh = await app.get('/api/articles?filters[views][$lt]=many', { token });
      expect([refused.status, refused.body.error]).to.deep.equal([400, { ...fresh.body.error }]);
      // A bare value is an implicit $eq the shape does not take: a plan per value, each its own answer.
      for (const slug of ['a-1', 'a-2']) {
        const { slugs: found, total, plans: compiledPlans } = await compiledFor(`filters[slug]=${slug}`);
        expect({ found, total, compiledPlans }).to.deep.equal({ found: [slug], total: 1, compiledPlans: 1 });
      }
    } finally {
      repository.plan = plan;
    }
  });

  it('values that change the SQL keep statements of their own: null, list lengths, text matches', async () => {
    expect(await slugs('filters[views][$eq]=5')).to.include({ total: 1 });
    const isNull = await slugs('filters[views][$null]=true');
    expect(isNull.slugs).to.deep.equal(['a-3']);
    const eqNull = await slugs('filters[category][id][$null]=true');
    expect(eqNull.slugs).to.deep.equal(['a-3']);
    const inTwo = await slugs('filters[views][$in][0]=5&filters[views][$in][1]=1');
    const inThree = await slugs('filters[views][$in][0]=5&filters[views][$in][1]=1&filters[views][$in][2]=3');
    expect([inTwo.slugs, inThree.slugs]).to.deep.equal([['a-1', 'a-2'], ['a-1', 'a-2', 'a-5']]);
    expect(inThree.built).to.be.greaterThan(0);
    const red = await slugs('filters[title][$containsi]=A-1');
    const other = await slugs('filters[title][$containsi]=-5');
    expect([red.slugs, other.slugs, other.built > 0]).to.deep.equal([['a-1'], ['a-5'], true]);
  });
});
