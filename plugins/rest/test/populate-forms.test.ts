/**
 * populate through REST in every Strapi v4 form, with what it must never do:
 * leak drafts under `live`, private attributes, or entries of types the
 * caller may not read. Also deep filters two relations deep, sorting through
 * a to-one relation, and the filters that are refused (dynamic zones).
 */
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';

type Json = any;

eachDatabase('populate forms, permissions and drafts inside populate, deep filters', (dialect) => {
  let app: TestApp;
  let token: string;
  const id: Record<string, number> = {};

  const post = async (plural: string, data: Record<string, unknown>) => {
    const response = await app.post(`/api/${plural}`, { data }, { token });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body.data.id as number;
  };
  const get = async (path: string, auth = false): Promise<Json> => {
    const response = await app.get(path, auth ? { token } : undefined);
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body;
  };
  const ids = (relation: { data: Array<{ id: number }> }) => relation.data.map((item) => item.id);

  before(async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP });
    token = await app.fullAccessToken();
    id.c1 = await post('categories', { name: 'C1' });
    id.c2 = await post('categories', { name: 'C2' });
    id.t1 = await post('tags', { name: 'T1' });
    id.t2 = await post('tags', { name: 'T2' });
    id.t3 = await post('tags', { name: 'T3' });
    id.w1 = await post('writers', { name: 'W1' });
    id.w2 = await post('writers', { name: 'W2' });
    id.p1 = await post('writer-profiles', { bio: 'P1', writer: id.w1 });
    id.a1 = await post('articles', { title: 'A1', category: id.c1, tags: [id.t2, id.t1], author: id.w1 });
    id.a2 = await post('articles', { title: 'A2', category: id.c1, tags: [id.t3], author: id.w2 });
    id.d1 = await post('articles', { title: 'D1', category: id.c1, tags: [id.t1], author: id.w1, publishedAt: null });
    id.a3 = await post('articles', { title: 'A3', category: id.c2 });
    id.page = await post('pages', {
      title: 'Page',
      notes: 'internal',
      seo: { metaTitle: 'S' },
      links: [{ label: 'L1', url: '/1' }],
      content: [{ __component: 'shared.rich-text', body: 'Body' }, { __component: 'shared.quote', text: 'Quote', author: 'Q' }],
      relatedArticles: [id.a2, id.d1, id.a1],
      author: id.w1,
      reviewer: id.w2,
    });
  });
  after(() => app.stop());
  before(async () => {
    id.child = await post('pages', { title: 'Child', notes: 'child secret', parent: id.page, reviewer: id.w2 });
  });

  describe('forms', () => {
    it('populate=* loads one level of every public link, in schema order', async () => {
      const body = await get(`/api/articles/${id.a1}?populate=*`);
      const attributes = body.data.attributes;
      expect(Object.keys(attributes).slice(-5)).to.deep.equal(['category', 'tags', 'author', 'seo', 'cover']);
      expect(attributes.category.data.id).to.equal(id.c1);
      expect(Object.keys(attributes.category.data.attributes)).to.deep.equal(['name', 'createdAt', 'updatedAt']);
      expect(ids(attributes.tags)).to.deep.equal([id.t2, id.t1]);
      expect(attributes.author.data.attributes.name).to.equal('W1');
      expect(attributes.seo).to.equal(null);
      expect(attributes.cover).to.deep.equal({ data: null });
    });

    it('populate=a,b and populate[0]=a&populate[1]=b populate just those', async () => {
      for (const query of ['populate=category,tags', 'populate[0]=category&populate[1]=tags']) {
        const body = await get(`/api/articles/${id.a1}?fields[0]=title&${query}`);
        expect(Object.keys(body.data.attributes)).to.deep.equal(['title', 'category', 'tags']);
      }
    });

    it('nested populate, to two levels, with the dotted shorthand too', async () => {
      const body = await get(`/api/articles/${id.a1}?fields[0]=title&populate[category][fields][0]=name&populate[category][populate][articles][fields][0]=title`);
      const category = body.data.attributes.category.data;
      expect(category.attributes.name).to.equal('C1');
      expect(category.attributes.articles.data.map((item: Json) => item.attributes.title)).to.deep.equal(['A1', 'A2']);
      const dotted = await get(`/api/articles/${id.a1}?fields[0]=title&populate[0]=category.articles`);
      expect(ids(dotted.data.attributes.category.data.attributes.articles)).to.deep.equal([id.a1, id.a2]);
    });

    it('per-relation fields, filters and sort', async () => {
      const body = await get(`/api/articles?filters[id][$in][0]=${id.a1}&filters[id][$in][1]=${id.a2}&fields[0]=title&populate[tags][fields][0]=name&populate[tags][sort][0]=name:desc&populate[tags][filters][name][$ne]=T3`);
      expect(body.data.map((entry: Json) => entry.attributes.tags.data.map((tag: Json) => tag.attributes))).to.deep.equal([[{ name: 'T2' }, { name: 'T1' }], []]);
    });

    it('a sort on id is a sort asked for: the relation order only when no sort is given', async () => {
      const tagsOf = async (query: string) => ids((await get(`/api/articles/${id.a1}?fields[0]=title&${query}`)).data.attributes.tags);
      expect(await tagsOf('populate[tags][fields][0]=name')).to.deep.equal([id.t2, id.t1]);
      expect(await tagsOf('populate[tags][sort][0]=id:asc')).to.deep.equal([id.t1, id.t2]);
      expect(await tagsOf('populate[tags][sort]=id')).to.deep.equal([id.t1, id.t2]);
      expect(await tagsOf('populate[tags][sort][0]=id:desc')).to.deep.equal([id.t2, id.t1]);
      expect(await tagsOf('populate[tags][sort][0]=name:asc')).to.deep.equal([id.t1, id.t2]);
    });

    it('count, under live and preview', async () => {
      const live = await get('/api/categories?populate[articles][count]=true&sort=name');
      expect(live.data.map((entry: Json) => entry.attributes.articles)).to.deep.equal([{ data: { attributes: { count: 2 } } }, { data: { attributes: { count: 1 } } }]);
      const preview = await get('/api/categories?populate[articles][count]=true&sort=name&publicationState=preview', true);
      expect(preview.data[0].attributes.articles).to.deep.equal({ data: { attributes: { count: 3 } } });
    });

    it('components and dynamic zones inline; `on` picks per-component parameters and only those components, as Strapi 4.26.2', async () => {
      const body = await get(`/api/pages/${id.page}?fields[0]=title&populate[seo]=*&populate[links]=*&populate[content][on][shared.quote][fields][0]=author`);
      const { seo, links, content } = body.data.attributes;
      expect(seo).to.deep.include({ metaTitle: 'S', metaDescription: null });
      expect(links.map(({ id: _id, ...rest }: Json) => rest)).to.deep.equal([{ label: 'L1', url: '/1', newTab: false }]);
      expect(content.map(({ id: _id, ...rest }: Json) => rest)).to.deep.equal([{ __component: 'shared.quote', author: 'Q' }]);
      const both = await get(`/api/pages/${id.page}?populate[content][on][shared.quote][fields][0]=author&populate[content][on][shared.rich-text]=true`);
      expect(both.data.attributes.content.map(({ id: _id, ...rest }: Json) => rest)).to.deep.equal([
        { __component: 'shared.rich-text', body: 'Body' },
        { __component: 'shared.quote', author: 'Q' },
      ]);
    });
  });

  describe('dynamic zones, shared strategy', () => {
    it('populate[zone][populate]=… applies to every component of the zone, as in Strapi v4 (was ignored)', async () => {
      const page = await post('pages', {
        title: 'Zone',
        content: [
          { __component: 'shared.feature', title: 'F1', article: id.a1, link: { label: 'L', url: '/l' } },
          { __component: 'shared.quote', text: 'Q' },
          { __component: 'shared.feature', title: 'F2', article: id.d1 },
        ],
      });
      const star = await get(`/api/pages/${page}?fields[0]=title&populate[content][populate]=*`);
      const [first, quote, second] = star.data.attributes.content;
      expect(first.link).to.deep.include({ label: 'L', url: '/l', newTab: false });
      expect(first.article.data.id).to.equal(id.a1);
      expect(first.article.data.attributes.title).to.equal('A1');
      expect(quote).to.deep.include({ __component: 'shared.quote', text: 'Q', author: null });
      expect(second.link).to.equal(null);
      expect(second.article).to.deep.equal({ data: null }); // a draft, under live
      const named = await get(`/api/pages/${page}?fields[0]=title&populate[content][populate][article][fields][0]=title`);
      expect(named.data.attributes.content[0]).to.not.have.property('link');
      expect(named.data.attributes.content[0].article).to.deep.equal({ data: { id: id.a1, attributes: { title: 'A1' } } });
      expect(named.data.attributes.content[1]).to.deep.include({ __component: 'shared.quote', text: 'Q' });
    });
  });

  describe("forms FoodAdvisor's client sends (answers recorded from Strapi 4.26.2)", () => {
    it('a string value in the object form is cast to a boolean, as Strapi: populate[seo]=anything populates, false/f/0 do not', async () => {
      const populated = await get(`/api/pages/${id.page}?fields[0]=title&populate[seo]=metaSocial`);
      expect(populated.data.attributes.seo).to.deep.include({ metaTitle: 'S' });
      for (const off of ['false', 'f', '0']) {
        const left = await get(`/api/pages/${id.page}?fields[0]=title&populate[seo]=${off}&populate[links]=*`);
        expect(Object.keys(left.data.attributes)).to.deep.equal(['title', 'links']);
      }
    });

    it('populate[zone][populate]=…&populate=other: every form is populated, Strapi 4.13\'s meaning (4.26.2 drops the mixed ones: README, Compatibility)', async () => {
      const body = await get(`/api/pages/${id.page}?fields[0]=title&populate[content][populate]=*&populate=author&populate[seo]=*`);
      expect(Object.keys(body.data.attributes).sort()).to.deep.equal(['author', 'content', 'seo', 'title']);
    });

    it('dotted paths sharing a head are all populated (the last one did replace the others)', async () => {
      const page = await post('pages', {
        title: 'Dotted',
        content: [{ __component: 'shared.feature', title: 'F', article: id.a1, link: { label: 'L', url: '/l' } }],
      });
      const body = await get(`/api/pages/${page}?fields[0]=title&populate=content.article.category,content.link,author`);
      const [feature] = body.data.attributes.content;
      expect(feature.link).to.deep.include({ label: 'L', url: '/l' });
      expect(feature.article.data.attributes.category.data.id).to.equal(id.c1);
    });
  });

  describe('what populate never leaks', () => {
    it('drafts under live (even though Strapi v4 does), and shows them under preview', async () => {
      const live = await get(`/api/pages/${id.page}?populate[relatedArticles][fields][0]=title`);
      expect(ids(live.data.attributes.relatedArticles)).to.deep.equal([id.a2, id.a1]);
      const preview = await get(`/api/pages/${id.page}?populate[relatedArticles][fields][0]=title&publicationState=preview`, true);
      expect(ids(preview.data.attributes.relatedArticles)).to.deep.equal([id.a2, id.d1, id.a1]);
      const fromTag = await get(`/api/tags/${id.t1}?populate=articles`);
      expect(ids(fromTag.data.attributes.articles)).to.deep.equal([id.a1]);
      const writer = await get(`/api/writers/${id.w1}?populate[articles][fields][0]=title`);
      expect(ids(writer.data.attributes.articles)).to.deep.equal([id.a1]);
    });

    it('relations to types the caller may not read are left out, named or through *', async () => {
      const anonymous = await get(`/api/writers/${id.w1}?populate=*`);
      expect(anonymous.data.attributes).to.have.property('articles');
      expect(anonymous.data.attributes).not.to.have.property('profile');
      const named = await get(`/api/writers/${id.w1}?populate=profile`);
      expect(named.data.attributes).not.to.have.property('profile');
      const trusted = await get(`/api/writers/${id.w1}?populate=*`, true);
      expect(trusted.data.attributes.profile.data.attributes.bio).to.equal('P1');
    });

    it('private attributes and relations', async () => {
      const body = await get(`/api/pages/${id.page}?populate=*`, true);
      expect(body.data.attributes).not.to.have.property('notes');
      expect(body.data.attributes).not.to.have.property('reviewer');
      expect(body.data.attributes.author.data.id).to.equal(id.w1);
      const named = await get(`/api/pages/${id.page}?populate[reviewer]=*&populate[author][fields][0]=name`, true);
      expect(Object.keys(named.data.attributes)).to.include('author').and.not.include('reviewer');
      const nested = await get(`/api/pages/${id.page}?fields[0]=title&populate[children][populate]=*`, true);
      const child = nested.data.attributes.children.data[0];
      expect(child.id).to.equal(id.child);
      expect(child.attributes).to.include.keys('title', 'parent');
      expect(child.attributes).not.to.have.any.keys('notes', 'reviewer');
      const fields = await app.get(`/api/pages/${id.page}?fields[0]=notes`, { token });
      expect(fields.status).to.equal(400);
    });

    it('unknown populate keys are ignored', async () => {
      const body = await get(`/api/articles/${id.a1}?fields[0]=title&populate[nope][fields][0]=x&populate[tags][populate][nothing]=true`);
      expect(Object.keys(body.data.attributes)).to.deep.equal(['title', 'tags']);
    });
  });

  describe('deep filters and sorts through relations', () => {
    const titles = (body: Json) => body.data.map((entry: Json) => entry.attributes.title);

    it('two relations deep', async () => {
      expect(titles(await get('/api/articles?fields[0]=title&filters[author][profile][bio][$eq]=P1', true))).to.deep.equal(['A1']);
      expect(titles(await get('/api/articles?fields[0]=title&filters[category][articles][tags][name][$eq]=T3&sort=title'))).to.deep.equal(['A1', 'A2']);
      expect(titles(await get('/api/articles?fields[0]=title&filters[tags][articles][author][name][$eq]=W2&sort=title'))).to.deep.equal(['A2']);
    });

    it('$and / $or / $not across relation paths', async () => {
      expect(titles(await get('/api/articles?fields[0]=title&sort=title&filters[$or][0][tags][name][$eq]=T3&filters[$or][1][author][name][$eq]=W1'))).to.deep.equal(['A1', 'A2']);
      expect(titles(await get('/api/articles?fields[0]=title&sort=title&filters[$and][0][category][name][$eq]=C1&filters[$and][1][$not][tags][name][$eq]=T3'))).to.deep.equal(['A1']);
    });

    it('drafts are invisible to relation filters under live', async () => {
      const body = await get('/api/categories?filters[articles][title][$eq]=D1');
      expect(body.data).to.deep.equal([]);
    });

    it('sort through a to-one relation; not through a to-many one', async () => {
      const body = await get('/api/articles?fields[0]=title&sort[0]=category.name:desc&sort[1]=title:asc');
      expect(titles(body)).to.deep.equal(['A3', 'A1', 'A2']);
      const refused = await app.get('/api/articles?sort=tags.name');
      expect(refused.status).to.equal(400);
    });

    it('through components (single and repeatable), also behind a relation', async () => {
      const pages = await get('/api/pages?fields[0]=title&filters[seo][metaTitle][$eq]=S&filters[links][url][$startsWith]=/1');
      expect(titles(pages)).to.deep.equal(['Page']);
      const none = await get('/api/pages?fields[0]=title&filters[links][label][$eq]=nope');
      expect(none.data).to.deep.equal([]);
      const articles = await get('/api/articles?fields[0]=title&filters[$not][seo][metaTitle][$notNull]=true&filters[category][name][$eq]=C2');
      expect(titles(articles)).to.deep.equal(['A3']);
      const viaRelation = await get(`/api/writers?fields[0]=name&filters[articles][seo][metaTitle][$notNull]=true`);
      expect(viaRelation.data).to.deep.equal([]);
    });

    it('filters on dynamic zones (and a bare value on a component) are a 400', async () => {
      for (const query of ['filters[seo]=x']) {
        const response = await app.get(`/api/articles?${query}`);
        expect(response.status, query).to.equal(400);
        expect(response.body.error.name).to.equal('ValidationError');
      }
      const zone = await app.get('/api/pages?filters[content][body][$eq]=x');
      expect(zone.status).to.equal(400);
    });
  });
});

eachDatabase('populate with rest.strictParams', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP, config: { api: { rest: { defaultLimit: 25, maxLimit: 100, withCount: true, strictParams: true } } } });
  });
  after(() => app.stop());

  it('rejects unknown populate keys, at any level, with a 400', async () => {
    for (const query of ['populate=nope', 'populate[nope]=true', 'populate[tags][populate][nothing]=true']) {
      const response = await app.get(`/api/articles?${query}`);
      expect(response.status, query).to.equal(400);
      expect(response.body.error.name).to.equal('ValidationError');
    }
    expect((await app.get('/api/articles?populate=tags')).status).to.equal(200);
  });
});
