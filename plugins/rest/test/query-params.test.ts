/**
 * sort, pagination, fields and publicationState on the REST list and
 * get-one routes: exact orders, exact meta (key order included), limits
 * from config/api.ts, and the 400s — real HTTP, both databases.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { ITEMS, errorBody, startItemApp, titles, type ItemSeed } from './fixture';

const published = ITEMS.filter((item) => item.publishedAt !== null);
/** Seed order sorted like the API must: nulls first ascending, ties by id. */
function sortedTitles(key: keyof ItemSeed, direction: 'asc' | 'desc', rows: ItemSeed[] = published): string[] {
  const indexed = rows.map((item, index) => ({ item, index }));
  indexed.sort((a, b) => {
    const x = a.item[key] as number | string | null;
    const y = b.item[key] as number | string | null;
    let order = 0;
    if (x === null && y !== null) order = -1;
    else if (y === null && x !== null) order = 1;
    else if (x !== null && y !== null) order = x < y ? -1 : x > y ? 1 : 0;
    if (direction === 'desc') order = -order;
    return order !== 0 ? order : a.index - b.index;
  });
  return indexed.map(({ item }) => item.title as string);
}

eachDatabase('REST sort, pagination, fields, publicationState', (dialect) => {
  let app: TestApp;
  let token: string;
  let ids: number[];
  before(async () => {
    ({ app, token, ids } = await startItemApp(dialect));
  });
  after(() => app?.stop());

  describe('sort', () => {
    it('by one field, :asc by default, ties broken by id', async () => {
      for (const [query, expected] of [
        ['sort=count', sortedTitles('count', 'asc')],
        ['sort=count:asc', sortedTitles('count', 'asc')],
        ['sort=count:desc', sortedTitles('count', 'desc')],
        ['sort=count:DESC', sortedTitles('count', 'desc')],
        ['sort=title', sortedTitles('title', 'asc')],
        ['sort=title:desc', sortedTitles('title', 'desc')],
        ['sort=price:desc', sortedTitles('price', 'desc')],
        ['sort=day', sortedTitles('day', 'asc')],
        ['sort=moment:desc', sortedTitles('moment', 'desc')],
        ['sort=active', [...published].sort((a, b) => rank(a.active) - rank(b.active)).map((item) => item.title as string)],
        ['sort[count]=desc', sortedTitles('count', 'desc')],
      ] as Array<[string, string[]]>) {
        const response = await app.get(`/api/items?fields[0]=title&${query}`);
        expect(response.status, query).to.equal(200);
        expect(titles(response.body), query).to.deep.equal(expected);
      }
    });

    it('multi-sort by comma list and by indexed array', async () => {
      const expected = ['Zebra', 'Éclair', 'apple TART', '500 off sale', '50% off_sale', 'éclair au café', 'Apple pie']
        .filter(() => true);
      // count desc (nulls last), then title desc within equal counts.
      const byCountThenTitle = [...published].sort((a, b) => {
        const x = a.count ?? -Infinity;
        const y = b.count ?? -Infinity;
        if (x !== y) return y - x;
        return (a.title as string) < (b.title as string) ? 1 : -1;
      }).map((item) => item.title);
      expect(expected).to.have.length(7);
      for (const query of ['sort=count:desc,title:desc', 'sort[0]=count:desc&sort[1]=title:desc', 'sort[0]=count:desc,title:desc']) {
        const response = await app.get(`/api/items?fields[0]=title&${query}`);
        expect(titles(response.body), query).to.deep.equal(byCountThenTitle);
      }
      const idDesc = await app.get('/api/items?fields[0]=title&sort=id:desc');
      expect(idDesc.body.data.map((entry: { id: number }) => entry.id)).to.deep.equal(ids.slice(0, 7).reverse());
    });

    it('answers 400 for a bad direction, an unknown, private or json field', async () => {
      const bad = await app.get('/api/items?sort=count:sideways');
      expect(bad.status).to.equal(400);
      expect(bad.body.error.name).to.equal('ValidationError');
      expect(bad.body.error.message).to.match(/^Invalid parameter sort/);
      for (const [query, message] of [
        ['sort=nope:asc', 'Invalid parameter nope'],
        ['sort=secret', 'Invalid parameter secret'],
        ['sort[0]=password:desc', 'Invalid parameter password'],
      ]) {
        const response = await app.get(`/api/items?${query}`);
        expect(response.body, query).to.deep.equal(errorBody(400, 'ValidationError', message));
      }
      expect((await app.get('/api/items?sort=data')).status).to.equal(400);
      expect((await app.get('/api/items?sort[0][x]=title')).status).to.equal(400);
    });
  });

  describe('pagination', () => {
    it('defaults to page 1 of 25 with counts, keys in order', async () => {
      const response = await app.get('/api/items?fields[0]=title');
      expect(JSON.stringify(response.body.meta)).to.equal('{"pagination":{"page":1,"pageSize":25,"pageCount":1,"total":7}}');
    });

    it('page mode: the right slice and meta', async () => {
      const response = await app.get('/api/items?fields[0]=title&pagination[page]=2&pagination[pageSize]=3');
      expect(titles(response.body)).to.deep.equal(published.slice(3, 6).map((item) => item.title));
      expect(JSON.stringify(response.body.meta.pagination)).to.equal('{"page":2,"pageSize":3,"pageCount":3,"total":7}');
      const beyond = await app.get('/api/items?pagination[page]=9&pagination[pageSize]=3');
      expect(beyond.body).to.deep.equal({ data: [], meta: { pagination: { page: 9, pageSize: 3, pageCount: 3, total: 7 } } });
      const pageOnly = await app.get('/api/items?pagination[page]=1');
      expect(JSON.stringify(pageOnly.body.meta.pagination)).to.equal('{"page":1,"pageSize":25,"pageCount":1,"total":7}');
    });

    it('offset mode: the right slice and meta', async () => {
      const response = await app.get('/api/items?fields[0]=title&pagination[start]=2&pagination[limit]=3');
      expect(titles(response.body)).to.deep.equal(published.slice(2, 5).map((item) => item.title));
      expect(JSON.stringify(response.body.meta.pagination)).to.equal('{"start":2,"limit":3,"total":7}');
      const startOnly = await app.get('/api/items?fields[0]=title&pagination[start]=5');
      expect(JSON.stringify(startOnly.body.meta.pagination)).to.equal('{"start":5,"limit":25,"total":7}');
      expect(titles(startOnly.body)).to.have.length(2);
    });

    it('withCount=false drops the totals; true/t/1 and false/f/0 accepted', async () => {
      for (const value of ['false', 'f', '0', 'FALSE']) {
        const page = await app.get(`/api/items?pagination[withCount]=${value}&pagination[pageSize]=2`);
        expect(JSON.stringify(page.body.meta), value).to.equal('{"pagination":{"page":1,"pageSize":2}}');
        expect(page.body.data).to.have.length(2);
      }
      const offset = await app.get('/api/items?pagination[withCount]=false&pagination[start]=1&pagination[limit]=2');
      expect(JSON.stringify(offset.body.meta)).to.equal('{"pagination":{"start":1,"limit":2}}');
      for (const value of ['true', 't', '1']) {
        const page = await app.get(`/api/items?pagination[withCount]=${value}`);
        expect(page.body.meta.pagination.total, value).to.equal(7);
      }
      const bad = await app.get('/api/items?pagination[withCount]=maybe');
      expect(bad.status).to.equal(400);
      expect(bad.body.error.name).to.equal('ValidationError');
    });

    it('clamps to maxLimit (reporting the clamped value), < 1 → 1, limit=-1 → maxLimit', async () => {
      const cases: Array<[string, string]> = [
        ['pagination[pageSize]=500', '{"page":1,"pageSize":100,"pageCount":1,"total":7}'],
        ['pagination[limit]=500', '{"start":0,"limit":100,"total":7}'],
        ['pagination[pageSize]=0', '{"page":1,"pageSize":1,"pageCount":7,"total":7}'],
        ['pagination[pageSize]=-4', '{"page":1,"pageSize":1,"pageCount":7,"total":7}'],
        ['pagination[limit]=0', '{"start":0,"limit":1,"total":7}'],
        ['pagination[limit]=-7', '{"start":0,"limit":1,"total":7}'],
        ['pagination[limit]=-1', '{"start":0,"limit":100,"total":7}'],
        ['pagination[page]=0&pagination[pageSize]=2', '{"page":1,"pageSize":2,"pageCount":4,"total":7}'],
        ['pagination[page]=0', '{"page":1,"pageSize":25,"pageCount":1,"total":7}'],
        ['pagination[start]=-3&pagination[limit]=2', '{"start":0,"limit":2,"total":7}'],
      ];
      for (const [query, meta] of cases) {
        const response = await app.get(`/api/items?${query}`);
        expect(response.status, query).to.equal(200);
        expect(JSON.stringify(response.body.meta.pagination), query).to.equal(meta);
      }
    });

    it('answers 400 PaginationError / ValidationError for malformed numbers and mixed modes', async () => {
      const pagination: Array<[string, string]> = [
        ['pagination[page]=abc', "Invalid 'page' parameter. Expected an integer > 0, received: abc"],
        ['pagination[page]=-1', "Invalid 'page' parameter. Expected an integer > 0, received: -1"],
        ['pagination[page]=1.5', "Invalid 'page' parameter. Expected an integer > 0, received: 1.5"],
        ['pagination[pageSize]=abc', "Invalid 'pageSize' parameter. Expected an integer > 0, received: abc"],
      ];
      for (const [query, message] of pagination) {
        const response = await app.get(`/api/items?${query}`);
        expect(response.body, query).to.deep.equal(errorBody(400, 'PaginationError', message));
      }
      // Mixed modes: Strapi v4 names this one ValidationError.
      const mixed = 'Invalid pagination attributes. You cannot use page and offset pagination in the same query';
      for (const query of ['pagination[page]=1&pagination[start]=0', 'pagination[pageSize]=2&pagination[limit]=2', 'pagination[page]=0&pagination[limit]=2']) {
        const response = await app.get(`/api/items?${query}`);
        expect(response.body, query).to.deep.equal(errorBody(400, 'ValidationError', mixed));
      }
      for (const query of ['pagination[start]=abc', 'pagination[limit]=x', 'pagination[limit]=2.5', 'pagination=5', 'pagination[page][0]=1']) {
        const response = await app.get(`/api/items?${query}`);
        expect(response.status, query).to.equal(400);
        expect(['ValidationError', 'PaginationError'], query).to.include(response.body.error.name);
      }
    });
  });

  describe('fields', () => {
    it('selects attributes, always with id', async () => {
      const one = await app.get(`/api/items/${ids[0]}?fields[0]=title&fields[1]=count`);
      expect(one.body).to.deep.equal({ data: { id: ids[0], attributes: { title: 'Apple pie', count: 10 } }, meta: {} });
      const comma = await app.get('/api/items?fields=title,price&pagination[pageSize]=1');
      expect(comma.body.data).to.deep.equal([{ id: ids[0], attributes: { title: 'Apple pie', price: 10.5 } }]);
      const idOnly = await app.get('/api/items?fields[0]=id&pagination[pageSize]=2');
      expect(idOnly.body.data).to.deep.equal([{ id: ids[0], attributes: {} }, { id: ids[1], attributes: {} }]);
      const system = await app.get(`/api/items/${ids[0]}?fields[0]=publishedAt`);
      expect(Object.keys(system.body.data.attributes)).to.deep.equal(['publishedAt']);
    });

    it('never returns private fields or passwords, even when all fields are asked for', async () => {
      for (const path of ['/api/items', '/api/items?fields=*', `/api/items/${ids[0]}`]) {
        const response = await app.get(path);
        expect(response.text, path).not.to.match(/"secret"|"password"|pw-one|"s1"/);
      }
      const full = await app.get(`/api/items/${ids[0]}`);
      expect(Object.keys(full.body.data.attributes)).to.deep.equal([
        'title', 'code', 'body', 'count', 'big', 'price', 'ratio', 'active', 'day', 'clock', 'moment', 'kind', 'data', 'createdAt', 'updatedAt', 'publishedAt',
      ]);
    });

    it('answers 400 "Invalid parameter <key>" for unknown, private and password fields', async () => {
      for (const key of ['nope', 'secret', 'password']) {
        const response = await app.get(`/api/items?fields[0]=title&fields[1]=${key}`);
        expect(response.body, key).to.deep.equal(errorBody(400, 'ValidationError', `Invalid parameter ${key}`));
        const one = await app.get(`/api/items/${ids[0]}?fields[0]=${key}`);
        expect(one.status, key).to.equal(400);
      }
    });
  });

  describe('publicationState', () => {
    const draftId = () => ids[7];

    it('live (the default) hides drafts in find and findOne', async () => {
      for (const query of ['', '&publicationState=live']) {
        const list = await app.get(`/api/items?fields[0]=title${query}`);
        expect(list.body.meta.pagination.total).to.equal(7);
        expect(titles(list.body)).not.to.include('Draft donut');
        const one = await app.get(`/api/items/${draftId()}?${query.slice(1)}`);
        expect(one.body).to.deep.equal(errorBody(404, 'NotFoundError', 'Not Found'));
        const withToken = await app.get(`/api/items/${draftId()}?${query.slice(1)}`, { token });
        expect(withToken.status).to.equal(404);
      }
    });

    it('preview shows drafts to a caller allowed to find, in find and findOne', async () => {
      const list = await app.get('/api/items?fields[0]=title&fields[1]=publishedAt&publicationState=preview', { token });
      expect(list.body.meta.pagination.total).to.equal(8);
      expect(list.body.data[7]).to.deep.equal({ id: draftId(), attributes: { title: 'Draft donut', publishedAt: null } });
      const one = await app.get(`/api/items/${draftId()}?publicationState=preview&fields[0]=title`, { token });
      expect(one.body).to.deep.equal({ data: { id: draftId(), attributes: { title: 'Draft donut' } }, meta: {} });
    });

    it('anonymous preview is 403 ForbiddenError in find and findOne', async () => {
      const list = await app.get('/api/items?publicationState=preview');
      expect(list.body).to.deep.equal(errorBody(403, 'ForbiddenError', 'Forbidden'));
      const one = await app.get(`/api/items/${ids[0]}?publicationState=preview`);
      expect(one.body).to.deep.equal(errorBody(403, 'ForbiddenError', 'Forbidden'));
    });

    it('an unknown publicationState is a 400', async () => {
      const response = await app.get('/api/items?publicationState=drafts');
      expect(response.status).to.equal(400);
      expect(response.body.error.name).to.equal('ValidationError');
      expect(response.body.error.message).to.match(/^Invalid parameter publicationState/);
    });
  });
});

eachDatabase('REST pagination and preview config', (dialect) => {
  let app: TestApp;
  before(async () => {
    ({ app } = await startItemApp(dialect, { config: { api: { rest: { defaultLimit: 2, maxLimit: 3, withCount: false, publicPreview: true } } } }));
  });
  after(() => app?.stop());

  it('uses defaultLimit, maxLimit and withCount from config/api.ts', async () => {
    const plain = await app.get('/api/items?fields[0]=title');
    expect(plain.body.data).to.have.length(2);
    expect(JSON.stringify(plain.body.meta)).to.equal('{"pagination":{"page":1,"pageSize":2}}');
    const clamped = await app.get('/api/items?fields[0]=title&pagination[pageSize]=50&pagination[withCount]=true');
    expect(clamped.body.data).to.have.length(3);
    expect(JSON.stringify(clamped.body.meta)).to.equal('{"pagination":{"page":1,"pageSize":3,"pageCount":3,"total":7}}');
    const all = await app.get('/api/items?pagination[limit]=-1');
    expect(all.body.data).to.have.length(3);
    expect(JSON.stringify(all.body.meta)).to.equal('{"pagination":{"start":0,"limit":3}}');
  });

  it('rest.publicPreview lets anonymous callers preview', async () => {
    const list = await app.get('/api/items?publicationState=preview&pagination[withCount]=true&filters[publishedAt][$null]=true&fields[0]=title');
    expect(list.status).to.equal(200);
    expect(titles(list.body)).to.deep.equal(['Draft donut']);
  });
});

function rank(value: boolean | null | undefined): number {
  return value === null || value === undefined ? 0 : value ? 2 : 1;
}
