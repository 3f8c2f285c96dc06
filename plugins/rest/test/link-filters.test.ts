/**
 * Filters through relations, components and media with Strapi v4's LEFT JOIN
 * meaning for missing rows: an entry with no related row has NULL in every
 * field of the relation, so `$null` finds it and `$notNull` is the exact
 * complement. Drafts of the target never count under `live`. Also filters on
 * media attributes (single and multiple) and `$contains` on json attributes.
 */
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';

type Json = any;
const FILE_UID = 'plugin::upload.file';

eachDatabase('filters through links: missing rows, media, json text', (dialect) => {
  let app: TestApp;
  let token: string;
  const id: Record<string, number> = {};

  const post = async (plural: string, data: Record<string, unknown>) => {
    const response = await app.post(`/api/${plural}`, { data }, { token });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body.data.id as number;
  };
  /** Names (title or name) of a list, and its total, read anonymously unless `auth`. */
  const list = async (path: string, auth = false): Promise<{ names: string[]; total: number }> => {
    const response = await app.get(path, auth ? { token } : undefined);
    expect(response.status, `${path} ${JSON.stringify(response.body)}`).to.equal(200);
    const names = response.body.data.map((entry: Json) => entry.attributes.title ?? entry.attributes.name);
    return { names, total: response.body.meta.pagination.total };
  };
  const expectList = async (path: string, names: string[], auth = false) => {
    const answer = await list(path, auth);
    expect(answer, path).to.deep.equal({ names, total: names.length });
  };
  const file = async (name: string, mime: string) => {
    const entry = await app.app.entityService.create(FILE_UID, {
      data: { name, hash: name.replace('.', '_'), ext: name.slice(name.lastIndexOf('.')), mime, size: 1.5, url: `/uploads/${name}`, provider: 'local', folderPath: '/' },
    });
    return entry.id as number;
  };

  before(async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP });
    token = await app.fullAccessToken();
    id.c1 = await post('categories', { name: 'C1' });
    id.c2 = await post('categories', { name: 'C2' });
    id.c3 = await post('categories', { name: 'C3' });
    id.t1 = await post('tags', { name: 'T1' });
    id.t2 = await post('tags', { name: 'T2' });
    id.t3 = await post('tags', { name: 'T3' });
    id.w1 = await post('writers', { name: 'W1', email: 'w1@example.com' });
    id.w2 = await post('writers', { name: 'W2' });
    await post('writer-profiles', { bio: 'P1', website: 'https://w1.example.com', writer: id.w1 });
    id.png = await file('one.png', 'image/png');
    id.pdf = await file('doc.pdf', 'application/pdf');
    id.a1 = await post('articles', {
      title: 'A1', category: id.c1, tags: [id.t1, id.t2], author: id.w1, seo: { metaTitle: 'S1' }, cover: id.png,
      meta: { a: { b: 'Deep Value' }, list: [1, 2] },
    });
    id.a2 = await post('articles', { title: 'A2', category: id.c1, author: id.w2, cover: id.pdf, meta: { other: 'x' } });
    id.a3 = await post('articles', { title: 'A3', tags: [id.t3], seo: { metaDescription: 'no title' } });
    id.a4 = await post('articles', { title: 'A4' });
    // C2's only article is a draft: under live, C2 has no articles.
    id.d1 = await post('articles', { title: 'D1', category: id.c2, publishedAt: null });
    id.p1 = await post('pages', { title: 'P1', gallery: [id.png, id.pdf] });
    id.p2 = await post('pages', { title: 'P2', gallery: [id.pdf] });
    id.p3 = await post('pages', { title: 'P3' });
  });
  after(() => app.stop());

  const articles = (filters: string) => `/api/articles?fields[0]=title&sort=id&${filters}`;

  describe('$null / $notNull through a relation (LEFT JOIN meaning)', () => {
    it('to-one: no related entry is a null id', async () => {
      await expectList(articles('filters[category][id][$null]=true'), ['A3', 'A4']);
      await expectList(articles('filters[category][id][$notNull]=true'), ['A1', 'A2']);
      await expectList(articles('filters[category][id][$null]=false'), ['A1', 'A2']);
      await expectList(articles('filters[$not][category][id][$null]=true'), ['A1', 'A2']);
      await expectList(articles('filters[$not][category][id][$notNull]=true'), ['A3', 'A4']);
      await expectList(articles(`filters[category][id][$eq]=${id.c1}`), ['A1', 'A2']);
      // Operators straight on the relation key apply to the related id.
      await expectList(articles('filters[category][$null]=true'), ['A3', 'A4']);
      await expectList(articles('filters[category][$notNull]=true'), ['A1', 'A2']);
    });

    it('to-one: a null field of the related entry, and no related entry at all', async () => {
      await expectList(articles('filters[author][email][$null]=true'), ['A2', 'A3', 'A4']);
      await expectList(articles('filters[author][email][$notNull]=true'), ['A1']);
      await expectList(articles('filters[$not][author][email][$null]=true'), ['A1']);
      await expectList(articles('filters[$not][author][email][$notNull]=true'), ['A2', 'A3', 'A4']);
      // A comparison a row of NULLs cannot satisfy still needs a related entry.
      await expectList(articles('filters[author][name][$eq]=W2'), ['A2']);
      await expectList(articles('filters[author][name][$ne]=W2'), ['A1']);
      await expectList(articles('filters[$not][author][name][$eq]=W2'), ['A1', 'A3', 'A4']);
      await expectList(articles('filters[author][$or][0][email][$null]=true&filters[author][$or][1][name][$eq]=W1'), ['A1', 'A2', 'A3', 'A4']);
    });

    it('to-many: no related entries; several related entries never duplicate a row or inflate the total', async () => {
      await expectList(articles('filters[tags][id][$null]=true'), ['A2', 'A4']);
      await expectList(articles('filters[tags][id][$notNull]=true'), ['A1', 'A3']);
      await expectList(articles('filters[$not][tags][id][$null]=true'), ['A1', 'A3']);
      await expectList(articles('filters[tags][name][$null]=true'), ['A2', 'A4']);
      const paged = await list(articles('filters[tags][id][$notNull]=true&pagination[pageSize]=1'));
      expect(paged).to.deep.equal({ names: ['A1'], total: 2 });
    });

    it('two relations deep: a missing first hop reads as a missing second hop', async () => {
      // Writer profiles are not public: these go through a token allowed to read them.
      await expectList(articles('filters[author][profile][website][$null]=true'), ['A2', 'A3', 'A4'], true);
      await expectList(articles('filters[author][profile][id][$null]=true'), ['A2', 'A3', 'A4'], true);
      await expectList(articles('filters[author][profile][website][$notNull]=true'), ['A1'], true);
      await expectList(articles('filters[$not][author][profile][website][$null]=true'), ['A1'], true);
      await expectList('/api/writers?fields[0]=name&sort=id&filters[articles][tags][id][$null]=true', ['W2']);
    });

    it('through components, and through a relation into a component', async () => {
      await expectList(articles('filters[seo][metaTitle][$null]=true'), ['A2', 'A3', 'A4']);
      await expectList(articles('filters[seo][id][$null]=true'), ['A2', 'A4']);
      await expectList(articles('filters[seo][metaTitle][$notNull]=true'), ['A1']);
      await expectList(articles('filters[$not][seo][metaTitle][$null]=true'), ['A1']);
      await expectList(articles('filters[seo][metaTitle][$eq]=S1'), ['A1']);
      await expectList('/api/writers?fields[0]=name&sort=id&filters[articles][seo][metaTitle][$null]=true', ['W2']);
      await expectList('/api/tags?fields[0]=name&sort=id&filters[articles][seo][metaTitle][$notNull]=true', ['T1', 'T2']);
    });

    it('drafts of the target are no related entry under live, and count under preview', async () => {
      const categories = (filters: string) => `/api/categories?fields[0]=name&sort=id&${filters}`;
      await expectList(categories('filters[articles][id][$null]=true'), ['C2', 'C3']);
      await expectList(categories('filters[articles][id][$notNull]=true'), ['C1']);
      await expectList(categories('filters[articles][title][$eq]=D1'), []);
      await expectList(`${categories('filters[articles][id][$null]=true')}&publicationState=preview`, ['C3'], true);
      await expectList(`${categories('filters[articles][id][$notNull]=true')}&publicationState=preview`, ['C1', 'C2'], true);
    });
  });

  describe('filters on media attributes', () => {
    it('single media: id, name and mime, with $null for no file', async () => {
      await expectList(articles('filters[cover][id][$notNull]=true'), ['A1', 'A2']);
      await expectList(articles('filters[cover][id][$null]=true'), ['A3', 'A4']);
      await expectList(articles('filters[cover][name][$eq]=one.png'), ['A1']);
      await expectList(articles('filters[cover][mime][$startsWith]=image/'), ['A1']);
      await expectList(articles('filters[$not][cover][mime][$startsWith]=image/'), ['A2', 'A3', 'A4']);
      await expectList(articles(`filters[cover]=${id.pdf}`), ['A2']);
      await expectList(articles('filters[cover][$null]=true'), ['A3', 'A4']);
      await expectList(articles(`filters[cover][id][$in][0]=${id.png}&filters[cover][id][$in][1]=${id.pdf}`), ['A1', 'A2']);
    });

    it('multiple media: any linked file matches, no duplicates', async () => {
      const pages = (filters: string) => `/api/pages?fields[0]=title&sort=id&${filters}`;
      await expectList(pages('filters[gallery][mime][$startsWith]=image/'), ['P1']);
      await expectList(pages('filters[gallery][name][$eq]=doc.pdf'), ['P1', 'P2']);
      await expectList(pages('filters[gallery][id][$null]=true'), ['P3']);
      await expectList(pages('filters[gallery][id][$notNull]=true'), ['P1', 'P2']);
      const paged = await list(`${pages('filters[gallery][url][$startsWith]=/uploads/')}&pagination[pageSize]=1`);
      expect(paged).to.deep.equal({ names: ['P1'], total: 2 });
    });

    it('media follow their owner for filters as for populate: a token that may only find articles may do both', async () => {
      const { accessKey } = await app.app.apiTokens.create({ name: `articles-only-${dialect}`, type: 'custom', permissions: ['api::article.article.find'] });
      const filtered = await app.get('/api/articles?fields[0]=title&filters[cover][name][$eq]=one.png', { token: accessKey });
      expect(filtered.status).to.equal(200);
      expect(filtered.body.data.map((entry: Json) => entry.attributes.title)).to.deep.equal(['A1']);
      const populated = await app.get('/api/articles?fields[0]=title&populate[cover][fields][0]=name&filters[title][$eq]=A1', { token: accessKey });
      expect(populated.status).to.equal(200);
      expect(populated.body.data[0].attributes).to.deep.equal({ title: 'A1', cover: { data: { id: id.png, attributes: { name: 'one.png' } } } });
      const category = await app.get('/api/articles?filters[category][name][$eq]=C1', { token: accessKey });
      expect(category.status).to.equal(400);
    });

    it('private file attributes, unknown ones and dynamic zones stay a 400', async () => {
      for (const query of ['filters[cover][folderPath][$eq]=/', 'filters[cover][nope][$eq]=x', 'filters[cover][size][$eq]=big']) {
        const response = await app.get(`/api/articles?${query}`);
        expect(response.status, query).to.equal(400);
        expect(response.body.error.name, query).to.equal('ValidationError');
      }
      const zone = await app.get('/api/pages?filters[content][body][$eq]=x');
      expect(zone.status).to.equal(400);
    });
  });

  describe('json attributes: $contains family on the stored JSON text', () => {
    it('matches nested values and keys; case-sensitive unless …i', async () => {
      await expectList(articles('filters[meta][$contains]=Deep Value'), ['A1']);
      await expectList(articles('filters[meta][$contains]=deep value'), []);
      await expectList(articles('filters[meta][$containsi]=deep value'), ['A1']);
      await expectList(articles('filters[meta][$contains]="b"'), ['A1']);
      await expectList(articles('filters[meta][$contains]=other'), ['A2']);
      // NULL json is unknown to a negated match, as any NULL column is.
      await expectList(articles('filters[meta][$notContains]=Deep'), ['A2']);
      await expectList(articles('filters[meta][$notContainsi]=DEEP'), ['A2']);
      await expectList(articles('filters[meta][$contains][0]=Deep&filters[meta][$contains][1]=other'), ['A1', 'A2']);
      await expectList(articles('filters[meta][$null]=true'), ['A3', 'A4']);
    });

    it('other operators on json stay a 400', async () => {
      for (const operator of ['$eq', '$ne', '$startsWith', '$endsWith', '$eqi', '$in', '$lt']) {
        const response = await app.get(`/api/articles?filters[meta][${operator}]=x`);
        expect(response.status, operator).to.equal(400);
        expect(response.body.error.message, operator).to.match(new RegExp(`^Invalid parameter \\${operator}`));
      }
    });
  });
});
